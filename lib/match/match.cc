#include "match/match.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/cluster.h"
#include "match/report.h"
#include "match/result.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

// The time now in UTC, in a strftime `format` of at most 31 characters once written.
std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string utc_date() { return utc_now("%Y-%m-%d"); }
std::string utc_time() { return utc_now("%Y-%m-%dT%H:%M:%SZ"); }

nlohmann::json load_average() {
  std::ifstream f("/proc/loadavg");
  double a = 0, b = 0, c = 0;
  if (!(f >> a >> b >> c)) return nullptr;
  return nlohmann::json::array({a, b, c});
}

absl::Status write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << content;
    f.flush();
    if (!f) return absl::InternalError(absl::StrCat("cannot write ", tmp));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot rename ", tmp, " to ", path, ": ", ec.message()));
  return absl::OkStatus();
}

std::string sgf_name(int64_t index) { return absl::StrFormat("sgf/%06d.sgf", index); }
std::string sgf_path(const std::string& out, int64_t index) { return out + "/" + sgf_name(index); }

// The index of a file name of the SGF naming scheme ("000015.sgf", or "000015.sgf.tmp" with
// `tmp` set), or -1.
int64_t scheme_index(const std::string& name, bool* tmp) {
  *tmp = name.ends_with(".sgf.tmp");
  const std::string stem = name.substr(0, name.size() - (*tmp ? 8 : name.ends_with(".sgf") ? 4 : 0));
  if (stem.size() == name.size() || stem.size() < 6 || stem.size() > 18) return -1;
  if (!std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return std::stoll(stem);
}

// files.txt: the record of the files in sgf/ the match wrote, one name relative to the folder a
// line, appended before the file is written, so that a resume removes only its own files.
class WrittenFiles {
 public:
  explicit WrittenFiles(std::string out_dir) : path_(out_dir + "/files.txt") {
    std::ifstream f(path_);
    for (std::string line; std::getline(f, line);) names_.insert(line);
  }
  ~WrittenFiles() {
    if (file_) std::fclose(file_);
  }
  bool contains(const std::string& name) const { return names_.contains(name); }
  absl::Status add(const std::string& name) {
    if (names_.contains(name)) return absl::OkStatus();
    if (!file_) file_ = std::fopen(path_.c_str(), "ab");
    const std::string line = name + "\n";
    if (!file_ || std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
      return absl::InternalError(absl::StrCat("cannot append to ", path_));
    }
    names_.insert(name);
    return absl::OkStatus();
  }

 private:
  std::string path_;
  std::set<std::string> names_;
  std::FILE* file_ = nullptr;
};

// Writes a game's SGF, noting it in files.txt first.
absl::Status write_game_sgf(const std::string& out_dir, const GameResult& g, WrittenFiles& written) {
  if (absl::Status s = written.add(sgf_name(g.index)); !s.ok()) return s;
  return write_file_atomic(sgf_path(out_dir, g.index), game_sgf(g));
}

// Writes a finished game's SGF, then appends its line to the results file (in that order, so a
// resume never finds a result without its SGF).
absl::Status record_game(const std::string& out_dir, const GameResult& g, std::FILE* results_file,
                         const std::string& results_path, WrittenFiles& written) {
  if (absl::Status s = write_game_sgf(out_dir, g, written); !s.ok()) return s;
  const std::string line = to_json(g).dump() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), results_file) != line.size() || std::fflush(results_file) != 0) {
    return absl::InternalError(absl::StrCat("cannot append to ", results_path));
  }
  return absl::OkStatus();
}

nlohmann::json settings_json(const MatchOptions& o) {
  nlohmann::json s;
  for (const EngineSpec& e : o.engines) s["engines"].push_back({{"name", e.name}, {"argv", e.argv}});
  s["gauntlet"] = o.gauntlet;
  s["seed"] = o.seed;
  s["size"] = o.game.size;
  s["komi"] = o.game.komi;
  s["rules"] = o.game.rules_name;
  s["handicap"] = o.game.handicap;
  s["max_moves"] = o.game.max_moves;
  s["time"] = {o.game.time.main_s, o.game.time.period_s, o.game.time.stones};
  nlohmann::json openings = nlohmann::json::array();
  for (const Opening& op : o.openings) {
    std::string moves;
    for (const Move& m : op.moves) absl::StrAppend(&moves, to_gtp(m.vertex, o.game.size), " ");
    openings.push_back({op.name, moves});
  }
  s["openings"] = openings;
  return s;
}

