// The playout-policy options every command that plays out games shares: `--policy NAME[:MODEL]`
// (see playout/registry.h) and `--policy-set KEY=VALUE` for a policy's own settings.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "playout/registry.h"

namespace hane::tools {

struct PolicyFlags {
  std::vector<std::string> specs;     // --policy, in the order given
  std::vector<std::string> settings;  // --policy-set KEY=VALUE

  /// The settings as PolicyOptions; throws std::runtime_error on an entry without '='.
  PolicyOptions options() const;
  /// make_policy(spec, options()), or std::runtime_error with make_policy's message.
  std::unique_ptr<PlayoutPolicy> make(const std::string& spec) const;
};

/// Adds --policy (repeatable when `repeatable`, else once) and --policy-set to `cmd`; the help
/// lists the registered policies.
void add_policy_flags(CLI::App* cmd, PolicyFlags& flags, bool repeatable);

}  // namespace hane::tools
