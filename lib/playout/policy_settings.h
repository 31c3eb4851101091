// A playout policy's settings checked without making the policy (no model is loaded), so that a
// command line's mistakes are found before any work (registry.h has the policies).
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "playout/registry.h"

namespace hane {

/// The errors make_policy(spec, options) would give for the settings (an unknown key of the
/// policy's prefix, a value out of range), found without loading any model; OK for an unknown
/// policy name (make_policy reports that).
absl::Status check_policy_settings(std::string_view spec, const PolicyOptions& options);

}  // namespace hane
