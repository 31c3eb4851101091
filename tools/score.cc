// hane score: measure score estimators on finished games whose result was counted. From every
// such game (RE[B+3.5], not by resignation, time or forfeit) it takes one position, a fraction
// of the way through the game (three quarters by default), asks each estimator for Black's
// margin there and compares it with the result: the share of winners named, the mean absolute
// error in points and the median time per position. Estimators: hane's static estimate, its
// estimate_score (the maps and a dead-stone guess from a few playouts), its playout final_score
// (SearchPlayer::estimate_end), and any GTP engine's estimate_score (`gtp:COMMAND LINE`, e.g.
// GNU Go), all on the same positions.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "engine_process/gtp_client.h"
#include "playout/policy_settings.h"
#include "search/score_estimate.h"
#include "search/search.h"
#include "sgf/rules.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "tools/engine_options.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct ScoreFlags {
  CorpusFlags corpus;
  std::vector<std::string> estimators;
  int64_t positions = 0;
  double at = 0.75;
  int end_playouts = 1000;
  double timeout = 60;
  std::string json_path;
};

/// Black's margin a counted result gives ("B+3.5" -> 3.5, "W+12" -> -12); nullopt for anything
/// else (resignation, time, forfeit, a draw, no result).
std::optional<double> counted_margin(const std::string& result) {
  static const std::regex kCounted(R"(\s*([BbWw])\+\s*([0-9]+(\.[0-9]*)?)\s*)");
  std::smatch m;
  if (!std::regex_match(result, m, kCounted)) return std::nullopt;
  const double x = std::stod(m[2].str());
  if (x == 0) return std::nullopt;
  return (m[1].str() == "B" || m[1].str() == "b") ? x : -x;
}

/// Black's margin in a GTP score answer: "B+3.5", "W+12", "0", possibly followed by more text
/// (GNU Go's estimate_score adds the bounds); nullopt if unreadable.
std::optional<double> answer_margin(const std::string& text) {
  static const std::regex kAnswer(R"(\s*(0|[BbWw]\+[0-9]+(\.[0-9]*)?)(\s.*)?)");
  std::smatch m;
  if (!std::regex_match(text, m, kAnswer)) return std::nullopt;
  const std::string a = m[1].str();
  if (a == "0") return 0.0;
  const double x = std::stod(a.substr(2));
  return (a[0] == 'B' || a[0] == 'b') ? x : -x;
}

/// Territory counting for the rules a record names (Japanese and Korean; the default when RU is
/// absent or unknown, as replay assumes), else area counting.
bool territory_counting(const GameRecord& record) {
  const std::string name = record.declared_rules ? record.declared_rules->name : default_record_rules().name;
  return name == "Japanese" || name == "Korean";
}

struct Position {
  const CorpusGame* game = nullptr;
  Game position;
  int moves = 0;        // moves played before it
  double result = 0;    // Black's counted margin
  bool territory = false;
};

// An estimate and what it took: the wall and CPU time of the estimate alone (for a GTP engine,
// its estimate_score, not the commands that set the position up).
struct Estimate {
  double margin = 0;  // Black's, points
  double ms = 0;
  double cpu_ms = 0;
};

class Estimator {
 public:
  virtual ~Estimator() = default;
  /// The estimate of `p`; an error names what went wrong.
  virtual absl::StatusOr<Estimate> estimate(const Position& p) = 0;
};

double wall_ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// User and system time of process `pid` from /proc (clock ticks, usually 10 ms); 0 if unknown.
double process_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);  // utime, stime
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// hane's own estimators, in this process.
class HaneEstimator final : public Estimator {
 public:
  enum class Kind { kStatic, kEstimate, kFinalScore };
  HaneEstimator(Kind kind, std::unique_ptr<Search> search, ScoreEstimateOptions options, int end_playouts)
      : kind_(kind), search_(std::move(search)), options_(options), end_playouts_(end_playouts) {}
  absl::StatusOr<Estimate> estimate(const Position& p) override {
    Estimate e;
    const double cpu = thread_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    if (kind_ == Kind::kFinalScore) {
      const EndEstimate end = search_->estimate_end(p.position, end_playouts_);
      e.margin = p.territory ? end.territory_margin : end.area_margin;
    } else {
      ScoreEstimateOptions o = options_;
      o.territory = p.territory;
      e.margin = estimate_score(p.position, kind_ == Kind::kStatic ? nullptr : search_.get(), o).margin;
    }
    e.ms = wall_ms_since(start);
    e.cpu_ms = 1000 * (thread_cpu_seconds() - cpu);
    return e;
  }

