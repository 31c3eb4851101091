// Playout policies by name, the same way everywhere (bench, search, gtp, match):
// `--policy NAME[:MODEL]`, e.g. `uniform` or `softmax:patterns/kgs-softmax-rollout.model`.
//
// Adding a policy: its files in lib/playout/ (a PlayoutPolicy and a factory with the
// PolicyFactory signature), and one line in the table of registry.cc.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "playout/policy.h"

namespace hane {

/// A policy's own settings, given as separate options (not inside the spec) so that an engine
/// is always described by an ordinary command line: `--policy-set KEY=VALUE`, keys prefixed by
/// the policy's name (e.g. "rules.capture" = "0.9"). Each policy reads the keys of its prefix
/// and refuses those it does not know (make_policy's error names the key).
struct PolicyOptions {
  std::map<std::string, std::string, std::less<>> settings;
};

/// Builds one kind of policy from the MODEL part of a spec ("" when there is none) and the
/// options. Errors (InvalidArgument or NotFound) name the model path or the setting.
using PolicyFactory = absl::StatusOr<std::unique_ptr<PlayoutPolicy>> (*)(std::string_view model,
                                                                         const PolicyOptions& options);

/// One entry of the registry.
struct PolicyKind {
  std::string_view name;      // "uniform", "softmax"...
  std::string_view argument;  // "" (no model), "MODEL" (required)
  std::string_view help;      // one line for --help
  PolicyFactory make;
};

/// A spec read: "NAME" or "NAME:MODEL", the policy registered under NAME.
struct PolicySpec {
  std::string name;
  std::string model;                // "" when the policy takes none
  const PolicyKind* kind = nullptr;
};

/// The one reading of a policy spec, for every command (engine options, bench, tune, analyze)
/// and make_policy. Errors (InvalidArgument): an unknown name (the message lists the known
/// ones), a model given to a policy that takes none, a missing model. Loads nothing.
absl::StatusOr<PolicySpec> parse_policy_spec(std::string_view spec);

/// The settings "KEY=VALUE" (each --policy-set), in order (a later value of a key replaces an
/// earlier one). Errors (InvalidArgument): an entry without '=' or without a key, naming it.
absl::StatusOr<PolicyOptions> parse_policy_settings(std::span<const std::string> settings);

/// The policy named by `spec` ("NAME" or "NAME:MODEL"). Errors: those of parse_policy_spec, a
/// missing or unusable model file (the message names the path), an unknown setting. Loads the
/// model: a wrong model fails here, before any playout.
absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_policy(std::string_view spec,
                                                           const PolicyOptions& options = {});

/// The names make_policy() accepts, for help texts and error messages.
std::vector<std::string> policy_names();
/// Every registered policy, in registration order.
std::span<const PolicyKind> policy_kinds();

}  // namespace hane
