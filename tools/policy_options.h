// The playout-policy options every command that plays out games shares: `--policy NAME[:MODEL]`
// (see playout/registry.h) and `--policy-set KEY=VALUE` for a policy's own settings. Parsed
// here once for bench and for the engine options (engine_options.h).
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

  /// The settings as PolicyOptions; UsageError on an entry without '='.
  PolicyOptions options() const;
  /// make_policy(spec, options()) after check_policy_spec (UsageError); a model that does not
  /// load is a std::runtime_error.
  std::unique_ptr<PlayoutPolicy> make(const std::string& spec) const;
};

/// The --policy help: "Playout policy NAME[:MODEL]. Known:" and one line per registered policy.
std::string policy_help();

/// Adds --policy (repeatable when `repeatable`, else once) and --policy-set to `cmd`, by the rule
/// of add_repeatable (cli.h): a policy or a setting's key given twice is refused.
void add_policy_flags(CLI::App* cmd, PolicyFlags& flags, bool repeatable);

/// Usage errors of a spec and its settings, found before anything is loaded (UsageError): an
/// unknown name (with "did you mean"), a model missing or given where none is taken, a model
/// file that does not exist, a setting the policy refuses (unknown key, value out of range).
void check_policy_spec(const std::string& spec, const PolicyOptions& options);

/// UsageError naming the key and the policies in use when a setting is read by none of the
/// policies of `specs` (each policy reads the keys prefixed by its name); with the same setting
/// under a policy in use as a hint when that policy accepts it (rules.capture=0.9 with
/// rules-gamma in use: "did you mean rules-gamma.capture?"), never a key that would be refused.
void check_settings_used(const PolicyOptions& options, const std::vector<std::string>& specs);

/// "did you mean POLICY.FIELD?" for the first policy of `specs` that accepts `key`'s field with
/// `value` under its own name, else "".
std::string setting_hint(const std::string& key, const std::string& value, const std::vector<std::string>& specs);

}  // namespace hane::tools
