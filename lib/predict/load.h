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

/// Checks a whole model file of a kind that is not a move guesser and says in one line what it
/// holds (for `hane model info`). Errors name `path`, as the kind's *_from_file function does.
using ModelDescriber = absl::StatusOr<std::string> (*)(const ModelFile& file, const std::string& path);

/// A model kind that is not a move guesser (the joseki dictionary, predict/joseki.h), and the
/// option that uses it.
struct OtherModelKind {
  std::string_view kind;
  ModelDescriber describe;
  std::string_view used_by;  // e.g. "hane gtp --joseki"
};

/// Every registered kind that is not a move guesser.
std::span<const OtherModelKind> other_model_kinds();

/// One line about the model file at `path`, of any kind: a guesser's name ("decision tree
/// ..."), or what another kind holds (not "uniform", which has no file). Checks the whole
/// file. Errors: those of read_model_file, an unknown kind, a payload the kind rejects; each
/// names the path.
absl::StatusOr<std::string> describe_model(const std::string& path);

/// What to do with a model file of `kind` at `path` given where another kind is needed (a
/// playout policy's model), as an accepted alternative only: " (use guesser:PATH)" for a
/// move guesser (any guesser kind is a `guesser:` policy), " (a joseki model is for hane gtp
/// --joseki)" for another known kind, "" for an unknown kind.
std::string other_kind_hint(std::string_view kind, const std::string& path);

/// The guesser stored in the model file at `path` (any kind), or "uniform" for the baseline.
/// Errors: those of read_model_file, an unknown kind, a kind that is not a guesser (naming the
/// option that takes it), or a payload the kind rejects; each message names the path.
absl::StatusOr<std::unique_ptr<Guesser>> load_guesser(const std::string& path);

}  // namespace hane
