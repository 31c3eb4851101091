// hane: learn weak move guessers from Go game records, and measure them.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <exception>

#include "cluster/cluster.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/version.h"
#include "util/progress.h"

int main(int argc, char** argv) {
  // Under mpirun/srun, match, tune, eval, train and analyze run on every rank (lib/cluster). Only
  // they start MPI: other commands (the `hane gtp` children of a match) run alone, as they inherit
  // the launcher's environment. Rank 0 prints; the others keep stderr for their errors.
  const bool distributed = argc > 1 && (!std::strcmp(argv[1], "match") || !std::strcmp(argv[1], "eval") ||
                                        !std::strcmp(argv[1], "train") || !std::strcmp(argv[1], "tune") ||
                                        !std::strcmp(argv[1], "analyze"));
  if (distributed) {
    try {
      hane::cluster::init(&argc, &argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hane: %s\n", e.what());
      return 1;
    }
  }
  if (!hane::cluster::is_root()) {
    if (!std::freopen("/dev/null", "w", stdout)) return 1;
    hane::Progress::set_enabled(false);
  }
  CLI::App app{"hane: learn weak move guessers from Go game records, and measure them.\n"
               "Exit codes: 0 success, 1 the work failed, 2 usage (bad command line, missing input, "
               "unwritable output), 130 interrupted."};
  app.set_version_flag("--version", std::string("hane ") + hane::tools::kVersion + " (" + hane::tools::kCommit + ")");
  app.require_subcommand(1);
  hane::tools::add_dataset_command(app);
  hane::tools::add_train_command(app);
  hane::tools::add_eval_command(app);
  hane::tools::add_model_command(app);
  hane::tools::add_bench_command(app);
  hane::tools::add_gtp_command(app);
  hane::tools::add_play_command(app);
  hane::tools::add_match_command(app);
  hane::tools::add_tune_command(app);
  hane::tools::add_analyze_command(app);
  hane::tools::add_score_command(app);
  const int rc = hane::tools::run(app, argc, argv);
  // A rank that fails ends them all (the others may be waiting in a collective). An interrupt
  // (SIGUSR1, which mpirun forwards to every rank, or SIGTERM; mpirun turns Ctrl-C into
  // SIGTERM then SIGKILL, see util/interrupt.h) is agreed on by the ranks, which then end
  // normally with 130.
  if (rc != 0 && rc != hane::tools::kExitInterrupted && hane::cluster::size() > 1) hane::cluster::abort_all(rc);
  hane::cluster::finalize();
  return rc;
}
