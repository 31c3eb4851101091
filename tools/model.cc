// hane model: look inside model files.
#include <cstdio>
#include <memory>

#include "predict/load.h"
#include "predict/model_file.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

constexpr size_t kShownItems = 4;

// The header with long lists cut to their first and last items (the JSON file keeps them).
nlohmann::json summarised(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[key] = summarised(value);
    return out;
  }
  if (j.is_array() && j.size() > 2 * kShownItems) {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < kShownItems; ++i) out.push_back(summarised(j[i]));
    out.push_back("... " + std::to_string(j.size() - 2 * kShownItems) + " more of " + std::to_string(j.size()) +
                  " (--json FILE for all) ...");
    for (size_t i = j.size() - kShownItems; i < j.size(); ++i) out.push_back(summarised(j[i]));
    return out;
  }
  return j;
}

struct InfoFlags {
  std::string path;
  bool dump = false;
  std::string json_path;
  bool quiet = false;  // accepted as everywhere; model info writes only results and errors
};

}  // namespace

void add_model_command(CLI::App& app) {
  CLI::App* model = app.add_subcommand("model", "Look inside model files.");
  model->require_subcommand(1);
  auto f = std::make_shared<InfoFlags>();
  CLI::App* info = model->add_subcommand("info", "Check a model file and print its header: kind, feature version, "
                                                  "board sizes, how it was trained (long lists summarised).");
  info->add_option("file", f->path, "Model file")->required();
  info->add_flag("--dump", f->dump, "Also print the model as text (decision trees only: every question and leaf)");
  info->add_option("--json", f->json_path, "Also write the whole header (every list in full) to this JSON file");
  info->add_flag("--quiet", f->quiet, "Nothing on stderr but warnings and errors (model info prints only results)");
  info->callback([f] {
    if (f->path == "uniform") {
      // The built-in baseline: no file, no header.
      const nlohmann::json header = {{"kind", "uniform"}, {"file", nullptr}};
      std::printf("uniform: the built-in uniform guesser (every legal move equally likely), no file\n%s\n",
                  header.dump(2).c_str());
      if (!f->json_path.empty()) write_json(f->json_path, header);
      if (f->dump) throw std::runtime_error("uniform: --dump: this kind of model has no text form");
      return;
    }
    auto line = describe_model(f->path);  // checks the whole file, payload included
    if (!line.ok()) throw std::runtime_error(std::string(line.status().message()));
    auto file = read_model_file(f->path);
    if (!file.ok()) throw std::runtime_error(std::string(file.status().message()));
    std::printf("%s: %s, %s payload bytes, checksum ok\n%s\n", f->path.c_str(), line->c_str(),
                with_thousands(static_cast<int64_t>(file->payload.size())).c_str(), summarised(file->header).dump(2).c_str());
    if (!f->json_path.empty()) write_json(f->json_path, file->header);
    if (f->dump) {
      const std::string kind = file->header.value("kind", "");
      for (const OtherModelKind& k : other_model_kinds()) {
        if (k.kind == kind) throw std::runtime_error(f->path + ": --dump: this kind of model has no text form");
      }
      auto guesser = load_guesser(f->path);
      if (!guesser.ok()) throw std::runtime_error(std::string(guesser.status().message()));
      const std::string text = (*guesser)->dump();
      if (text.empty()) throw std::runtime_error(f->path + ": --dump: this kind of model has no text form");
      std::fputs(text.c_str(), stdout);
    }
  });
}

}  // namespace hane::tools
