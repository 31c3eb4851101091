#include "predict/load.h"

#include "absl/strings/str_join.h"
#include "predict/boost.h"
#include "predict/gamma.h"
#include "predict/joseki.h"
#include "predict/leaf_softmax.h"
#include "predict/pattern_table.h"
#include "predict/softmax.h"
#include "predict/tree.h"
#include "predict/uniform.h"

namespace hane {

namespace {

// Wraps a kind's `Model from_file(file, path)` and its guesser `G(shared_ptr<const Model>)`.
template <class Model, class G, absl::StatusOr<Model> (*from_file)(const ModelFile&, const std::string&)>
absl::StatusOr<std::unique_ptr<Guesser>> load_as(const ModelFile& file, const std::string& path) {
  absl::StatusOr<Model> model = from_file(file, path);
  if (!model.ok()) return model.status();
  return std::make_unique<G>(std::make_shared<const Model>(std::move(*model)));
}

// The registry: one line per model kind.
constexpr ModelKind kKinds[] = {
    {"pattern-table", load_as<PatternTable, PatternTableGuesser, pattern_table_from_file>},
    {"decision-tree", load_as<DecisionTree, TreeGuesser, tree_from_file>},
    {"softmax", load_as<SoftmaxModel, SoftmaxGuesser, softmax_model_from_file>},
    {"boosted-trees", load_as<BoostedTrees, BoostGuesser, boosted_trees_from_file>},
    {"gamma", load_as<GammaModel, GammaGuesser, gamma_model_from_file>},
    {"leaf-softmax", load_as<LeafSoftmaxModel, LeafSoftmaxGuesser, leaf_softmax_from_file>},
};

absl::StatusOr<std::string> describe_joseki_file(const ModelFile& file, const std::string& path) {
  absl::StatusOr<JosekiDictionary> d = joseki_from_file(file, path);
  if (!d.ok()) return d.status();
  return describe_joseki(*d);
}

// Kinds that are not guessers: one line each.
constexpr OtherModelKind kOtherKinds[] = {
    {"joseki", describe_joseki_file, "hane gtp --joseki"},
};

std::string known_kinds() {
  std::vector<std::string> known;
  for (const ModelKind& k : kKinds) known.emplace_back(k.kind);
  for (const OtherModelKind& k : kOtherKinds) known.emplace_back(k.kind);
  return absl::StrJoin(known, ", ");
}

}  // namespace

std::span<const ModelKind> model_kinds() { return kKinds; }
std::span<const OtherModelKind> other_model_kinds() { return kOtherKinds; }

std::string other_kind_hint(std::string_view kind, const std::string& path) {
  for (const ModelKind& k : kKinds) {
    if (k.kind == kind) return " (use guesser:" + path + ")";
  }
  for (const OtherModelKind& k : kOtherKinds) {
    if (k.kind == kind) return " (a " + std::string(kind) + " model is for " + std::string(k.used_by) + ")";
  }
  return "";
}

absl::StatusOr<std::unique_ptr<Guesser>> load_guesser(const std::string& path) {
  if (path == "uniform") return std::make_unique<UniformGuesser>();
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  const std::string kind = file->header.value("kind", "");
  for (const ModelKind& k : kKinds) {
    if (k.kind == kind) return k.load(*file, path);
  }
  for (const OtherModelKind& k : kOtherKinds) {
    if (k.kind == kind) {
      return absl::InvalidArgumentError(path + ": a " + kind + " model is not a move guesser (it is for " +
                                        std::string(k.used_by) + ")");
    }
  }
  return absl::InvalidArgumentError(path + ": unknown model kind '" + kind + "' (known: " + known_kinds() + ")");
}

absl::StatusOr<std::string> describe_model(const std::string& path) {
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  const std::string kind = file->header.value("kind", "");
  for (const OtherModelKind& k : kOtherKinds) {
    if (k.kind == kind) return k.describe(*file, path);
  }
  for (const ModelKind& k : kKinds) {
    if (k.kind != kind) continue;
    absl::StatusOr<std::unique_ptr<Guesser>> guesser = k.load(*file, path);
    if (!guesser.ok()) return guesser.status();
    return (*guesser)->name();
  }
  return absl::InvalidArgumentError(path + ": unknown model kind '" + kind + "' (known: " + known_kinds() + ")");
}

}  // namespace hane
