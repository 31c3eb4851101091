#include "analyze/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sgf/writer.h"
#include "util/plot.h"

namespace hane {
namespace {

std::string fixed(double x, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

std::string percent(double p) { return fixed(100 * p, 0) + "%"; }

std::string ordinal(int n) {
  const int mod100 = n % 100, mod10 = n % 10;
  const char* suffix = (mod100 >= 11 && mod100 <= 13) ? "th" : mod10 == 1 ? "st" : mod10 == 2 ? "nd" : mod10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

const char* colour_name(Color c) { return c == Color::kBlack ? "Black" : "White"; }

std::string lead_text(double margin) {
  if (margin == 0) return "a draw (jigo)";
  return std::string(margin > 0 ? "Black" : "White") + " leads by " + fixed(std::abs(margin), 1);
}

std::string points_text(const std::vector<Vertex>& points, int size) {
  std::string out;
  for (const Vertex v : points) out += (out.empty() ? "" : " ") + to_gtp(v, size);
  return out.empty() ? "none" : out;
}

std::string mistake_comment(const MoveAnalysis& a, int size) {
  std::string c = "Mistake by " + std::string(colour_name(a.color)) + ": " + colour_name(a.color) + "'s win rate " +
                  percent(a.color == Color::kBlack ? a.black_before : 1 - a.black_before) + " -> " +
                  percent(a.color == Color::kBlack ? a.black_after : 1 - a.black_after) + ".";
  if (a.best != a.played) {
    c += " The engine preferred " + to_gtp(a.best, size) + " (" + percent(a.best_winrate) + ")";
    if (a.pv.size() > 1) c += ": " + points_text(a.pv, size);
    c += ".";
  }
  c += " Before it: " + lead_text(a.search_score) + " (the playouts' mean), " + lead_text(a.static_score) +
       " (the static estimate).";
  if (a.guesser_rank) {
    c += " The guesser ranked " + to_gtp(a.played, size) + " " + ordinal(*a.guesser_rank) + " (" +
         fixed(100 * a.guesser_probability.value_or(0), 1) + "%).";
  }
  return c;
}

std::vector<std::string> sgf_points(const std::vector<Vertex>& points, int size) {
  std::vector<std::string> out;
  for (const Vertex v : points) out.push_back(to_sgf(v, size));
  return out;
}

nlohmann::json vertex_json(Vertex v, int size) { return to_gtp(v, size); }

// `text` in lines of at most `width` characters, broken at spaces.
std::vector<std::string> wrapped(const std::string& text, size_t width) {
  std::vector<std::string> lines(1);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    start = end + 1;
  }
  return lines;
}

std::string final_comment(const GameRecord& record, const FinalAnalysis& f) {
  return "Estimated result: " + lead_text(f.score) + " (" + (f.territory_counting ? "territory" : "area") +
         " counting, komi " + fixed(record.komi, 1) +
         (f.finished ? "" : "; the game did not end: each open point counted for the side that owns it in most playouts") +
         "). Dead stones: " + points_text(f.dead, record.board_size) + ".";
}

}  // namespace

std::string annotated_sgf(std::string_view original, const GameRecord& record, const GameAnalysis& analysis,
                          double mistake) {
  const int size = record.board_size;
  SgfAnnotations notes;
  notes.root.push_back({"SBKV", {fixed(100 * analysis.black_start, 2)}});
  for (const MoveAnalysis& a : analysis.moves) {
    SgfProperties props;
    props.push_back({"SBKV", {fixed(100 * a.black_after, 2)}});
    if (a.mistake) {
      props.push_back({"BM", {"1"}});
      props.push_back({"C", {mistake_comment(a, size)}});
    }
    notes.moves.push_back(std::move(props));
  }
  const FinalAnalysis& f = analysis.final_position;
  const std::string end = final_comment(record, f) + " Mistakes marked at a win-rate drop of more than " +
                          fixed(100 * mistake, 0) + " points.";
  SgfProperties last = {{"SBKS", {fixed(f.score, 1)}},
                        {"TB", sgf_points(f.black_area, size)},
                        {"TW", sgf_points(f.white_area, size)},
                        {"C", {end}}};
  SgfProperties& props = notes.moves.empty() ? notes.root : notes.moves.back();
  for (auto& p : last) props.push_back(std::move(p));
  // The game as read, every property and variation kept; the record written again only when
  // there is no text (a record made in memory) or it does not fit.
  if (!original.empty()) {
    if (auto annotated = annotate_sgf(original, notes); annotated.ok()) return *annotated;
  }
  auto annotated = annotate_sgf(write_sgf(record), notes);
  return annotated.ok() ? *annotated : write_sgf(record, notes);
}

nlohmann::json analysis_json(const GameRecord& record, const GameAnalysis& analysis, const nlohmann::json& settings) {
  const int size = record.board_size;
  nlohmann::json j;
  j["settings"] = settings;
  j["black"] = record.black_name;
  j["white"] = record.white_name;
  j["result"] = record.result;
  j["rules"] = analysis.rules;
  j["board_size"] = size;
  j["komi"] = record.komi;
  j["black_start"] = analysis.black_start;
  j["moves"] = nlohmann::json::array();
  struct Tally {
    int64_t moves = 0, mistakes = 0, top1 = 0, ranked = 0;
    double probability = 0;
  } tally[2];
  for (const MoveAnalysis& a : analysis.moves) {
    nlohmann::json m;
    m["number"] = a.number;
    m["color"] = a.color == Color::kBlack ? "B" : "W";
    m["move"] = vertex_json(a.played, size);
    m["black_before"] = a.black_before;
    m["black_after"] = a.black_after;
    m["drop"] = a.drop;
    m["mistake"] = a.mistake;
    m["best"] = vertex_json(a.best, size);
    m["best_winrate"] = a.best_winrate;
    m["pv"] = nlohmann::json::array();
    for (const Vertex v : a.pv) m["pv"].push_back(vertex_json(v, size));
    m["visits"] = a.visits;
    m["search_score"] = a.search_score;
    m["static_score"] = a.static_score;
    m["guesser_rank"] = a.guesser_rank ? nlohmann::json(*a.guesser_rank) : nlohmann::json(nullptr);
    m["guesser_probability"] = a.guesser_probability ? nlohmann::json(*a.guesser_probability) : nlohmann::json(nullptr);
    j["moves"].push_back(std::move(m));
    Tally& t = tally[a.color == Color::kBlack ? 0 : 1];
    ++t.moves;
    t.mistakes += a.mistake;
    if (a.guesser_rank) {
      ++t.ranked;
      t.top1 += *a.guesser_rank == 1;
      t.probability += a.guesser_probability.value_or(0);
    }
  }
  for (int c = 0; c < 2; ++c) {
    const Tally& t = tally[c];
    nlohmann::json p;
    p["moves"] = t.moves;
    p["mistakes"] = t.mistakes;
    p["guesser_moves"] = t.ranked;
    p["guesser_top1"] = t.ranked ? nlohmann::json(static_cast<double>(t.top1) / t.ranked) : nlohmann::json(nullptr);
    p["guesser_mean_probability"] = t.ranked ? nlohmann::json(t.probability / t.ranked) : nlohmann::json(nullptr);
    j["players"][c == 0 ? "B" : "W"] = p;
  }
  const FinalAnalysis& f = analysis.final_position;
  nlohmann::json& fj = j["final"];
  fj["score"] = f.score;
  fj["counting"] = f.territory_counting ? "territory" : "area";
  fj["finished"] = f.finished;
  fj["area_margin"] = f.estimate.area_margin;
  fj["territory_margin"] = f.estimate.territory_margin;
  fj["playouts"] = f.estimate.playouts;
  for (const char* key : {"dead", "black_area", "white_area"}) fj[key] = nlohmann::json::array();
  for (const Vertex v : f.dead) fj["dead"].push_back(vertex_json(v, size));
  for (const Vertex v : f.black_area) fj["black_area"].push_back(vertex_json(v, size));
  for (const Vertex v : f.white_area) fj["white_area"].push_back(vertex_json(v, size));
  fj["ownership"] = nlohmann::json::array();
  const Geometry g(size);
  for (int y = 0; y < size; ++y) {
    nlohmann::json row = nlohmann::json::array();
    for (int x = 0; x < size; ++x) {
      const size_t i = static_cast<size_t>(g.at(x, y).index());
      const double o = i < f.estimate.ownership.size() ? f.estimate.ownership[i] : 0.0;
      row.push_back(std::round(o * 1000) / 1000);
    }
    fj["ownership"].push_back(std::move(row));
  }
  return j;
}

std::string ownership_svg(const GameRecord& record, const GameAnalysis& analysis) {
  const int size = record.board_size;
  const Geometry g(size);
  const FinalAnalysis& f = analysis.final_position;
  // The title in lines that fit the picture, which is never narrower than kMinWidth (the board
  // centred in it): on small boards a title of one line would be cut off.
  constexpr int kMinWidth = 440, kCharPx = 8, kLinePx = 18;
  const int cell = 28, margin = 36;
  const int board_px = cell * (size - 1);
  const int width = std::max(board_px + 2 * margin, kMinWidth);
  const int left = (width - board_px) / 2;  // x of the first line
  const std::string heading = "Estimated: " + lead_text(f.score) + " (" + (f.territory_counting ? "territory" : "area") +
                              " counting, komi " + fixed(record.komi, 1) +
                              (f.finished ? "" : "; the game did not end: open points by ownership") +
                              "); dead stones crossed";
  const std::vector<std::string> lines = wrapped(heading, static_cast<size_t>((width - 16) / kCharPx));
  const int title = 12 + kLinePx * static_cast<int>(lines.size());
  const int height = board_px + 2 * margin + title;
  // The final board again (the analysis keeps only the figures).
  auto game = replay_game(record);
  std::string s;
  auto add = [&s](const std::string& text) { s += text; };
  auto px = [&](int i) { return std::to_string(left + cell * i); };
  auto py = [&](int i) { return std::to_string(title + margin + cell * i); };
  add("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
      std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) + "\">\n");
  add("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
  add("<rect x=\"" + std::to_string(left - margin / 2) + "\" y=\"" + std::to_string(title + margin / 2) + "\" width=\"" +
      std::to_string(board_px + margin) + "\" height=\"" + std::to_string(board_px + margin) + "\" fill=\"#dcb35c\"/>\n");
  for (size_t k = 0; k < lines.size(); ++k) {
    add("<text x=\"" + std::to_string(width / 2) + "\" y=\"" + std::to_string(20 + kLinePx * static_cast<int>(k)) +
        "\" font-family=\"sans-serif\" font-size=\"14\" text-anchor=\"middle\">" + lines[k] + "</text>\n");
  }
  for (int i = 0; i < size; ++i) {
    add("<line x1=\"" + px(0) + "\" y1=\"" + py(i) + "\" x2=\"" + px(size - 1) + "\" y2=\"" + py(i) +
        "\" stroke=\"#000000\" stroke-width=\"1\"/>\n");
    add("<line x1=\"" + px(i) + "\" y1=\"" + py(0) + "\" x2=\"" + px(i) + "\" y2=\"" + py(size - 1) +
        "\" stroke=\"#000000\" stroke-width=\"1\"/>\n");
    const std::string column = to_gtp(g.at(i, 0), size).substr(0, 1);
    add("<text x=\"" + px(i) + "\" y=\"" + std::to_string(title + margin - cell / 2 - 4) +
        "\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\">" + column + "</text>\n");
    add("<text x=\"" + std::to_string(left - cell / 2 - 4) + "\" y=\"" + std::to_string(title + margin + cell * i + 4) +
        "\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"end\">" + std::to_string(size - i) + "</text>\n");
  }
  std::vector<int8_t> dead(static_cast<size_t>(g.num_vertices()), 0);
  for (const Vertex v : f.dead) dead[static_cast<size_t>(v.index())] = 1;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Vertex v = g.at(x, y);
      const size_t i = static_cast<size_t>(v.index());
      const Color c = game.ok() ? game->board().color(v) : Color::kEmpty;
      const std::string cx = px(x), cy = py(y);
      if (c == Color::kBlack || c == Color::kWhite) {
        const bool black = c == Color::kBlack;
        add("<circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" + std::to_string(cell / 2 - 1) + "\" fill=\"" +
            (black ? "#111111" : "#f4f4f4") + "\" stroke=\"#000000\" stroke-width=\"1\"" +
            (dead[i] ? " fill-opacity=\"0.45\"" : "") + "/>\n");
      }
      const double o = i < f.estimate.ownership.size() ? f.estimate.ownership[i] : 0.0;
      if ((c == Color::kEmpty || dead[i]) && std::abs(o) > 0.05) {
        const double side = std::abs(o) * cell * 0.6;
        add("<rect x=\"" + fixed(left + cell * x - side / 2, 1) + "\" y=\"" + fixed(title + margin + cell * y - side / 2, 1) +
            "\" width=\"" + fixed(side, 1) + "\" height=\"" + fixed(side, 1) + "\" fill=\"" +
            (o > 0 ? "#000000" : "#ffffff") + "\" stroke=\"#555555\" stroke-width=\"0.5\"/>\n");
      }
      if (dead[i]) {
        const int d = cell / 3;
        for (const int sign : {1, -1}) {
          add("<line x1=\"" + std::to_string(left + cell * x - d) + "\" y1=\"" +
              std::to_string(title + margin + cell * y - sign * d) + "\" x2=\"" + std::to_string(left + cell * x + d) +
              "\" y2=\"" + std::to_string(title + margin + cell * y + sign * d) +
              "\" stroke=\"#cc3311\" stroke-width=\"2\"/>\n");
        }
      }
    }
  }
  add("</svg>\n");
  return s;
}