bool same_assignment(const GameResult& g, const GameAssignment& a) {
  return g.index == a.index && g.pairing == a.pairing && g.pair == a.pair && g.black == a.black &&
         g.white == a.white && g.seed == a.seed && g.opening == a.opening_name;
}

// Reads results.jsonl; returns the games that fit the schedule and whether the file needs
// rewriting (a truncated or bad line, a duplicate).
struct Loaded {
  std::map<int64_t, GameResult> games;
  bool rewrite = false;
  std::vector<std::string> problems;
};

Loaded load_results(const std::string& path, const std::vector<GameAssignment>& schedule) {
  Loaded out;
  std::ifstream f(path, std::ios::binary);
  if (!f) return out;
  std::string line;
  int64_t lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    if (line.empty()) continue;
    auto problem = [&](const std::string& what) {
      out.problems.push_back(absl::StrCat(path, ": line ", lineno, ": ", what, "; the game will be played again"));
      out.rewrite = true;
    };
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      problem(f.eof() ? "truncated (the run was killed while writing it)" : "not JSON");
      continue;
    }
    auto g = game_from_json(j);
    if (!g.ok()) {
      problem(std::string(g.status().message()));
      continue;
    }
    if (g->index < 0 || g->index >= static_cast<int64_t>(schedule.size())) {
      continue;  // beyond this run's --games: kept in the file, not counted
    }
    if (!same_assignment(*g, schedule[g->index])) {
      problem(absl::StrCat("game ", g->index, " does not match the schedule"));
      continue;
    }
    if (out.games.contains(g->index)) {
      problem(absl::StrCat("game ", g->index, " recorded twice; the first is kept"));
      continue;
    }
    out.games.emplace(g->index, std::move(*g));
  }
  return out;
}

std::string progress_note(const std::vector<GameResult>& games, const ReportContext& ctx) {
  if (ctx.pairings.size() != 1) return "";
  const PairingCounts c = count_pairing(games, 0, ctx.pairings[0]);
  const Interval ci = wilson_interval(c.wdl);
  const auto elo = elo_from_score(c.wdl.score());
  const EloInterval eci = elo_interval(ci);
  std::string note = absl::StrFormat("score %.1f%%", 100 * c.wdl.score());
  if (elo && eci.lo && eci.hi) {
    absl::StrAppendFormat(&note, ", Elo %+.0f ± %.0f", *elo, (*eci.hi - *eci.lo) / 2);
  } else if (elo) {
    absl::StrAppendFormat(&note, ", Elo %+.0f", *elo);
  } else {
    note += c.wdl.score() >= 1 ? ", Elo +inf" : ", Elo -inf";
  }
  if (ctx.sprt) {
    const SprtState s = sprt_state(c, *ctx.sprt);
    absl::StrAppendFormat(&note, ", LLR %.2f [%.2f, %.2f]", s.llr, ctx.sprt->lower(), ctx.sprt->upper());
  }
  return note;
}

absl::StatusOr<MatchOutcome> finish_match(const MatchOptions& o, const std::vector<GameAssignment>& schedule,
                                          const std::vector<GameResult>& results, int64_t played, ReportContext& ctx,
                                          const std::atomic<bool>* interrupt, bool decided);

