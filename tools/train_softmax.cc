// hane train softmax (being written: registers nothing yet).
#include "tools/commands.h"

namespace hane::tools {

void add_train_softmax_command(CLI::App*) {}

}  // namespace hane::tools
