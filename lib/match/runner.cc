#include "match/runner.h"

#include <algorithm>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "cluster/cluster.h"
#include "nlohmann/json.hpp"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

bool is_set(const std::atomic<bool>* flag) { return flag && *flag; }

// Each worker's engines, one process per engine.
std::vector<std::unique_ptr<EngineProcess>> engine_set(const std::vector<EngineSpec>& specs) {
  std::vector<std::unique_ptr<EngineProcess>> set;
  for (const EngineSpec& e : specs) set.push_back(std::make_unique<EngineProcess>(e));
  return set;
}

// One process: workers take the games in order; each finished game is recorded at once.
absl::StatusOr<int64_t> play_here(const RunnerOptions& o, std::span<const GameAssignment* const> games,
                                  const GameSink& sink, const std::atomic<bool>* interrupt) {
  std::mutex mu;
  std::atomic<bool> stop_new{sink.done && sink.done()};
  std::atomic<int64_t> played{0};
  size_t next = 0;
  absl::Status failure;
  const int workers = static_cast<int>(std::min<size_t>(thread_count(o.parallel), std::max<size_t>(1, games.size())));
  auto worker = [&] {
    std::vector<std::unique_ptr<EngineProcess>> engines = engine_set(o.engines);
    for (;;) {
      const GameAssignment* a = nullptr;
      {
        std::lock_guard lock(mu);
        if (stop_new || is_set(interrupt) || next >= games.size()) break;
        a = games[next++];
      }
      auto r = play_game(o.game, *a, *engines[a->black], *engines[a->white], interrupt, o.stderr_dir);
      if (!r.ok()) {
        if (r.status().code() != absl::StatusCode::kCancelled) {
          std::lock_guard lock(mu);
          if (failure.ok()) failure = r.status();
          stop_new = true;
        }
        break;
      }
      // A game that ends after an interrupt is not recorded: its engines may have died of the
      // same Ctrl-C (a terminal signals the whole process group), which is no fault of theirs.
      if (is_set(interrupt)) break;
      r->date = utc_date();
      std::lock_guard lock(mu);
      if (absl::Status s = sink.record(std::move(*r)); !s.ok()) {
        if (failure.ok()) failure = s;
        stop_new = true;
        break;
      }
      ++played;
      if (sink.done && sink.done()) stop_new = true;
    }
    for (auto& e : engines) e->stop();
  };
  {
    Progress progress(o.progress_label, "games", static_cast<int64_t>(games.size()));
    if (!o.progress) Progress::set_enabled(false);
    int64_t shown = -1;
    // The line changes only when a game ends; run_workers ticks once more when the last one does.
    run_workers(stop_new ? 0 : workers, [&](int) { worker(); }, [&] {
      const int64_t now = played.load();
      if (now == shown) return;
      std::string note;
      if (sink.note) {
        std::lock_guard lock(mu);
        note = sink.note();
      }
      progress.update(now, note);
      shown = now;
    });
    progress.finish();
    if (!o.progress) Progress::set_enabled(true);
  }
  if (!failure.ok()) return failure;
  return played.load();
}

// Several ranks: rounds, gathered at rank 0 (see play_games).
absl::StatusOr<int64_t> play_rounds(const RunnerOptions& o, std::span<const GameAssignment* const> pending,
                                    const GameSink& sink, const std::atomic<bool>* interrupt) {
  const int ranks = cluster::size(), me = cluster::rank();
  const bool root = me == 0;
  const int workers = thread_count(o.parallel);
  // Every rank must cut the same rounds: with parallel 0 the worker count follows each
  // machine's cores, so the rounds use the largest one.
  int64_t round_workers = workers;
  cluster::allreduce_max(std::span(&round_workers, 1));
  const size_t round_size = static_cast<size_t>(2 * round_workers) * ranks;
  std::vector<std::vector<std::unique_ptr<EngineProcess>>> engines;
  for (int w = 0; w < workers; ++w) engines.push_back(engine_set(o.engines));
  absl::Status failure;
  auto done = [&] { return sink.done && sink.done(); };
  bool stop = cluster::any(root && done());
  int64_t played = 0;
  Progress progress(o.progress_label, "games", static_cast<int64_t>(pending.size()));
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
          for (size_t k = next++; k < mine.size() && !is_set(interrupt); k = next++) {
            const GameAssignment& a = *mine[k];
            got[k] = play_game(o.game, a, *engines[w][a.black], *engines[w][a.white], interrupt, o.stderr_dir);
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
        if (absl::Status s = sink.record(std::move(g)); !s.ok()) {
          if (failure.ok()) failure = s;
          break;
        }
        ++played;
        // The round's later games are dropped once done, so the results are those of one
        // process playing game after game.
        if (done()) break;
      }
      stop_here = !failure.ok() || done();
      progress.update(played, sink.note ? sink.note() : "");
    }
    stop = cluster::any(stop_here || is_set(interrupt));
  }
  for (auto& set : engines) {
    for (auto& e : set) e->stop();
  }
  progress.finish();
  if (!o.progress && root) Progress::set_enabled(true);  // (the other ranks never show progress)
  if (!failure.ok()) return failure;
  return played;
}

}  // namespace

absl::StatusOr<EngineIdentity> check_engines(const std::vector<EngineSpec>& engines, uint64_t seed, double timeout_s,
                                             const std::atomic<bool>* interrupt) {
  EngineIdentity out;
  absl::Status checked = absl::OkStatus();
  for (const EngineSpec& e : engines) {
    EngineProcess check(e);
    check.client().set_cancel_flag(interrupt);
    if (absl::Status s = check.ensure_started(seed, timeout_s); !s.ok()) {
      std::string msg(s.message());
      if (cluster::size() > 1) msg = absl::StrCat("rank ", cluster::rank(), ": ", msg);
      for (const std::string& l : check.last_stderr()) absl::StrAppend(&msg, "\n  stderr: ", l);
      checked = absl::FailedPreconditionError(msg);
      break;
    }
    out.names.push_back(check.gtp_name());
    out.versions.push_back(check.gtp_version());
    check.stop();
  }
  // Ctrl-C while the engines start (on any rank) is an interrupt, not an engine's failure.
  if (cluster::any(is_set(interrupt))) return absl::CancelledError("interrupted while the engines started");
  if (cluster::any(!checked.ok())) {
    return checked.ok() ? absl::FailedPreconditionError("an engine did not start on another rank (see its message)") : checked;
  }
  return out;
}

absl::StatusOr<int64_t> play_games(const RunnerOptions& options, std::span<const GameAssignment* const> games,
                                   const GameSink& sink, const std::atomic<bool>* interrupt) {
  if (cluster::size() > 1) return play_rounds(options, games, sink, interrupt);
  return play_here(options, games, sink, interrupt);
}

}  // namespace hane