// Several ranks (cluster/cluster.h): the games left are played in rounds of 2 x --parallel
// (the largest over ranks) games per rank, game j of a round on rank j mod ranks; after each
// round rank 0 gathers the finished games and writes their SGFs and results lines in schedule
// order, checking the SPRT after each (every earlier game is then finished: the schedule-order
// prefix); when it decides, the round's later games are not recorded, and every rank learns
// whether to stop (SPRT decided, a failure, an interrupt on any rank). Returns the games
// recorded this run (at rank 0; the other ranks return 0, and failures are reported by rank 0).
absl::StatusOr<int64_t> play_rounds(const MatchOptions& o, const std::vector<const GameAssignment*>& pending,
                                    std::vector<GameResult>& results, const std::string& results_path,
                                    std::optional<WrittenFiles>& written, const std::atomic<bool>* interrupt,
                                    const std::function<bool(const std::vector<GameResult>&)>& decided,
                                    const std::function<std::string()>& note) {
  const int ranks = cluster::size(), me = cluster::rank();
  const bool root = me == 0;
  const int workers = thread_count(o.parallel);
  // Every rank must cut the same rounds: with --parallel 0 the worker count follows each
  // machine's cores, so the rounds use the largest one.
  int64_t round_workers = workers;
  cluster::allreduce_max(std::span(&round_workers, 1));
  const size_t round_size = static_cast<size_t>(2 * round_workers) * ranks;
  std::vector<std::vector<std::unique_ptr<EngineProcess>>> engines(workers);
  for (auto& set : engines) {
    for (const EngineSpec& e : o.engines) set.push_back(std::make_unique<EngineProcess>(e));
  }
  std::FILE* results_file = root ? std::fopen(results_path.c_str(), "ab") : nullptr;
  absl::Status failure;
  if (root && !results_file) failure = absl::InternalError(absl::StrCat("cannot open ", results_path));
  bool stop = cluster::any(root && (!failure.ok() || decided(results)));
  int64_t played = 0;
  Progress progress("match", "games", static_cast<int64_t>(pending.size()));
  if (!o.progress) Progress::set_enabled(false);
  for (size_t first = 0; !stop && first < pending.size(); first += round_size) {
    const size_t last = std::min(pending.size(), first + round_size);
    std::vector<const GameAssignment*> mine;
    for (size_t j = first; j < last; ++j) {
      if (static_cast<int>((j - first) % ranks) == me) mine.push_back(pending[j]);
    }
    std::vector<std::optional<absl::StatusOr<GameResult>>> got(mine.size());
    {
      std::atomic<size_t> next{0};
      std::vector<std::jthread> pool;
      for (int w = 0; w < std::min<int>(workers, static_cast<int>(mine.size())); ++w) {
        pool.emplace_back([&, w] {
          for (size_t k = next++; k < mine.size() && !(interrupt && *interrupt); k = next++) {
            const GameAssignment& a = *mine[k];
            got[k] = play_game(o.game, a, *engines[w][a.black], *engines[w][a.white], interrupt, o.out_dir + "/stderr");
          }
        });
      }
    }
    nlohmann::json message = {{"games", nlohmann::json::array()}, {"error", ""}};
    for (auto& r : got) {
      if (!r) continue;
      if (r->ok()) {
        (*r)->date = utc_date();
        message["games"].push_back(to_json(**r));
      } else if (r->status().code() != absl::StatusCode::kCancelled && message["error"] == "") {
        message["error"] = std::string(r->status().message());
      }
    }
    const std::vector<std::string> all = cluster::gather(message.dump());
    bool stop_here = false;
    if (root) {
      std::vector<GameResult> round;
      for (size_t r = 0; r < all.size(); ++r) {
        const nlohmann::json j = nlohmann::json::parse(all[r], nullptr, false);
        if (j.is_discarded()) {
          if (failure.ok()) failure = absl::InternalError(absl::StrCat("rank ", r, " sent an unreadable message"));
          continue;
        }
        if (j["error"] != "" && failure.ok()) {
          failure = absl::FailedPreconditionError(absl::StrCat("rank ", r, ": ", j["error"].get<std::string>()));
        }
        for (const nlohmann::json& g : j["games"]) {
          auto game = game_from_json(g);
          if (!game.ok()) {
            if (failure.ok()) failure = absl::InternalError(absl::StrCat("rank ", r, ": ", game.status().message()));
            continue;
          }
          round.push_back(std::move(*game));
        }
      }
      std::sort(round.begin(), round.end(), [](const GameResult& a, const GameResult& b) { return a.index < b.index; });
      for (GameResult& g : round) {
        if (absl::Status s = record_game(o.out_dir, g, results_file, results_path, *written); !s.ok()) {
          if (failure.ok()) failure = s;
          break;
        }
        results.push_back(std::move(g));
        ++played;
        // The SPRT on the schedule-order prefix: the round's later games are dropped, so the
        // results are those of one process playing game after game.
        if (decided(results)) break;
      }
      stop_here = !failure.ok() || decided(results);
      progress.update(played, note());
    }
    stop = cluster::any(stop_here || (interrupt && *interrupt));
  }
  for (auto& set : engines) {
    for (auto& e : set) e->stop();
  }
  progress.finish();
  if (!o.progress && root) Progress::set_enabled(true);  // (the other ranks never show progress)
  if (results_file) std::fclose(results_file);
  if (!failure.ok()) return failure;
  return played;
}

}  // namespace

