#include "analyze/folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "analyze/report.h"
#include "util/plot.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLock = "analyze.lock";
constexpr const char* kSummary = "summary.json";

// The files of a game's name, relative to the folder.
std::vector<std::string> game_files(const std::string& stem) {
  return {stem + ".sgf", stem + ".json", stem + "-ownership.svg", stem + "-winrate.dat", stem + "-winrate.gp",
          stem + "-winrate.svg", stem + "-winrate.log"};
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// The name a game's files start with: its file's (or archive entry's) stem, [A-Za-z0-9._-]
// only, "-N" for the N-th game of a file of several; never a name of the folder's own files.
std::string base_name(const AnalysisGameKey& g) {
  std::string base = fs::path(g.entry.empty() ? g.source : g.entry).stem().string();
  for (char& c : base) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  if (base.empty() || base == "summary" || base == "analyze" || base == "files") base = "game" + base;
  if (g.tree > 0) base += "-" + std::to_string(g.tree + 1);
  return base;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

}  // namespace

absl::StatusOr<AnalysisFolder> AnalysisFolder::open(const std::string& dir) {
  auto folder = OwnedFolder::open(dir, kMarker, "analysis");
  if (!folder.ok()) return folder.status();
  AnalysisFolder out(std::move(*folder));
  if (!out.folder_.has_marker()) {
    // Made only where none is (link(2)): a run starting at the same time may have made it and
    // registered games in it already.
    const nlohmann::json empty = {{"written_by", "hane analyze"}, {"games", nlohmann::json::object()}};
    const absl::Status s = write_new_file(out.folder_.path(kMarker), empty.dump(1) + "\n");
    if (!s.ok() && !absl::IsAlreadyExists(s)) return s;
  }
  if (absl::Status s = out.folder_.note(kMarker); !s.ok()) return s;
  return out;
}

template <typename F>
absl::Status AnalysisFolder::locked(F&& work) {
  if (absl::Status s = folder_.note(kLock); !s.ok()) return s;
  const std::string path = folder_.path(kLock);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return absl::InternalError("cannot open " + path + ": " + std::strerror(errno));
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return absl::InternalError("cannot lock " + path + ": " + why);
    }
  }
  absl::Status s = work();
  ::flock(fd, LOCK_UN);
  ::close(fd);
  return s;
}

absl::StatusOr<std::vector<std::string>> AnalysisFolder::assign_names(const std::vector<AnalysisGameKey>& games,
                                                                      const std::vector<std::string>& inputs) {
  std::set<std::string> input_paths;
  for (const std::string& p : inputs) input_paths.insert(absolute(p));
  std::vector<std::string> names(games.size());
  const absl::Status s = locked([&]() -> absl::Status {
    nlohmann::json marker = read_json(folder_.path(kMarker));
    if (!marker.is_object()) marker = nlohmann::json::object();
    if (!marker.contains("games") || !marker["games"].is_object()) marker["games"] = nlohmann::json::object();
    nlohmann::json& registered = marker["games"];
    // Registered games by their key.
    std::map<std::tuple<std::string, std::string, int>, std::string> by_key;
    std::map<std::string, std::string> by_hash;  // the same moves from another file: the same game
    for (const auto& [stem, g] : registered.items()) {
      if (!g.is_object()) continue;
      by_key[{g.value("source", ""), g.value("entry", ""), g.value("tree", 0)}] = stem;
      const std::string hash = g.value("hash", "");
      if (!hash.empty() && hash != "0") by_hash.emplace(hash, stem);
    }
    auto free_name = [&](const std::string& stem) {
      if (registered.contains(stem)) return false;
      for (const std::string& file : game_files(stem)) {
        if (!folder_.may_write(file) || input_paths.contains(absolute(folder_.path(file)))) return false;
      }
      return true;
    };
    bool changed = false;
    for (size_t i = 0; i < games.size(); ++i) {
      const AnalysisGameKey& g = games[i];
      const std::string source = absolute(g.source);
      // A registered game: the same file, entry and tree, or the same moves (read again from
      // another file, such as the STEM.sgf analyze wrote) keep their name.
      std::string known;
      if (const auto it = by_key.find({source, g.entry, g.tree}); it != by_key.end()) known = it->second;
      else if (const auto h = by_hash.find(std::to_string(g.hash)); g.hash != 0 && h != by_hash.end()) known = h->second;
      if (!known.empty()) {
        // Its files were put aside for it, but one may be an input now (a copy put into the
        // folder under that name, or its own STEM.sgf read back): then the game gets no name.
        bool clash = false;
        for (const std::string& file : game_files(known)) clash |= input_paths.contains(absolute(folder_.path(file)));
        if (!clash) names[i] = known;
        continue;
      }
      const std::string base = base_name(g);
      std::string stem = base;
      for (int k = 2; !free_name(stem); ++k) stem = base + "-" + std::to_string(k);
      registered[stem] = {{"source", source}, {"entry", g.entry}, {"tree", g.tree}, {"hash", std::to_string(g.hash)}};
      by_key[{source, g.entry, g.tree}] = stem;
      names[i] = stem;
      changed = true;
    }
    if (!changed) return absl::OkStatus();
    return folder_.write_own(kMarker, marker.dump(1) + "\n");
  });
  if (!s.ok()) return s;
  return names;
}

