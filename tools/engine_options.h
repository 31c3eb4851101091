// The engine options, the same for every command that describes an engine (gtp, play, match):
// budget, playout policy, prior, threads, seed and the search's knobs.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "absl/status/statusor.h"
#include "gtp/search_player.h"

namespace hane::tools {

struct EngineFlags {
  gtp::EngineOptions options;  // search.policy_options is filled by make_player from policy_settings
  std::vector<std::string> policy_settings;  // --policy-set KEY=VALUE, in order
  /// The defaults are in use (no --policy / --prior): fall back with a warning when a shipped
  /// model is missing.
  bool default_policy = true;
  bool default_prior = true;
  /// --quiet: nothing on stderr but warnings and errors (no banner naming the engine).
  bool quiet = false;
  /// The command the options were added to, to tell which the user gave (per-board-size
  /// defaults fill only the others).
  const CLI::App* app = nullptr;
};

/// Adds --playouts, --time-per-move, --policy, --prior, --threads, --seed and the search's
/// other knobs to `cmd` (in the option group "Engine"), writing into `flags` (which must
/// outlive the parse). The defaults are the shipped settings (default_engine_options on the
/// patterns folder). Without `quiet_option` there is no --quiet (the command has its own).
void add_engine_options(CLI::App* cmd, EngineFlags& flags, bool quiet_option = true);

/// The options as the command line gives them, after its checks (UsageError, found before
/// anything loads: a bad --policy, a --policy-set key the policy refuses or no policy in use
/// reads, a --prior or --joseki file that does not exist), with --policy-set parsed into
/// search.policy_options: what make_player plays with.
gtp::EngineOptions checked_engine_options(const EngineFlags& flags);

/// The player the parsed flags describe (warnings on `log`). Throws UsageError for what the
/// command line got wrong, found before anything loads: a bad --policy (unknown name, a missing
/// model file), a --policy-set key the policy refuses or no policy in use reads, a --prior file
/// that does not exist. Other errors (a model that does not load) are returned, naming the option.
absl::StatusOr<std::unique_ptr<gtp::SearchPlayer>> make_player(const EngineFlags& flags, std::ostream* log);

/// Where the shipped models are: $HANE_PATTERNS if set, else the source tree's patterns/.
std::string patterns_dir();

}  // namespace hane::tools
