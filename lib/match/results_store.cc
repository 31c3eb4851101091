#include "match/results_store.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/cluster.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

// The index of a file name of the SGF naming scheme ("000015.sgf", or with `tmp` set a
// temporary file of one, "000015.sgf.tmp-PID-N": util/files.h), or -1.
int64_t scheme_index(const std::string& name, bool* tmp) {
  const size_t dot = name.find(".sgf");
  if (dot == std::string::npos) return -1;
  const std::string rest = name.substr(dot);
  *tmp = rest.starts_with(".sgf.tmp-");
  if (rest != ".sgf" && !*tmp) return -1;
  const std::string stem = name.substr(0, dot);
  if (stem.size() < 6 || stem.size() > 18) return -1;
  if (!std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return std::stoll(stem);
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

Loaded load_results(const std::string& path, std::span<const GameAssignment> schedule,
                    std::map<int64_t, nlohmann::json>* lines) {
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
    (*lines)[g->index] = std::move(j);
    out.games.emplace(g->index, std::move(*g));
  }
  return out;
}

// The first setting where `a` and `b` differ, as "key: A here, B before" ("engines[1].argv"),
// values shortened; "" when equal.
std::string first_difference(const nlohmann::json& now, const nlohmann::json& before, const std::string& where) {
  if (now == before) return "";
  if (now.is_object() && before.is_object()) {
    for (const auto& [key, value] : now.items()) {
      const std::string at = where.empty() ? key : where + "." + key;
      if (!before.contains(key)) return at + ": " + value.dump() + " now, absent before";
      if (std::string d = first_difference(value, before[key], at); !d.empty()) return d;
    }
    for (const auto& [key, value] : before.items()) {
      if (!now.contains(key)) return (where.empty() ? key : where + "." + key) + ": absent now, " + value.dump() + " before";
    }
  }
  if (now.is_array() && before.is_array() && now.size() == before.size()) {
    for (size_t i = 0; i < now.size(); ++i) {
      if (std::string d = first_difference(now[i], before[i], absl::StrCat(where, "[", i, "]")); !d.empty()) return d;
    }
  }
  auto shown = [](const nlohmann::json& j) {
    std::string text = j.dump();
    return text.size() > 200 ? text.substr(0, 200) + "..." : text;
  };
  return absl::StrCat(where.empty() ? "settings" : where, ": ", shown(now), " now, ", shown(before), " before");
}

// True when results.jsonl is absent or holds no line: no game was recorded.
bool no_results(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  for (std::string line; std::getline(f, line);) {
    if (!line.empty()) return false;
  }
  return true;
}

}  // namespace

std::string ResultsStore::sgf_name(int64_t index) { return absl::StrFormat("sgf/%06d.sgf", index); }

absl::StatusOr<std::unique_ptr<ResultsStore>> ResultsStore::open(const std::string& dir, const nlohmann::json& settings,
                                                                 std::span<const GameAssignment> schedule,
                                                                 const StoreKind& kind) {
  // Only a new folder, one without files, or one holding the owner's settings file.
  auto folder = OwnedFolder::open(dir, kind.settings_file, kind.what);
  if (!folder.ok()) return folder.status();
  std::unique_ptr<ResultsStore> store(new ResultsStore(dir, std::move(*folder), kind));
  if (absl::Status s = store->prepare(settings, schedule); !s.ok()) return s;
  return store;
}

ResultsStore::~ResultsStore() {
  if (results_file_) std::fclose(results_file_);
}

