#include "match/result.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sgf/record.h"
#include "sgf/writer.h"

namespace hane {
namespace {

const char* const kEndingNames[] = {"score", "resign", "forfeit", "time", "max_moves", "void"};

std::string color_letter(Color c) { return c == Color::kBlack ? "B" : c == Color::kWhite ? "W" : ""; }

// Points as a JSON array of GTP vertices ("D4").
nlohmann::json vertices_json(const std::vector<Vertex>& points, int size) {
  nlohmann::json out = nlohmann::json::array();
  for (Vertex v : points) out.push_back(to_gtp(v, size));
  return out;
}

}  // namespace

const char* ending_name(Ending e) { return kEndingNames[static_cast<int>(e)]; }

double GameResult::points(int e) const {
  if (winner == Color::kEmpty) return 0.5;
  const int winner_engine = winner == Color::kBlack ? black : white;
  return winner_engine == e ? 1.0 : 0.0;
}

nlohmann::json to_json(const GameResult& g) {
  nlohmann::json j;
  j["game"] = g.index;
  j["pairing"] = g.pairing;
  j["pair"] = g.pair;
  j["black"] = g.black_name;
  j["white"] = g.white_name;
  j["black_engine"] = g.black;
  j["white_engine"] = g.white;
  j["opening"] = g.opening;
  j["opening_moves"] = g.opening_moves;
  j["seed"] = g.seed;
  j["size"] = g.size;
  j["komi"] = g.komi;
  j["handicap"] = g.handicap;
  j["rules"] = g.rules;
  if (g.time.enabled()) j["time"] = {{"main", g.time.main_s}, {"period", g.time.period_s}, {"stones", g.time.stones}};
  j["handicap_stones"] = vertices_json(g.handicap_stones, g.size);
  nlohmann::json moves = nlohmann::json::array();
  for (const Move& m : g.moves) moves.push_back(absl::StrCat(color_letter(m.color), " ", to_gtp(m.vertex, g.size)));
  j["moves"] = moves;
  nlohmann::json times = nlohmann::json::array();
  for (double t : g.move_seconds) times.push_back(std::round(t * 1e4) / 1e4);
  j["move_seconds"] = times;
  j["ending"] = ending_name(g.ending);
  j["winner"] = g.winner == Color::kEmpty ? "" : color_letter(g.winner);
  j["margin"] = g.margin;
  j["result"] = g.result;
  j["reason"] = g.reason;
  j["forfeit_engine"] = g.forfeit_engine;
  j["stderr_tail"] = g.stderr_tail;
  j["dead_stones_from"] = g.dead_stones_from;
  j["dead"] = vertices_json(g.dead, g.size);
  j["final_score"] = g.final_score;
  j["score_disagreement"] = g.score_disagreement;
  j["seconds"] = std::round(g.seconds * 1e3) / 1e3;
  j["date"] = g.date;
  return j;
}

absl::StatusOr<GameResult> game_from_json(const nlohmann::json& j) {
  GameResult g;
  try {
    g.index = j.at("game").get<int64_t>();
    g.pairing = j.at("pairing").get<int>();
    g.pair = j.at("pair").get<int64_t>();
    g.black_name = j.at("black").get<std::string>();
    g.white_name = j.at("white").get<std::string>();
    g.black = j.at("black_engine").get<int>();
    g.white = j.at("white_engine").get<int>();
    g.opening = j.at("opening").get<std::string>();
    g.opening_moves = j.at("opening_moves").get<int>();
    g.seed = j.at("seed").get<uint64_t>();
    g.size = j.at("size").get<int>();
    g.komi = j.at("komi").get<double>();
    g.handicap = j.at("handicap").get<int>();
    g.rules = j.at("rules").get<std::string>();
    if (j.contains("time")) {  // (absent without a clock, and in files of older versions)
      const nlohmann::json& t = j.at("time");
      g.time = {t.at("main").get<double>(), t.at("period").get<double>(), t.at("stones").get<int>()};
    }
    auto vertex = [&](const std::string& text) {
      auto v = from_gtp(text, g.size);
      if (!v) throw std::invalid_argument("bad vertex '" + text + "'");
      return *v;
    };
    for (const auto& s : j.at("handicap_stones")) g.handicap_stones.push_back(vertex(s.get<std::string>()));
    for (const auto& s : j.at("moves")) {
      const std::string m = s.get<std::string>();
      if (m.size() < 3 || (m[0] != 'B' && m[0] != 'W') || m[1] != ' ') throw std::invalid_argument("bad move '" + m + "'");
      g.moves.push_back({m[0] == 'B' ? Color::kBlack : Color::kWhite, vertex(m.substr(2))});
    }
    g.move_seconds = j.at("move_seconds").get<std::vector<double>>();
    const std::string ending = j.at("ending").get<std::string>();
    bool found = false;
    for (int e = 0; e < 6; ++e) {
      if (ending == kEndingNames[e]) g.ending = static_cast<Ending>(e), found = true;
    }
    if (!found) throw std::invalid_argument("bad ending '" + ending + "'");
    const std::string w = j.at("winner").get<std::string>();
    g.winner = w == "B" ? Color::kBlack : w == "W" ? Color::kWhite : Color::kEmpty;
    g.margin = j.at("margin").get<double>();
    g.result = j.at("result").get<std::string>();
    g.reason = j.at("reason").get<std::string>();
    g.forfeit_engine = j.at("forfeit_engine").get<int>();
    g.stderr_tail = j.at("stderr_tail").get<std::vector<std::string>>();
    g.dead_stones_from = j.at("dead_stones_from").get<std::string>();
    for (const auto& s : j.at("dead")) g.dead.push_back(vertex(s.get<std::string>()));
    g.final_score = j.at("final_score").get<std::vector<std::string>>();
    g.score_disagreement = j.at("score_disagreement").get<bool>();
    g.seconds = j.at("seconds").get<double>();
    g.date = j.at("date").get<std::string>();
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("results line: ", e.what()));
  }
  return g;
}