nlohmann::json AnalysisFolder::finished(const std::string& stem, const nlohmann::json& settings, uint64_t hash) {
  if (!folder_.wrote(stem + ".json")) return nullptr;
  nlohmann::json j = read_json(folder_.path(stem + ".json"));
  if (j.is_object() && j.value("settings", nlohmann::json()) == settings &&
      j.value("game_hash", std::string()) == std::to_string(hash)) {
    return j;
  }
  return nullptr;
}

absl::Status AnalysisFolder::write_game(const std::string& stem, const std::string& sgf, const std::string& svg,
                                        const nlohmann::json& game, bool plots, std::string* plot_problem) {
  plot_problem->clear();
  // Nothing of the game is written unless all of its files may be.
  for (const std::string& file : game_files(stem)) {
    if (!folder_.may_write(file)) {
      return absl::FailedPreconditionError(folder_.path(file) + " exists and was not written by hane analyze (" +
                                           folder_.path(OwnedFolder::kFilesList) + " does not list it): it is left as it is");
    }
  }
  if (absl::Status s = folder_.write(stem + ".sgf", sgf); !s.ok()) return s;
  if (absl::Status s = folder_.write(stem + "-ownership.svg", svg); !s.ok()) return s;
  if (plots) {
    const std::string dat = stem + "-winrate.dat";
    if (absl::Status s = folder_.write(dat, winrate_plot_data(game)); !s.ok()) return s;
    for (const char* suffix : {"-winrate.gp", "-winrate.svg", "-winrate.log"}) {
      if (absl::Status s = folder_.note(stem + suffix); !s.ok()) return s;
    }
    *plot_problem = run_gnuplot(folder_.path(stem + "-winrate.gp"),
                                winrate_plot_script(game, folder_.path(dat), folder_.path(stem + "-winrate.svg")));
  }
  return folder_.write(stem + ".json", game.dump(1) + "\n");
}

absl::StatusOr<nlohmann::json> AnalysisFolder::write_summary(const nlohmann::json& extra) {
  nlohmann::json summary;
  const absl::Status s = locked([&]() -> absl::Status {
    const nlohmann::json marker = read_json(folder_.path(kMarker));
    summary = extra.is_object() ? extra : nlohmann::json::object();
    summary["games"] = nlohmann::json::array();
    std::map<std::string, nlohmann::json> games;
    int64_t with_warnings = 0;
    if (marker.is_object() && marker.contains("games") && marker["games"].is_object()) {
      for (const auto& [stem, key] : marker["games"].items()) {
        if (!folder_.wrote(stem + ".json")) continue;
        nlohmann::json j = read_json(folder_.path(stem + ".json"));
        if (!j.is_object() || !j.contains("players") || !j.contains("moves")) continue;
        nlohmann::json g;
        g["stem"] = stem;
        for (const char* k : {"source", "entry", "black", "white", "result", "settings"}) g[k] = j.value(k, nlohmann::json());
        g["moves"] = j["moves"].size();
        g["final_score"] = j.contains("final") ? j["final"].value("score", nlohmann::json()) : nlohmann::json();
        g["warnings"] = j.value("warnings", nlohmann::json::array());
        with_warnings += !g["warnings"].empty();
        g["players"] = j["players"];
        summary["games"].push_back(std::move(g));
        games[stem] = std::move(j);
      }
    }
    summary["players"] = players_summary(games);
    summary["games_analysed"] = games.size();
    summary["games_with_warnings"] = with_warnings;
    return folder_.write(kSummary, summary.dump(2) + "\n");
  });
  if (!s.ok()) return s;
  return summary;
}

}  // namespace hane
