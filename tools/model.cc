// hane model: look inside model files.
#include <cstdio>
#include <memory>

#include "predict/load.h"
#include "predict/model_file.h"
#include "tools/commands.h"

namespace hane::tools {

void add_model_command(CLI::App& app) {
  CLI::App* model = app.add_subcommand("model", "Look inside model files.");
  model->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  auto dump = std::make_shared<bool>(false);
  CLI::App* info = model->add_subcommand("info", "Check a model file and print its header: kind, feature version, "
                                                  "board size, how it was trained.");
  info->add_option("file", *path, "Model file")->required();
  info->add_flag("--dump", *dump, "Also print the model as text (decision trees: every question and leaf)");
  info->callback([path, dump] {
    auto guesser = load_guesser(*path);  // checks the whole file, payload included
    if (!guesser.ok()) throw std::runtime_error(std::string(guesser.status().message()));
    auto file = read_model_file(*path);
    std::printf("%s: %s, %zu payload bytes, checksum ok\n%s\n", path->c_str(), (*guesser)->name().c_str(),
                file->payload.size(), file->header.dump(2).c_str());
    if (*dump) {
      const std::string text = (*guesser)->dump();
      if (text.empty()) throw std::runtime_error(*path + ": --dump: this kind of model has no text form");
      std::fputs(text.c_str(), stdout);
    }
  });
}

}  // namespace hane::tools
