#include "playout/registry.h"

#include "absl/strings/str_join.h"
#include "playout/uniform.h"

namespace hane {

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_policy(std::string_view spec, const PolicyOptions&) {
  const size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  if (name == "uniform" && colon == std::string_view::npos) return std::make_unique<UniformPolicy>();
  return absl::InvalidArgumentError("unknown playout policy '" + std::string(spec) +
                                    "' (known: " + absl::StrJoin(policy_names(), ", ") + ")");
}

std::vector<std::string> policy_names() { return {"uniform"}; }

}  // namespace hane