absl::StatusOr<MatchOutcome> run_match(const MatchOptions& o, const std::atomic<bool>* interrupt) {
  const int n = static_cast<int>(o.engines.size());
  if (n < 2) return absl::InvalidArgumentError("a match needs at least two engines");
  std::set<std::string> names;
  for (const EngineSpec& e : o.engines) {
    if (!names.insert(e.name).second) return absl::InvalidArgumentError(absl::StrCat("engine name '", e.name, "' given twice"));
    if (e.name.find_first_of("/\\ ") != std::string::npos)
      return absl::InvalidArgumentError(absl::StrCat("engine name '", e.name, "' may not hold '/', '\\' or spaces"));
  }
  if (o.sprt && (n != 2 || o.gauntlet)) return absl::InvalidArgumentError("--sprt needs exactly two engines");
  if (o.out_dir.empty()) return absl::InvalidArgumentError("no output folder");
  if (o.game.handicap >= 2 && fixed_handicap_points(o.game.size, o.game.handicap).empty())
    return absl::InvalidArgumentError(absl::StrCat("handicap ", o.game.handicap, " is not allowed on ", o.game.size, "x", o.game.size));
  if (o.game.handicap >= 2 && !o.openings.empty())
    return absl::InvalidArgumentError("openings are played from the empty board: use --openings or --handicap, not both");
  for (const Opening& op : o.openings) {
    Game g(o.game.size, Rules{false, Superko::kPositional, o.game.komi});
    for (const Move& m : op.moves) {
      if (m.color != g.to_move() || g.play(m.vertex, m.color) != Legality::kLegal)
        return absl::InvalidArgumentError(absl::StrCat("opening ", op.name, ": move ", to_gtp(m.vertex, o.game.size),
                                                       " is illegal or out of turn"));
    }
  }
  // Rank 0 (the only one with one process) reads and repairs the folder; the other ranks only
  // need the games left, which it broadcasts.
  const bool root = cluster::is_root();
  const int ranks = cluster::size();
  const std::vector<Pairing> pairings = make_pairings(n, o.gauntlet);
  const std::vector<GameAssignment> schedule = make_schedule(pairings, o.games, o.openings, o.seed);
  const std::string results_path = o.out_dir + "/results.jsonl";
  std::vector<GameResult> results;
  std::optional<WrittenFiles> written;
  auto prepare = [&]() -> absl::Status {
  std::error_code ec;
  // Only a new folder, one without files, or one holding a match of hane's (match.json).
  if (!fs::exists(o.out_dir + "/match.json", ec)) {
    for (fs::recursive_directory_iterator it(o.out_dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_directory(ec)) {
        return absl::InvalidArgumentError(absl::StrCat(
            o.out_dir, " holds files but no match of hane's (no match.json), e.g. ", it->path().string(),
            ": a match writes into a new or empty folder, or resumes its own; use another --out folder"));
      }
    }
    ec.clear();
  }
  written.emplace(o.out_dir);
  for (const char* sub : {"", "/sgf", "/stderr"}) {
    fs::create_directories(o.out_dir + sub, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", o.out_dir, sub, ": ", ec.message()));
  }

  // The settings that fix the schedule must match those of an earlier run in the folder.
  const nlohmann::json settings = settings_json(o);
  const std::string settings_path = o.out_dir + "/match.json";
  if (fs::exists(settings_path)) {
    std::ifstream f(settings_path);
    nlohmann::json old = nlohmann::json::parse(f, nullptr, false);
    if (old.is_discarded() || old != settings) {
      return absl::InvalidArgumentError(absl::StrCat(o.out_dir, " holds a match with other settings (", settings_path,
                                                     "); use another --out folder or the same options"));
    }
  } else if (absl::Status s = write_file_atomic(settings_path, settings.dump(2) + "\n"); !s.ok()) {
    return s;
  }

  Loaded loaded = load_results(results_path, schedule);
  for (const std::string& p : loaded.problems) std::fprintf(stderr, "match: %s\n", p.c_str());
  if (loaded.rewrite) {
    // Rewrite only the good lines (plus lines beyond this schedule, which load skipped).
    std::string content;
    std::ifstream f(results_path, std::ios::binary);
    std::set<int64_t> kept;
    std::string line;
    while (std::getline(f, line)) {
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("game") || !j["game"].is_number_integer()) continue;
      const int64_t idx = j["game"].get<int64_t>();
      const bool in_schedule = idx >= 0 && idx < static_cast<int64_t>(schedule.size());
      if (in_schedule && (!loaded.games.contains(idx) || kept.contains(idx))) continue;
      kept.insert(idx);
      content += line + "\n";
    }
    if (absl::Status s = write_file_atomic(results_path, content); !s.ok()) return s;
  }
  // SGFs: exactly one per recorded game. Only files of the naming scheme that files.txt lists
  // are removed (games without a result line, a write cut short); a file of the scheme the
  // match did not write, where a game still to be played would write, stops the run.
  std::vector<fs::path> stray;
  for (const auto& entry : fs::directory_iterator(o.out_dir + "/sgf", ec)) {
    const std::string name = entry.path().filename().string();
    bool tmp = false;
    const int64_t idx = scheme_index(name, &tmp);
    if (idx < 0) continue;  // not a name the match writes
    const bool in_schedule = idx < static_cast<int64_t>(schedule.size());
    if (!tmp && (loaded.games.contains(idx) || !in_schedule)) continue;  // a recorded game, or beyond --games
    if (written->contains(sgf_name(idx))) {
      stray.push_back(entry.path());
    } else if (in_schedule) {
      return absl::InvalidArgumentError(absl::StrCat(
          entry.path().string(), " was not written by this match (", o.out_dir,
          "/files.txt does not list it), and game ", idx, " is still to be played: move the file away to resume"));
    }
  }
  for (const fs::path& p : stray) fs::remove(p, ec);
  for (const auto& [idx, g] : loaded.games) {
    if (!fs::exists(sgf_path(o.out_dir, idx))) {
      if (absl::Status s = write_game_sgf(o.out_dir, g, *written); !s.ok()) return s;
    }
  }

  for (auto& [idx, g] : loaded.games) results.push_back(std::move(g));
  return absl::OkStatus();
  };
  absl::Status prepared = root ? prepare() : absl::OkStatus();
  std::set<int64_t> done;
  for (const GameResult& g : results) done.insert(g.index);
  if (ranks > 1) {
    // Rank 0's error, or the games already played, to every rank.
    std::string message(prepared.message());
    cluster::broadcast(message);
    if (!message.empty()) return prepared.ok() ? absl::FailedPreconditionError("rank 0: " + message) : prepared;
    std::string indices;
    for (int64_t i : done) indices.append(reinterpret_cast<const char*>(&i), sizeof i);
    cluster::broadcast(indices);
    for (size_t k = 0; k + sizeof(int64_t) <= indices.size(); k += sizeof(int64_t)) {
      int64_t i = 0;
      std::memcpy(&i, indices.data() + k, sizeof i);
      done.insert(i);
    }
    std::error_code ec;
    fs::create_directories(o.out_dir + "/stderr", ec);  // engines' stderr, on this rank's machine
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", o.out_dir, "/stderr: ", ec.message()));
  } else if (!prepared.ok()) {
    return prepared;
  }
  std::vector<const GameAssignment*> pending;
  for (const GameAssignment& a : schedule) {
    if (!done.contains(a.index)) pending.push_back(&a);
  }

  ReportContext ctx;
  for (const EngineSpec& e : o.engines) {
    ctx.names.push_back(e.name);
    ctx.specs.push_back(e.spec);
  }
  ctx.pairings = pairings;
  ctx.sprt = o.sprt;
  ctx.games_scheduled = static_cast<int64_t>(schedule.size());
  ctx.provenance = o.provenance;
  ctx.provenance["cores"] = std::thread::hardware_concurrency();
  ctx.provenance["load_average_start"] = load_average();
  ctx.provenance["started"] = utc_time();
  ctx.provenance["games_before_this_run"] = results.size();

  // Every engine must start and answer before any game.
  // (On every rank: each starts its own engines.)
  absl::Status checked = absl::OkStatus();
  for (const EngineSpec& e : o.engines) {
    EngineProcess check(e);
    check.client().set_cancel_flag(interrupt);
    const uint64_t seed = schedule.empty() ? 1 : schedule.front().seed;
    if (absl::Status s = check.ensure_started(seed, o.game.command_timeout_s); !s.ok()) {
      std::string msg(s.message());
      if (ranks > 1) msg = absl::StrCat("rank ", cluster::rank(), ": ", msg);
      for (const std::string& l : check.last_stderr()) absl::StrAppend(&msg, "\n  stderr: ", l);
      checked = absl::FailedPreconditionError(msg);
      break;
    }
    ctx.gtp_names.push_back(check.gtp_name());
    ctx.gtp_versions.push_back(check.gtp_version());
    check.stop();
  }
  if (cluster::any(!checked.ok())) {
    return checked.ok() ? absl::FailedPreconditionError("an engine did not start on another rank (see its message)") : checked;
  }

  auto sprt_decided = [&](const std::vector<GameResult>& games) {
    return o.sprt && sprt_state(count_pairing(games, 0, pairings[0]), *o.sprt).decision != "continue";
  };
  if (ranks > 1) {
    auto played = play_rounds(o, pending, results, results_path, written, interrupt, sprt_decided,
                              [&] { return progress_note(results, ctx); });
    if (!played.ok()) return played.status();
    return finish_match(o, schedule, results, *played, ctx, interrupt, sprt_decided(results));
  }
  std::mutex mu;
  std::atomic<bool> stop_new{sprt_decided(results)};
  std::atomic<int64_t> played{0};
  size_t next = 0;
  absl::Status failure;
  std::FILE* results_file = std::fopen(results_path.c_str(), "ab");
  if (!results_file) return absl::InternalError(absl::StrCat("cannot open ", results_path));

  const int workers = static_cast<int>(std::min<size_t>(thread_count(o.parallel), std::max<size_t>(1, pending.size())));
  auto worker = [&] {
    std::vector<std::unique_ptr<EngineProcess>> engines;
    for (const EngineSpec& e : o.engines) engines.push_back(std::make_unique<EngineProcess>(e));
    for (;;) {
      const GameAssignment* a = nullptr;
      {
        std::lock_guard lock(mu);
        if (stop_new || (interrupt && *interrupt) || next >= pending.size()) break;
        a = pending[next++];
      }
      auto r = play_game(o.game, *a, *engines[a->black], *engines[a->white], interrupt, o.out_dir + "/stderr");
      if (!r.ok()) {
        if (r.status().code() != absl::StatusCode::kCancelled) {
          std::lock_guard lock(mu);
          if (failure.ok()) failure = r.status();
          stop_new = true;
        }
        break;
      }
      r->date = utc_date();
      std::lock_guard lock(mu);
      if (absl::Status s = record_game(o.out_dir, *r, results_file, results_path, *written); !s.ok()) {
        if (failure.ok()) failure = s;
        stop_new = true;
        break;
      }
      results.push_back(std::move(*r));
      ++played;
      if (sprt_decided(results)) stop_new = true;
    }
    for (auto& e : engines) e->stop();
  };
  {
    Progress progress("match", "games", static_cast<int64_t>(pending.size()));
    if (!o.progress) Progress::set_enabled(false);
    int64_t shown = -1;
    // The line changes only when a game ends; run_workers ticks once more when the last one does.
    run_workers(stop_new ? 0 : workers, [&](int) { worker(); }, [&] {
      const int64_t now = played.load();
      if (now == shown) return;
      std::string note;
      {
        std::lock_guard lock(mu);
        note = progress_note(results, ctx);
      }
      progress.update(now, note);
      shown = now;
    });
    progress.finish();
    if (!o.progress) Progress::set_enabled(true);
  }
  std::fclose(results_file);
  if (!failure.ok()) return failure;
  return finish_match(o, schedule, results, played.load(), ctx, interrupt, sprt_decided(results));
}