 private:
  Kind kind_;
  std::unique_ptr<Search> search_;
  ScoreEstimateOptions options_;
  int end_playouts_;
};

// Any GTP engine: the position is set up move by move, then estimate_score.
class GtpEstimator final : public Estimator {
 public:
  GtpEstimator(std::string spec, double timeout) : spec_(std::move(spec)), timeout_(timeout) {}
  absl::Status start() {
    auto argv = split_command_line(spec_);
    if (!argv.ok()) return argv.status();
    return client_.start(*argv);
  }
  absl::StatusOr<Estimate> estimate(const Position& p) override {
    if (!client_.running()) {
      if (absl::Status s = start(); !s.ok()) return s;
    }
    const GameRecord& r = p.game->record;
    const int n = r.board_size;
    if (!r.setup.white.empty() || !r.setup.empty_points.empty() || r.setup.black.size() == 1) {
      return absl::InvalidArgumentError("setup stones GTP cannot place (only a handicap of 2+ black stones)");
    }
    std::vector<std::string> lines = {"boardsize " + std::to_string(n), "clear_board", "komi " + format_komi(r.komi)};
    if (!r.setup.black.empty()) {
      std::string h = "set_free_handicap";
      for (const Vertex v : r.setup.black) h += " " + to_gtp(v, n);
      lines.push_back(h);
    }
    int played = 0;
    for (const GameEvent& e : r.events) {
      if (e.type == GameEvent::Type::kSetup) return absl::InvalidArgumentError("setup stones after the root");
      if (e.type != GameEvent::Type::kMove) continue;
      if (played == p.moves) break;
      lines.push_back(std::string("play ") + (e.color == Color::kBlack ? "b " : "w ") + to_gtp(e.vertex, n));
      ++played;
    }
    for (const std::string& line : lines) {
      auto reply = client_.command(line, timeout_);
      if (!reply.ok()) return reply.status();
      if (!reply->ok) return absl::InternalError("'" + line + "' refused: " + reply->text);
    }
    const double cpu = process_cpu_seconds(client_.pid());
    const auto start = std::chrono::steady_clock::now();
    auto reply = client_.command("estimate_score", timeout_);
    Estimate e;
    e.ms = wall_ms_since(start);
    e.cpu_ms = 1000 * std::max(0.0, process_cpu_seconds(client_.pid()) - cpu);
    if (!reply.ok()) return reply.status();
    if (!reply->ok) return absl::InternalError("estimate_score refused: " + reply->text);
    const auto margin = answer_margin(reply->text);
    if (!margin) return absl::InternalError("estimate_score: unreadable answer '" + reply->text + "'");
    e.margin = *margin;
    return e;
  }

 private:
  static std::string format_komi(double komi) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", komi);
    return t;
  }
  std::string spec_;
  double timeout_;
  GtpClient client_;
};

struct Row {
  std::string name, spec;
  std::unique_ptr<Estimator> estimator;
  int64_t positions = 0, named = 0, failed = 0;
  double abs_error = 0, cpu_ms = 0;
  std::vector<double> ms;
  std::vector<std::string> errors;  // the first few, for stderr
};

double median(std::vector<double> x) {
  if (x.empty()) return 0;
  std::sort(x.begin(), x.end());
  const size_t m = x.size() / 2;
  return x.size() % 2 ? x[m] : (x[m - 1] + x[m]) / 2;
}

// "NAME=SPEC" or "SPEC"; the name defaults to the spec, or a gtp: engine's program name.
std::pair<std::string, std::string> name_and_spec(const std::string& text) {
  const size_t eq = text.find('=');
  const size_t colon = text.find(':');
  if (eq != std::string::npos && (colon == std::string::npos || eq < colon)) return {text.substr(0, eq), text.substr(eq + 1)};
  if (text.starts_with("gtp:")) {
    auto argv = split_command_line(text.substr(4));
    if (argv.ok() && !argv->empty()) return {std::filesystem::path((*argv)[0]).filename().string(), text};
  }
  return {text, text};
}

