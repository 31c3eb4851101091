// Loading any trained guesser from its model file.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "predict/guesser.h"

namespace hane {

/// The guesser stored in the model file at `path` (any kind), or "uniform" for the baseline.
/// Errors: those of read_model_file, an unknown kind, or a payload the kind rejects; each
/// message names the path.
absl::StatusOr<std::unique_ptr<Guesser>> load_guesser(const std::string& path);

}  // namespace hane
