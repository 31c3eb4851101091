// hane train: the group of trainer subcommands, one file each (train_*.cc). A new guesser's
// trainer is one more line here.
#include "tools/commands.h"

namespace hane::tools {

void add_train_command(CLI::App& app) {
  CLI::App* train = app.add_subcommand("train", "Learn a move guesser (or the joseki dictionary) from game records.");
  train->require_subcommand(1);
  add_train_diamond_command(train);
  add_train_gamma_command(train);
  add_train_joseki_command(train);
  add_train_softmax_command(train);
  add_train_tree_command(train);
  add_train_boost_command(train);
}

}  // namespace hane::tools
