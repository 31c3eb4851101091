#include "predict/load.h"

#include "predict/model_file.h"
#include "predict/pattern_table.h"
#include "predict/softmax.h"
#include "predict/tree.h"
#include "predict/uniform.h"

namespace hane {

absl::StatusOr<std::unique_ptr<Guesser>> load_guesser(const std::string& path) {
  if (path == "uniform") return std::make_unique<UniformGuesser>();
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  const std::string kind = file->header.value("kind", "");
  if (kind == "pattern-table") {
    absl::StatusOr<PatternTable> table = pattern_table_from_file(*file, path);
    if (!table.ok()) return table.status();
    return std::make_unique<PatternTableGuesser>(std::make_shared<const PatternTable>(std::move(*table)));
  }
  if (kind == "decision-tree") {
    absl::StatusOr<DecisionTree> tree = tree_from_file(*file, path);
    if (!tree.ok()) return tree.status();
    return std::make_unique<TreeGuesser>(std::make_shared<const DecisionTree>(std::move(*tree)));
  }
  if (kind == "softmax") {
    absl::StatusOr<SoftmaxModel> model = softmax_model_from_file(*file, path);
    if (!model.ok()) return model.status();
    return std::make_unique<SoftmaxGuesser>(std::make_shared<const SoftmaxModel>(std::move(*model)));
  }
  return absl::InvalidArgumentError(path + ": unknown model kind '" + kind + "'");
}

}  // namespace hane
