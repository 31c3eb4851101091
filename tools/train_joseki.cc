// hane train joseki: learn the joseki dictionary (train/joseki_train.h) for the search's
// joseki prior (hane gtp --joseki).
#include <chrono>
#include <cstdio>
#include <memory>

#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "train/joseki_train.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct JosekiFlags {
  CorpusFlags corpus;
  std::string out;
  std::string json_path;
  JosekiTrainOptions train;
};

void train(JosekiFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  if (f.corpus.board_size == 0) {
    throw UsageError("hane train joseki learns one board size: give --size N (19 by default), not --size 0");
  }
  if (f.train.region > f.corpus.board_size) {
    throw UsageError("--region " + std::to_string(f.train.region) + " is larger than the board (--size " +
                     std::to_string(f.corpus.board_size) + ")");
  }
  // The games of --split are counted, the validation split measured (read_training_games).
  TrainingGames games = read_training_games(f.corpus);
  std::vector<CorpusGame>& train_games = games.train;
  std::vector<CorpusGame>& validation_games = games.validation;
  const CorpusStats& stats = games.stats;
  JosekiTrainOptions o = f.train;
  o.board_size = f.corpus.board_size;
  o.progress = !f.corpus.quiet;
  JosekiDictionary dictionary = [&] {
    InterruptScope scope("stopping the count, keeping the corners counted so far");
    return train_joseki(train_games, validation_games, o);
  }();
  if (dictionary.size() == 0) {
    // An empty dictionary gives the search nothing: say why instead of writing it.
    const nlohmann::json& t = dictionary.training;
    throw std::runtime_error(
        "no corner position was seen in at least --min-games " + std::to_string(o.min_games) + " games (" +
        with_thousands(t["distinct_positions"].get<int64_t>()) + " distinct positions in " +
        with_thousands(t["games"].get<int64_t>()) + " games): nothing kept, " + f.out +
        " not written; give more games or a lower --min-games");
  }
  dictionary.training["inputs"] = f.corpus.paths;
  dictionary.training["corpus"] = corpus_stats_json(stats);
  if (absl::Status s = save_joseki(dictionary, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const nlohmann::json& t = dictionary.training;
  std::printf("trained a joseki dictionary on %s games in %.1f s: %s corner positions with %s replies "
              "(of %s distinct positions in %s corner readings)\n",
              with_thousands(t["games"].get<int64_t>()).c_str(), seconds,
              with_thousands(static_cast<int64_t>(dictionary.size())).c_str(),
              with_thousands(static_cast<int64_t>(dictionary.replies().size())).c_str(),
              with_thousands(t["distinct_positions"].get<int64_t>()).c_str(),
              with_thousands(t["occurrences"].get<int64_t>()).c_str());
  const nlohmann::json& v = t["validation"];
  if (v["games"].get<int64_t>() > 0) {
    std::printf("validation, %s games: %.1f%% of the corner positions are in the dictionary; of the %s moves played "
                "in a corner box, %.1f%% were from a known position, and there the most played reply was the move "
                "%.1f%% of the time, a kept reply %.1f%%\n",
                with_thousands(v["games"].get<int64_t>()).c_str(), 100 * v["known"].get<double>(),
                with_thousands(v["local_moves"].get<int64_t>()).c_str(), 100 * v["known_local"].get<double>(),
                100 * v["top1"].get<double>(), 100 * v["listed"].get<double>());
  }
  std::printf("wrote %s\n", f.out.c_str());
  if (!f.json_path.empty()) {
    nlohmann::json report = t;
    report["model"] = f.out;
    report["total_seconds"] = seconds;
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_train_joseki_command(CLI::App* train_app) {
  auto flags = std::make_shared<JosekiFlags>();
  CLI::App* cmd = train_app->add_subcommand(
      "joseki", "Joseki dictionary for the search's joseki prior (hane gtp --joseki): the corner positions of the "
                "openings that strong players reached in many games, in all symmetries, with the moves they then "
                "played there; counted on the train split, measured on the validation split.");
  add_corpus_flags(cmd, flags->corpus, "train");
  JosekiTrainOptions& o = flags->train;
  cmd->add_option("--out,-o", flags->out, "Model file to write")->required();
  cmd->add_option("--region", o.region, "Side of the corner box, points (3..13, at most the board size)")
      ->check(CLI::Range(kMinCornerRegion, kMaxCornerRegion))
      ->capture_default_str();
  cmd->add_option("--max-moves", o.max_moves, "Positions before moves 1..N of each game are read")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--max-stones", o.max_stones,
                  "A corner is read while its box holds at most N stones (then left for the rest of the game)")
      ->check(CLI::Range(1, kMaxCornerRegion * kMaxCornerRegion))
      ->capture_default_str();
  cmd->add_option("--min-games", o.min_games, "Corner positions seen in fewer distinct games are left out")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--min-reply-games", o.min_reply_games,
                  "Replies played in fewer distinct games are not kept (they count as tenuki)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--json", flags->json_path, "Also write the training report (counts, validation, options) as JSON");
  cmd->callback([flags] { train(*flags); });
}

}  // namespace hane::tools