// "estimate:playouts=64,framework=0.5,ownership=0.3,dead=0.4,policy=rules,rules.ladder=1" -> options
// (the policy into `policy`, a dotted key into the policy's `settings`, checked by the caller);
// UsageError naming the spec.
ScoreEstimateOptions estimate_options(const std::string& spec, const std::string& keys, int default_playouts,
                                      std::string& policy, PolicyOptions& settings) {
  ScoreEstimateOptions o;
  o.playouts = default_playouts;
  std::string rest = keys;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (key == "policy" && eq != std::string::npos && eq + 1 < item.size()) {
      policy = item.substr(eq + 1);
      continue;
    }
    if (key.find('.') != std::string::npos && eq != std::string::npos && eq + 1 < item.size()) {
      settings.settings[key] = item.substr(eq + 1);  // a playout policy's own setting, checked with the policy
      continue;
    }
    double value = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument("no value");
      size_t used = 0;
      value = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      throw UsageError("--estimator " + spec + ": '" + item + "' is not KEY=NUMBER");
    }
    if (key == "playouts" && value >= 0 && value <= 1e6 && value == std::floor(value)) {
      o.playouts = static_cast<int>(value);
    } else if (key == "framework" && value >= 0 && value <= 1) {
      o.framework_weight = value;
    } else if (key == "ownership" && value >= 0 && value <= 1) {
      o.ownership_weight = value;
    } else if (key == "dead" && value >= -1 && value <= 1) {
      o.dead_threshold = value;
    } else {
      throw UsageError("--estimator " + spec + ": '" + item +
                       "': keys are playouts (0..1000000), framework (0..1), ownership (0..1), dead (-1..1), policy (a playout "
                       "policy spec) and the policy's own settings (rules.nakade=1)");
    }
  }
  return o;
}

std::unique_ptr<Estimator> make_estimator(const std::string& spec, const ScoreFlags& f) {
  if (spec.starts_with("gtp:")) {
    auto g = std::make_unique<GtpEstimator>(spec.substr(4), f.timeout);
    if (absl::Status s = g->start(); !s.ok()) {
      if (absl::IsInvalidArgument(s)) throw UsageError("--estimator " + spec + ": " + std::string(s.message()));
      throw std::runtime_error("--estimator " + spec + ": " + std::string(s.message()));
    }
    return g;
  }
  const gtp::EngineOptions engine = gtp::default_engine_options(patterns_dir());
  SearchOptions so = engine.search;
  so.prior = "none";  // playouts only: no tree, no guesser
  so.threads = 1;
  auto search = [&]() {
    auto s = Search::create(so);
    if (!s.ok()) {
      const std::string what = "--estimator " + spec + ": " + std::string(s.status().message());
      if (absl::IsInvalidArgument(s.status()) || absl::IsNotFound(s.status())) throw UsageError(what);
      throw std::runtime_error(what);
    }
    return std::move(*s);
  };
  const int estimate_playouts = engine.estimate_playouts;
  if (spec == "static") {
    return std::make_unique<HaneEstimator>(HaneEstimator::Kind::kStatic, nullptr, ScoreEstimateOptions{}, 0);
  }
  if (spec == "estimate" || spec.starts_with("estimate:")) {
    std::string policy = so.policy;
    const ScoreEstimateOptions o =
        estimate_options(spec, spec.size() > 9 ? spec.substr(9) : "", estimate_playouts, policy, so.policy_options);
    so.policy = policy;
    so.policy_options = estimate_policy_options(so.policy, so.policy_options);  // as estimate_score's
    if (absl::Status s = check_policy_settings(so.policy, so.policy_options); !s.ok()) {
      throw UsageError("--estimator " + spec + ": " + std::string(s.message()));
    }
    return std::make_unique<HaneEstimator>(HaneEstimator::Kind::kEstimate, search(), o, 0);
  }
  if (spec == "final_score") {
    return std::make_unique<HaneEstimator>(HaneEstimator::Kind::kFinalScore, search(), ScoreEstimateOptions{}, f.end_playouts);
  }
  throw UsageError("--estimator " + spec + ": not static, estimate[:KEY=VALUE,...], final_score or gtp:COMMAND LINE");
}

