#include "corpus/corpus.h"

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "absl/container/flat_hash_set.h"
#include "corpus/replay.h"
#include "sgf/parser.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

constexpr size_t kBatch = 256;
constexpr size_t kMaxExamples = 5;

// What parsing one entry gives: its games, or why it failed.
struct ParsedGame {
  int tree = 0;
  absl::StatusOr<GameRecord> record;
  std::string reject_reason;  // empty if the record replays
  std::string reject_message;
  int positions = 0;
  int passes = 0;
  std::string text;  // with CorpusOptions::keep_text
};

struct ParsedEntry {
  SourceEntry entry;
  std::vector<ParsedGame> games;
  std::vector<SgfSyntaxError> errors;  // each lost one game
  std::vector<int> error_games;        // the lost game's index in the file, from 0
  int num_trees = 0;                   // games plus errors: the games the file held
};

void parse_entry(ParsedEntry& p, const ReadOptions& read, bool keep_text) {
  p.games.clear();
  ParseResult result = parse_sgf(p.entry.data, read.parse);
  ReadOptions lenient = read;
  lenient.strict = false;  // strictness is judged by read_corpus, by warning kind
  size_t e = 0;
  int ordinal = 0;
  p.error_games.clear();
  for (size_t t = 0; t < result.trees.size(); ++t) {
    for (; e < result.errors.size() && result.errors[e].tree_index <= t; ++e) {
      p.error_games.push_back(ordinal++);
    }
    ParsedGame g;
    g.tree = ordinal++;
    g.record = to_record(result.trees[t], lenient);
    if (keep_text) {
      const ParsedTree& tree = result.trees[t];
      g.text = p.entry.data.substr(tree.begin_offset(), tree.end_offset() - tree.begin_offset());
    }
    if (g.record.ok()) {
      const absl::Status s = replay(*g.record, [&](const Position&, Vertex played) {
        (played.is_pass() ? g.passes : g.positions) += 1;
      });
      if (!s.ok()) {
        g.reject_reason = s.message().find("setup") != absl::string_view::npos ? "setup" : "illegal move";
        g.reject_message = std::string(s.message());
      }
    }
    p.games.push_back(std::move(g));
  }
  for (; e < result.errors.size(); ++e) p.error_games.push_back(ordinal++);
  p.errors = std::move(result.errors);
  p.num_trees = static_cast<int>(p.games.size() + p.errors.size());
}

std::string year_of(const std::string& date) {
  if (date.size() >= 4 && std::isdigit(static_cast<unsigned char>(date[0])) &&
      std::isdigit(static_cast<unsigned char>(date[1])) && std::isdigit(static_cast<unsigned char>(date[2])) &&
      std::isdigit(static_cast<unsigned char>(date[3]))) {
    return date.substr(0, 4);
  }
  return "unknown";
}

std::string where(const SourceEntry& e) {
  return e.entry.empty() ? e.source : e.source + ": entry " + e.entry;
}

// Reads entries on a thread of its own, a batch at a time, so that decompression overlaps
// parsing.
class BatchReader {
 public:
  BatchReader(const std::vector<std::string>& paths, const SourceOptions& options)
      : reader_(paths, [this](const SourceError& e) { errors_.push_back(e); }, options),
        thread_([this] { run(); }) {}
  ~BatchReader() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  struct Batch {
    std::vector<ParsedEntry> entries;
    std::vector<SourceError> errors;  // reported while reading this batch
    bool last = false;
  };

  Batch next() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return !queue_.empty(); });
    Batch b = std::move(queue_.front());
    queue_.pop_front();
    cv_.notify_all();
    return b;
  }

  SourceStats stats() {
    std::lock_guard lock(mu_);
    return stats_;
  }

 private:
  void run() {
    for (bool last = false; !last;) {
      Batch b;
      while (b.entries.size() < kBatch) {
        ParsedEntry p;
        if (!reader_.next(p.entry)) {
          last = true;
          break;
        }
        b.entries.push_back(std::move(p));
      }
      b.errors = std::move(errors_);
      errors_.clear();
      b.last = last;
      std::unique_lock lock(mu_);
      stats_ = reader_.stats();
      cv_.wait(lock, [this] { return queue_.size() < 4 || stop_; });
      if (stop_) return;
      queue_.push_back(std::move(b));
      cv_.notify_all();
    }
  }

  std::vector<SourceError> errors_;  // touched only by the reading thread until handed over
  EntryReader reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;
  SourceStats stats_;
  bool stop_ = false;
  std::thread thread_;
};

void add_example(Rejections& r, const std::string& message) {
  ++r.count;
  if (r.examples.size() < kMaxExamples) r.examples.push_back(message);
}

void reject(CorpusStats& stats, const std::string& reason, const std::string& message) {
  add_example(stats.rejected[reason], message);
}