std::string game_sgf(const GameResult& g) {
  GameRecord r;
  r.board_size = g.size;
  r.komi = g.komi;
  r.handicap = g.handicap;
  r.black_name = g.black_name;
  r.white_name = g.white_name;
  r.result = g.result;
  r.rules = g.rules;
  r.date = g.date;
  r.application = "hane match";
  r.event = "hane match";
  r.game_name = absl::StrCat("game ", g.index);
  r.comment = absl::StrCat("ending: ", ending_name(g.ending), "\nreason: ", g.reason, "\nseed: ", g.seed);
  if (!g.opening.empty()) r.comment += absl::StrCat("\nopening: ", g.opening, " (", g.opening_moves, " moves)");
  if (!g.dead.empty()) {
    r.comment += "\ndead stones:";
    for (Vertex v : g.dead) r.comment += " " + to_gtp(v, g.size);
  }
  r.setup.black = g.handicap_stones;
  r.to_play = g.moves.empty() ? (g.handicap_stones.empty() ? Color::kBlack : Color::kWhite) : g.moves.front().color;
  for (const Move& m : g.moves) r.events.push_back(GameEvent::move(m.color, m.vertex));
  SgfAnnotations clocks;
  if (g.time.enabled()) {
    clocks.root.push_back({"TM", {absl::StrFormat("%g", g.time.main_s)}});
    if (g.time.period_s > 0) {
      clocks.root.push_back({"OT", {absl::StrFormat("%d/%g Canadian", g.time.stones, g.time.period_s)}});
    }
  }
  return write_sgf(r, clocks);
}

std::vector<Vertex> fixed_handicap_points(int size, int handicap) {
  const bool small = size < 7 || handicap < 2 || handicap > 9 || ((size % 2 == 0 || size == 7) && handicap > 4);
  if (small) return {};
  const Geometry geo(size);
  const int e = size >= 13 ? 3 : 2;
  const int lo = e, hi = size - 1 - e, mid = size / 2;
  // (x, y) with y from the top. GTP's order (as GNU Go answers): lower left, upper right,
  // upper left, lower right, centre / sides.
  const Vertex ll = geo.at(lo, hi), ur = geo.at(hi, lo), lr = geo.at(hi, hi), ul = geo.at(lo, lo);
  std::vector<Vertex> v = {ll, ur};
  if (handicap >= 3) v.push_back(ul);
  if (handicap >= 4) v.push_back(lr);
  if (handicap == 5 || handicap == 7 || handicap == 9) v.push_back(geo.at(mid, mid));
  if (handicap >= 6) v.push_back(geo.at(lo, mid)), v.push_back(geo.at(hi, mid));
  if (handicap >= 8) v.push_back(geo.at(mid, lo)), v.push_back(geo.at(mid, hi));
  return v;
}

}  // namespace hane
