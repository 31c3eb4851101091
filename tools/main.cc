// hane: learn weak move guessers from Go game records, and measure them.
#include <CLI/CLI.hpp>

#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/version.h"

int main(int argc, char** argv) {
  CLI::App app{"hane: learn weak move guessers from Go game records, and measure them.\n"
               "Exit codes: 0 success, 1 the work failed, 2 usage (bad command line, missing input, "
               "unwritable output), 130 interrupted."};
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
  return hane::tools::run(app, argc, argv);
}
