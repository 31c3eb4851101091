// Each `hane` subcommand lives in its own file and adds itself to the app here.
#pragma once

#include <CLI/CLI.hpp>

namespace hane::tools {

void add_analyze_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_dataset_command(CLI::App& app);
void add_train_command(CLI::App& app);
// `hane train diamond|gamma|joseki|softmax|tree|boost`, each in its own file, added under `train` by train.cc.
void add_train_diamond_command(CLI::App* train);
void add_train_gamma_command(CLI::App* train);
void add_train_joseki_command(CLI::App* train);
void add_train_softmax_command(CLI::App* train);
void add_train_tree_command(CLI::App* train);
void add_train_boost_command(CLI::App* train);
void add_eval_command(CLI::App& app);
void add_model_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_gtp_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_score_command(CLI::App& app);

}  // namespace hane::tools
