// hane train tree (being written: registers nothing yet).
#include "tools/commands.h"

namespace hane::tools {

void add_train_tree_command(CLI::App*) {}

}  // namespace hane::tools