// The game's ordinal in its file, from 1, for messages about files of several games.
std::string game_name(const ParsedEntry& p, int tree) {
  return p.num_trees > 1 ? where(p.entry) + ": game " + std::to_string(tree + 1) : where(p.entry);
}

}  // namespace

CorpusStats read_corpus(const std::vector<std::string>& paths, const CorpusOptions& options,
                        const std::function<void(CorpusGame&&)>& on_game) {
  const auto start = std::chrono::steady_clock::now();
  CorpusStats stats;
  absl::flat_hash_set<uint64_t> seen;
  int64_t accepted = 0;  // valid, kept by the filters and unique, in any split (for max_games)
  const int threads = thread_count(options.threads);
  Progress progress("reading games", "games");
  BatchReader reader(paths, options.source);
  bool done = false;
  while (!done) {
    BatchReader::Batch batch = reader.next();
    for (const SourceError& e : batch.errors) {
      ++stats.games_read;
      reject(stats, "unreadable", describe(e));
    }
    // Parse the batch on all threads.
    parallel_for(batch.entries.size(), threads, [&](int, size_t i) { parse_entry(batch.entries[i], options.read, options.keep_text); });
    // Then judge every game in input order.
    for (ParsedEntry& p : batch.entries) {
      // Each syntax error lost one game; reading resumed after it.
      for (size_t e = 0; e < p.errors.size(); ++e) {
        ++stats.games_read;
        if (p.num_trees > 1) ++stats.games_lost_in_collections;
        reject(stats, "sgf syntax", game_name(p, p.error_games[e]) + ": " + p.errors[e].message);
      }
      for (ParsedGame& g : p.games) {
        ++stats.games_read;
        const std::string name = game_name(p, g.tree);
        if (!g.record.ok()) {
          reject(stats, "sgf record", name + ": " + std::string(g.record.status().message()));
          continue;
        }
        if (options.read.strict && !g.record->warnings.empty()) {
          const RecordWarning& w = g.record->warnings.front();
          reject(stats, "strict: " + w.kind, name + ": " + w.message);
          continue;
        }
        if (!g.reject_reason.empty()) {
          reject(stats, g.reject_reason, name + ": " + g.reject_message);
          continue;
        }
        const GameRecord& record = *g.record;
        ++stats.board_sizes[record.board_size];
        if (const std::string_view why = filter_out_reason(record, options.filter); !why.empty()) {
          reject(stats, std::string(why), name);
          continue;
        }
        const uint64_t hash = game_hash(record);
        if (options.dedup && !seen.insert(hash).second) {
          reject(stats, "duplicate", name);
          continue;
        }
        ++accepted;
        const bool enough = options.max_games > 0 && accepted >= options.max_games;
        if (enough) batch.last = true;
        const Split split = split_of(hash);
        if (options.split != Split::kAll && split != options.split) {
          ++stats.other_split;
          if (enough) break;
          continue;
        }
        ++stats.games_kept;
        stats.positions += g.positions;
        stats.passes += g.passes;
        stats.handicap_games += is_handicap_game(record);
        ++stats.kept_board_sizes[record.board_size];
        stats.games_with_warnings += !record.warnings.empty();
        // Games with warnings, by kind: a game counts once per kind, its first such warning
        // is the example.
        absl::flat_hash_set<std::string_view> kinds;
        for (const RecordWarning& warning : record.warnings) {
          if (kinds.insert(warning.kind).second) {
            add_example(stats.warnings[warning.kind], name + ": " + warning.message);
          }
        }
        const RecordRules rules = replay_rules(record, default_record_rules());
        ++stats.rules[record.declared_rules ? rules.name
                      : record.rules.empty()  ? rules.name + " (assumed: no RU)"
                                              : rules.name + " (assumed: unknown RU)"];
        for (const Rank& r : {record.black_rank, record.white_rank}) {
          ++stats.ranks[r.known() ? r.to_string() : "unknown"];
        }
        ++stats.years[year_of(record.date)];
        CorpusGame game{p.entry.source, p.entry.entry, g.tree, std::move(*g.record), hash, split, g.positions,
                        std::move(g.text)};
        on_game(std::move(game));
        if (enough) break;
      }
      if (options.max_games > 0 && accepted >= options.max_games) break;
    }
    done = batch.last;
    if (options.progress) {
      progress.update(stats.games_read, with_thousands(stats.games_kept) + " kept");
    }
  }
  stats.source = reader.stats();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.progress) progress.finish(with_thousands(stats.games_kept) + " kept");
  return stats;
}

std::vector<CorpusGame> load_corpus(const std::vector<std::string>& paths, const CorpusOptions& options,
                                    CorpusStats* stats) {
  std::vector<CorpusGame> games;
  CorpusStats s = read_corpus(paths, options, [&](CorpusGame&& g) { games.push_back(std::move(g)); });
  if (stats != nullptr) *stats = std::move(s);
  return games;
}

}  // namespace hane
