// Loading any trained guesser from its model file, through the one registry of model kinds.
//
// Adding a guesser: its files in lib/predict/ (a Guesser and a loader with the GuesserLoader
// signature), one line in the table of load.cc, and its trainer in lib/train/ with one line in
// tools/train.cc.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "predict/guesser.h"
#include "predict/model_file.h"

namespace hane {

/// Builds a guesser from a model file whose header's kind is the registered one. Errors name
/// `path` (as the kind's *_from_file function does).
using GuesserLoader = absl::StatusOr<std::unique_ptr<Guesser>> (*)(const ModelFile& file, const std::string& path);

struct ModelKind {
  std::string_view kind;  // the header's "kind" (load.cc lists them: "pattern-table", "decision-tree", ...)
  GuesserLoader load;
};

/// Every registered model kind.
std::span<const ModelKind> model_kinds();

/// The guesser stored in the model file at `path` (any kind), or "uniform" for the baseline.
/// Errors: those of read_model_file, an unknown kind, or a payload the kind rejects; each
/// message names the path.
absl::StatusOr<std::unique_ptr<Guesser>> load_guesser(const std::string& path);

}  // namespace hane