void run_score(const ScoreFlags& f) {
  if (!(f.at > 0 && f.at <= 1)) throw UsageError("--at: a fraction of the game's moves, more than 0 and at most 1");
  // The estimators first: a GTP engine that does not start fails before the games are read.
  std::vector<Row> rows;
  const std::vector<std::string> specs =
      f.estimators.empty() ? std::vector<std::string>{"static", "estimate", "final_score"} : f.estimators;
  for (const std::string& text : specs) {
    auto [name, spec] = name_and_spec(text);
    for (const Row& r : rows) {
      if (r.name == name) throw UsageError("--estimator: the name " + name + " is given twice (use NAME=SPEC)");
    }
    Row row;
    row.name = name;
    row.spec = spec;
    row.estimator = make_estimator(spec, f);
    rows.push_back(std::move(row));
  }

  CorpusStats stats;
  const std::vector<CorpusGame> games = load_corpus(f.corpus.paths, f.corpus.options(), &stats);
  print_corpus_summary(stats);
  // Counted games, in an order fixed by their hashes (a sample spread over every input).
  std::map<std::string, int64_t> skipped;
  std::vector<const CorpusGame*> counted;
  for (const CorpusGame& g : games) {
    if (!counted_margin(g.record.result)) {
      ++skipped[g.record.result.empty() ? "no result (RE)" : "result not counted (resignation, time, forfeit, draw)"];
      continue;
    }
    counted.push_back(&g);
  }
  std::sort(counted.begin(), counted.end(), [](const CorpusGame* a, const CorpusGame* b) {
    return splitmix64(a->hash) < splitmix64(b->hash) || (splitmix64(a->hash) == splitmix64(b->hash) && a->hash < b->hash);
  });
  if (f.positions > 0 && static_cast<int64_t>(counted.size()) > f.positions) counted.resize(static_cast<size_t>(f.positions));
  if (f.positions > static_cast<int64_t>(counted.size()) && !counted.empty() && !f.corpus.quiet) {
    std::fprintf(stderr, "score: %zu counted game(s) in the %s split, fewer than --positions %lld: each is measured\n",
                 counted.size(), f.corpus.split.c_str(), static_cast<long long>(f.positions));
  }
  if (counted.empty()) throw std::runtime_error(no_games_message(stats, f.corpus, "counted games (RE[B+3.5])"));

  InterruptScope scope("stopping; the table covers the positions measured so far");
  Progress progress("estimating", "positions", static_cast<int64_t>(counted.size()));
  nlohmann::json details = nlohmann::json::array();
  int64_t done = 0;
  for (const CorpusGame* g : counted) {
    if (interrupted()) break;
    Position p;
    p.game = g;
    p.result = *counted_margin(g->record.result);
    p.territory = territory_counting(g->record);
    int moves = 0;
    for (const GameEvent& e : g->record.events) moves += e.type == GameEvent::Type::kMove;
    p.moves = static_cast<int>(std::floor(f.at * moves));
    std::optional<Game> at;
    int seen = 0;
    auto full = replay_game(g->record, [&](const Game& game, const Move&) {
      if (seen++ == p.moves) at = game;
    });
    if (!full.ok()) {
      ++skipped["replay: " + std::string(full.status().message())];
      continue;
    }
    p.position = at ? *at : *full;
    nlohmann::json d;
    d["source"] = g->source;
    d["entry"] = g->entry;
    d["moves"] = p.moves;
    d["result"] = p.result;
    d["counting"] = p.territory ? "territory" : "area";
    for (Row& r : rows) {
      auto e = r.estimator->estimate(p);
      if (!e.ok()) {
        ++r.failed;
        const std::string what = g->source + (g->entry.empty() ? "" : ":" + g->entry) + ": " + std::string(e.status().message());
        if (r.errors.size() < 5) std::fprintf(stderr, "hane: score: %s: %s\n", r.name.c_str(), what.c_str());
        r.errors.push_back(what);
        d[r.name] = nullptr;
        continue;
      }
      ++r.positions;
      r.cpu_ms += e->cpu_ms;
      r.named += (e->margin > 0) == (p.result > 0) && e->margin != 0;
      r.abs_error += std::abs(e->margin - p.result);
      r.ms.push_back(e->ms);
      d[r.name] = {{"margin", e->margin}, {"ms", e->ms}, {"cpu_ms", e->cpu_ms}};
    }
    details.push_back(d);
    progress.update(++done);
  }
  progress.finish();
  for (const auto& [reason, count] : skipped) {
    if (!f.corpus.quiet) std::fprintf(stderr, "score: %s game(s) left out: %s\n", with_thousands(count).c_str(), reason.c_str());
  }

  size_t width = 9;
  for (const Row& r : rows) width = std::max(width, r.name.size());
  std::printf("%-*s %9s %8s %10s %9s %9s %7s\n", static_cast<int>(width), "estimator", "positions", "winners",
              "abs error", "median ms", "cpu ms", "failed");
  nlohmann::json report;
  report["estimators"] = nlohmann::json::array();
  for (const Row& r : rows) {
    const double share = r.positions ? static_cast<double>(r.named) / static_cast<double>(r.positions) : 0;
    const double mae = r.positions ? r.abs_error / static_cast<double>(r.positions) : 0;
    const double med = median(r.ms);
    const double cpu_ms = r.positions ? r.cpu_ms / static_cast<double>(r.positions) : 0;
    std::printf("%-*s %9s %7.1f%% %10.1f %9.2f %9.2f %7s\n", static_cast<int>(width), r.name.c_str(),
                with_thousands(r.positions).c_str(), 100 * share, mae, med, cpu_ms, with_thousands(r.failed).c_str());
    report["estimators"].push_back({{"name", r.name},
                                    {"spec", r.spec},
                                    {"positions", r.positions},
                                    {"winners_named", r.named},
                                    {"winners_share", share},
                                    {"mean_abs_error", mae},
                                    {"median_ms", med},
                                    {"mean_cpu_ms", cpu_ms},
                                    {"failed", r.failed},
                                    {"errors", r.errors}});
  }
  if (!f.json_path.empty()) {
    report["at"] = f.at;
    report["positions"] = details;
    report["skipped"] = skipped;
    report["corpus"] = corpus_stats_json(stats);
    write_json(f.json_path, report);
  }
  int64_t failed = 0;
  for (const Row& r : rows) failed += r.failed;
  if (interrupted()) throw CLI::RuntimeError(kExitInterrupted);
  if (failed > 0) {
    throw std::runtime_error(with_thousands(failed) + " estimate(s) failed (the first of each estimator are named above; all in --json)");
  }
}

}  // namespace