absl::Status ResultsStore::prepare(const nlohmann::json& settings, std::span<const GameAssignment> schedule) {
  const std::string& dir = dir_;
  std::error_code ec;
  const std::string settings_path = dir + "/" + kind_.settings_file;
  for (const char* sub : {"", "/sgf", "/stderr"}) {
    fs::create_directories(dir + sub, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, sub, ": ", ec.message()));
  }

  // The settings that fix the schedule must match those of an earlier run in the folder, unless
  // it recorded no game (e.g. an engine did not start): then they are replaced.
  const std::string results_path = dir + "/results.jsonl";
  bool write_settings = !fs::exists(settings_path);
  if (!write_settings) {
    std::ifstream f(settings_path);
    const nlohmann::json old = nlohmann::json::parse(f, nullptr, false);
    if (old.is_discarded() || old != settings) {
      if (!no_results(results_path)) {
        const std::string why = old.is_discarded() ? "it is not JSON" : first_difference(settings, old, "");
        return absl::InvalidArgumentError(absl::StrCat(dir, " holds a ", kind_.what, " with other settings (", settings_path,
                                                       ": ", why, "); use another --out folder or the same options"));
      }
      write_settings = true;  // no game recorded under the old settings
    }
  }
  if (write_settings) {
    if (absl::Status s = folder_.write_own(kind_.settings_file, settings.dump(2) + "\n"); !s.ok()) return s;
  }

  Loaded loaded = load_results(results_path, schedule, &loaded_lines_);
  for (const std::string& p : loaded.problems) std::fprintf(stderr, "%s: %s\n", kind_.command.c_str(), p.c_str());
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
    if (absl::Status s = folder_.write_own("results.jsonl", content); !s.ok()) return s;
  }
  // SGFs: exactly one per recorded game. Only files of the naming scheme that files.txt lists
  // are removed (games without a result line, a write cut short); a file of the scheme the
  // store did not write, where a game still to be played would write, stops the run.
  std::vector<fs::path> stray;
  for (const auto& entry : fs::directory_iterator(dir + "/sgf", ec)) {
    const std::string name = entry.path().filename().string();
    bool tmp = false;
    const int64_t idx = scheme_index(name, &tmp);
    if (idx < 0) continue;  // not a name the store writes
    const bool in_schedule = idx < static_cast<int64_t>(schedule.size());
    if (!tmp && (loaded.games.contains(idx) || !in_schedule)) continue;  // a recorded game, or beyond the schedule
    if (folder_.wrote(sgf_name(idx))) {
      stray.push_back(entry.path());
    } else if (in_schedule) {
      return absl::InvalidArgumentError(absl::StrCat(
          entry.path().string(), " was not written by this ", kind_.what, " (", dir,
          "/files.txt does not list it), and game ", idx, " is still to be played: move the file away to resume"));
    }
  }
  for (const fs::path& p : stray) fs::remove(p, ec);
  for (const auto& [idx, g] : loaded.games) {
    if (!fs::exists(dir + "/" + sgf_name(idx))) {
      if (absl::Status s = write_sgf(g); !s.ok()) return s;
    }
  }
  for (auto& [idx, g] : loaded.games) loaded_.push_back(std::move(g));

  if (absl::Status s = folder_.note("results.jsonl"); !s.ok()) return s;
  results_file_ = std::fopen(results_path.c_str(), "ab");
  if (!results_file_) return absl::InternalError(absl::StrCat("cannot open ", results_path));
  return absl::OkStatus();
}

absl::Status ResultsStore::write_sgf(const GameResult& g) { return folder_.write(sgf_name(g.index), game_sgf(g)); }

absl::Status ResultsStore::record(const GameResult& g, const nlohmann::json& extra) {
  if (absl::Status s = write_sgf(g); !s.ok()) return s;
  nlohmann::json j = to_json(g);
  if (extra.is_object()) {
    for (const auto& [key, value] : extra.items()) j[key] = value;
  }
  const std::string line = j.dump() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), results_file_) != line.size() || std::fflush(results_file_) != 0) {
    return absl::InternalError(absl::StrCat("cannot append to ", dir_, "/results.jsonl"));
  }
  return absl::OkStatus();
}

absl::Status ResultsStore::write_file(const std::string& name, const std::string& content) {
  return folder_.write_own(name, content);
}

absl::StatusOr<OpenedStore> open_store_on_ranks(const std::string& dir, const nlohmann::json& settings,
                                                std::span<const GameAssignment> schedule, const StoreKind& kind) {
  OpenedStore out;
  absl::Status opened;
  if (cluster::is_root()) {
    auto store = ResultsStore::open(dir, settings, schedule, kind);
    if (store.ok()) {
      out.store = std::move(*store);
      for (const GameResult& g : out.store->loaded()) out.done.insert(g.index);
    } else {
      opened = store.status();
    }
  }
  if (cluster::size() == 1) {
    if (!opened.ok()) return opened;
    return out;
  }
  // Rank 0's error, or the games already played, to every rank.
  std::string message(opened.message());
  cluster::broadcast(message);
  if (!message.empty()) return opened.ok() ? absl::FailedPreconditionError("rank 0: " + message) : opened;
  std::string indices;
  for (int64_t i : out.done) indices.append(reinterpret_cast<const char*>(&i), sizeof i);
  cluster::broadcast(indices);
  for (size_t k = 0; k + sizeof(int64_t) <= indices.size(); k += sizeof(int64_t)) {
    int64_t i = 0;
    std::memcpy(&i, indices.data() + k, sizeof i);
    out.done.insert(i);
  }
  std::error_code ec;
  fs::create_directories(dir + "/stderr", ec);  // engines' stderr, on this rank's machine
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, "/stderr: ", ec.message()));
  return out;
}

}  // namespace hane