std::string winrate_plot_data(const nlohmann::json& game) {
  std::string f = "# move black_winrate_percent mistake (1 Black's, 2 White's); move 0: before the first move\n";
  f += "0 " + fixed(100 * game["black_start"].get<double>(), 2) + " 0\n";
  for (const auto& m : game["moves"]) {
    const int mistake = m["mistake"].get<bool>() ? (m["color"] == "B" ? 1 : 2) : 0;
    f += std::to_string(m["number"].get<int>()) + " " + fixed(100 * m["black_after"].get<double>(), 2) + " " +
         std::to_string(mistake) + "\n";
  }
  return f;
}

std::string winrate_plot_script(const nlohmann::json& game, const std::string& data, const std::string& svg) {
  std::string title = game["black"].get<std::string>() + " (B) vs " + game["white"].get<std::string>() + " (W)";
  if (!game["result"].get<std::string>().empty()) title += ", " + game["result"].get<std::string>();
  // The legend below the graph, never over the curve.
  return "set terminal svg size 900,440 dynamic background '#ffffff'\n"
         "set output " + gnuplot_quote(svg) + "\n" +
         "set title " + gnuplot_quote(title + ": Black's win rate") + " noenhanced\n" +
         "set xlabel 'move'\nset ylabel 'Black win rate (%)'\nset yrange [0:100]\nset grid\nset key below horizontal\n" +
         "plot " + gnuplot_quote(data) + " using 1:2 with lines lw 2 lc rgb '#224488' title 'Black win rate', " +
         "'' using 1:($3 == 1 ? $2 : 1/0) with points pt 7 ps 1.2 lc rgb '#000000' title 'mistake by Black', " +
         "'' using 1:($3 == 2 ? $2 : 1/0) with points pt 6 ps 1.2 lw 2 lc rgb '#cc3311' title 'mistake by White', " +
         "50 with lines lc rgb '#888888' notitle\n";
}