namespace {

absl::StatusOr<MatchOutcome> finish_match(const MatchOptions& o, const std::vector<GameAssignment>& schedule,
                                          const std::vector<GameResult>& results, int64_t played, ReportContext& ctx,
                                          const std::atomic<bool>* interrupt, bool decided) {
  MatchOutcome out;
  // Agreed by every rank (a Ctrl-C may reach only some), before the other ranks leave.
  out.interrupted = cluster::any(interrupt && *interrupt);
  if (!cluster::is_root()) return out;  // rank 0 reports
  out.games_left = decided ? 0 : static_cast<int64_t>(schedule.size()) - static_cast<int64_t>(results.size());
  ctx.provenance["load_average_end"] = load_average();
  ctx.provenance["finished"] = utc_time();
  ctx.provenance["games_this_run"] = played;
  ctx.provenance["ranks"] = cluster::size();
  out.report = match_report_json(results, ctx);
  out.report["interrupted"] = out.interrupted;
  out.report["games_left"] = out.games_left;
  out.text = match_report_text(out.report);
  if (o.plots) out.text += "\n" + write_plots(results, ctx, o.out_dir) + "\n";
  if (out.interrupted) {
    out.text += absl::StrCat("\ninterrupted: ", out.games_left, " games to go; run the same command again to resume\n");
  }
  if (absl::Status s = write_file_atomic(o.out_dir + "/report.json", out.report.dump(2) + "\n"); !s.ok()) return s;
  if (absl::Status s = write_file_atomic(o.out_dir + "/report.txt", out.text); !s.ok()) return s;
  return out;
}

}  // namespace

}  // namespace hane
