// Playout policies by name, the same way everywhere (bench, search, gtp, match):
// `--policy NAME[:MODEL]`, e.g. `uniform` or `softmax:patterns/kgs-softmax-rollout.model`.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "playout/policy.h"

namespace hane {

/// A policy's own settings, given as separate options so that an engine is always described by
/// an ordinary command line.
struct PolicyOptions {};

/// The policy named by `spec` ("NAME" or "NAME:MODEL"). Errors: an unknown name (the message
/// lists the known ones), a missing or unusable model file (the message names the path).
absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_policy(std::string_view spec,
                                                           const PolicyOptions& options = {});

/// The names make_policy() accepts, for help texts and error messages.
std::vector<std::string> policy_names();

}  // namespace hane