nlohmann::json players_summary(const std::map<std::string, nlohmann::json>& games) {
  struct Tally {
    int64_t games = 0, moves = 0, mistakes = 0, ranked = 0;
    double top1 = 0, probability = 0;
  };
  std::map<std::string, Tally> by_player;
  for (const auto& [name, g] : games) {
    for (const char* side : {"B", "W"}) {
      std::string player = g[side == std::string("B") ? "black" : "white"].get<std::string>();
      if (player.empty()) player = std::string(side == std::string("B") ? "Black" : "White") + " of " + name;
      const nlohmann::json& p = g["players"][side];
      Tally& t = by_player[player];
      ++t.games;
      t.moves += p["moves"].get<int64_t>();
      t.mistakes += p["mistakes"].get<int64_t>();
      const int64_t ranked = p["guesser_moves"].get<int64_t>();
      t.ranked += ranked;
      if (ranked > 0) {
        t.top1 += p["guesser_top1"].get<double>() * ranked;
        t.probability += p["guesser_mean_probability"].get<double>() * ranked;
      }
    }
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [player, t] : by_player) {
    nlohmann::json p;
    p["games"] = t.games;
    p["moves"] = t.moves;
    p["mistakes"] = t.mistakes;
    p["mistakes_per_100_moves"] = t.moves ? 100.0 * t.mistakes / t.moves : 0.0;
    p["guesser_moves"] = t.ranked;
    p["guesser_top1"] = t.ranked ? nlohmann::json(t.top1 / t.ranked) : nlohmann::json(nullptr);
    p["guesser_mean_probability"] = t.ranked ? nlohmann::json(t.probability / t.ranked) : nlohmann::json(nullptr);
    out[player] = p;
  }
  return out;
}

}  // namespace hane