void add_score_command(CLI::App& app) {
  auto flags = std::make_shared<ScoreFlags>();
  ScoreFlags& f = *flags;
  CLI::App* cmd = app.add_subcommand(
      "score",
      "Measure score estimators on finished games whose result was counted (RE[B+3.5]): the position at 3/4 of each "
      "game; the share of winners named, the mean absolute error in points, the median time per position.");
  add_corpus_flags(cmd, f.corpus, "test");
  one_value_each(cmd->add_option("--estimator,-e", f.estimators,
                                 "An estimator, [NAME=]SPEC: static, estimate[:playouts=N,framework=X,ownership=X,dead=X,"
                                 "policy=SPEC,POLICY.KEY=V], final_score, or gtp:COMMAND LINE (its estimate_score); "
                                 "default static, estimate and final_score"),
                 "[NAME=]SPEC");
  cmd->add_option("--positions", f.positions,
                  "Positions to measure, one per counted game, the games chosen by hash (the same sample every run); "
                  "0: every counted game")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--at", f.at, "Where in the game: the position after this fraction of its moves (more than 0, at most 1)")
      ->capture_default_str();
  cmd->add_option("--end-playouts", f.end_playouts, "Playouts of the final_score estimator")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--timeout", f.timeout, "Seconds a GTP engine may take to answer a command")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--json", f.json_path, "Also write the report and every position's estimates as JSON");
  cmd->callback([flags] { run_score(*flags); });
}

}  // namespace hane::tools
