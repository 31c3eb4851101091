// hane: learn weak move guessers from Go game records, and measure them.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "tools/commands.h"
#include "tools/version.h"

int main(int argc, char** argv) {
  CLI::App app{"hane: learn weak move guessers from Go game records, and measure them."};
  app.set_version_flag("--version", std::string("hane ") + hane::tools::kVersion);
  app.require_subcommand(1);
  hane::tools::add_dataset_command(app);
  hane::tools::add_train_command(app);
  hane::tools::add_eval_command(app);
  hane::tools::add_model_command(app);
  hane::tools::add_bench_command(app);
  hane::tools::add_gtp_command(app);
  hane::tools::add_play_command(app);
  hane::tools::add_match_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hane: %s\n", e.what());
    return 1;
  }
  return 0;
}
