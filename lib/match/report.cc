#include "match/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/plot.h"
#include "util/text.h"

namespace hane {
namespace {

nlohmann::json opt(std::optional<double> x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); }

nlohmann::json interval_json(const Interval& i) { return nlohmann::json::array({i.lo, i.hi}); }
nlohmann::json elo_interval_json(const EloInterval& i) { return nlohmann::json::array({opt(i.lo), opt(i.hi)}); }

// An Elo value of a score; null (infinite) is printed with the sign the score gives.
std::string fmt_elo(const nlohmann::json& elo, const nlohmann::json& score) {
  if (!elo.is_null()) return absl::StrFormat("%+.1f", elo.get<double>());
  return score.get<double>() >= 1 ? "+inf" : "-inf";
}

std::vector<const GameResult*> sorted_pairing(const std::vector<GameResult>& games, int pairing) {
  std::vector<const GameResult*> out;
  for (const GameResult& g : games) {
    if (g.pairing == pairing) out.push_back(&g);
  }
  std::sort(out.begin(), out.end(), [](const GameResult* a, const GameResult* b) { return a->index < b->index; });
  return out;
}

// The median of `x` (sorts it); 0 when empty.
double median(std::vector<double>& x) {
  if (x.empty()) return 0;
  std::sort(x.begin(), x.end());
  const size_t m = x.size() / 2;
  return x.size() % 2 ? x[m] : (x[m - 1] + x[m]) / 2;
}

// Per engine: the seconds of each move it generated (the opening's moves left out) and of each
// game it played (their sum), over every game played, void ones too.
nlohmann::json time_json(std::vector<double> moves, std::vector<double> per_game) {
  if (moves.empty()) return nullptr;
  double total = 0, longest = 0;
  for (double t : moves) total += t, longest = std::max(longest, t);
  const auto n = static_cast<int64_t>(moves.size());
  return {{"moves", n},
          {"median_s", median(moves)},
          {"mean_s", total / static_cast<double>(n)},
          {"longest_s", longest},
          {"game_median_s", median(per_game)}};
}

void add_game(Wdl* wdl, double points) {
  if (points == 1) ++wdl->wins;
  else if (points == 0) ++wdl->losses;
  else ++wdl->draws;
}

}  // namespace

PairingCounts count_pairing(const std::vector<GameResult>& games, int pairing, const Pairing& p) {
  PairingCounts c;
  std::map<int64_t, std::vector<double>> pairs;
  for (const GameResult& g : games) {
    if (g.pairing != pairing || !g.counted()) continue;
    const double pts = g.points(p.first);
    add_game(&c.wdl, pts);
    pairs[g.pair].push_back(pts);
  }
  for (const auto& [pair, pts] : pairs) {
    if (pts.size() == 2) ++c.penta.counts[static_cast<int>(std::lround(2 * (pts[0] + pts[1])))];
  }
  return c;
}

SprtState sprt_state(const PairingCounts& counts, const SprtParams& params) {
  SprtState s;
  s.llr = params.per_pair ? sprt_llr(counts.penta, params) : sprt_llr(counts.wdl, params);
  if (s.llr >= params.upper()) s.decision = "H1";
  else if (s.llr <= params.lower()) s.decision = "H0";
  return s;
}

nlohmann::json match_report_json(const std::vector<GameResult>& games, const ReportContext& ctx) {
  const int n = static_cast<int>(ctx.names.size());
  nlohmann::json report;
  int64_t counted = 0, voids = 0, draws = 0;
  struct EngineCounts {
    int64_t games = 0, wins = 0, losses = 0, draws = 0, forfeits = 0, wins_black = 0, wins_white = 0, as_black = 0,
            as_white = 0;
    std::map<std::string, int64_t> forfeit_reasons;
  };
  std::vector<EngineCounts> ec(n);
  std::vector<std::vector<double>> move_seconds(n), game_seconds(n);
  nlohmann::json disagreements = nlohmann::json::array();
  for (const GameResult& g : games) {
    double used[2] = {0, 0};  // black's, white's
    for (size_t i = static_cast<size_t>(std::max(g.opening_moves, 0)); i < g.move_seconds.size(); ++i) {
      // The time after the last move is a resignation's.
      Color mover = Color::kEmpty;
      if (i < g.moves.size()) mover = g.moves[i].color;
      else if (g.ending == Ending::kResign) mover = opponent(g.winner);
      if (mover != Color::kBlack && mover != Color::kWhite) continue;
      const int side = mover == Color::kBlack ? 0 : 1;
      const int e = side == 0 ? g.black : g.white;
      if (e < 0 || e >= n) continue;
      move_seconds[e].push_back(g.move_seconds[i]);
      used[side] += g.move_seconds[i];
    }
    for (int side : {0, 1}) {
      const int e = side == 0 ? g.black : g.white;
      if (e >= 0 && e < n) game_seconds[e].push_back(used[side]);
    }
    if (!g.counted()) {
      ++voids;
      continue;
    }
    ++counted;
    if (g.winner == Color::kEmpty) ++draws;
    for (int e : {g.black, g.white}) {
      EngineCounts& c = ec[e];
      ++c.games;
      const bool black = e == g.black;
      ++(black ? c.as_black : c.as_white);
      const double pts = g.points(e);
      if (pts == 1) {
        ++c.wins;
        ++(black ? c.wins_black : c.wins_white);
      } else if (pts == 0) {
        ++c.losses;
      } else {
        ++c.draws;
      }
    }
    if (g.forfeit_engine >= 0) {
      ++ec[g.forfeit_engine].forfeits;
      // Group reasons without move-specific details beyond the first 60 characters.
      const size_t colon = g.reason.find(": ");
      std::string kind = colon == std::string::npos ? g.reason : g.reason.substr(colon + 2);
      ++ec[g.forfeit_engine].forfeit_reasons[kind.substr(0, 60)];
    }
    if (g.score_disagreement) {
      for (size_t k = 0; k < g.final_score.size(); ++k) {
        const auto theirs = parse_final_score(g.final_score[k]);
        if (!g.final_score[k].empty() && !g.final_score[k].starts_with("?") && (!theirs || *theirs != g.margin)) {
          disagreements.push_back({{"game", g.index},
                                   {"engine", k == 0 ? g.black_name : g.white_name},
                                   {"answer", g.final_score[k]},
                                   {"result", g.result}});
        }
      }
    }
  }
  report["games"] = counted;
  report["void_games"] = voids;
  report["draws"] = draws;
  report["games_scheduled"] = ctx.games_scheduled;
  for (int e = 0; e < n; ++e) {
    const EngineCounts& c = ec[e];
    report["engines"].push_back({{"name", ctx.names[e]},
                                 {"gtp_name", e < (int)ctx.gtp_names.size() ? ctx.gtp_names[e] : ""},
                                 {"version", e < (int)ctx.gtp_versions.size() ? ctx.gtp_versions[e] : ""},
                                 {"spec", e < (int)ctx.specs.size() ? ctx.specs[e] : ""},
                                 {"games", c.games},
                                 {"wins", c.wins},
                                 {"losses", c.losses},
                                 {"draws", c.draws},
                                 {"forfeits", c.forfeits},
                                 {"forfeit_reasons", c.forfeit_reasons},
                                 {"wins_as_black", c.wins_black},
                                 {"wins_as_white", c.wins_white},
                                 {"games_as_black", c.as_black},
                                 {"games_as_white", c.as_white},
                                 {"time", time_json(move_seconds[e], game_seconds[e])}});
  }
  std::vector<PairResult> pair_results;
  for (size_t q = 0; q < ctx.pairings.size(); ++q) {
    const Pairing& p = ctx.pairings[q];
    const PairingCounts c = count_pairing(games, static_cast<int>(q), p);
    const Interval ci = wilson_interval(c.wdl);
    const Interval pci = pentanomial_interval(c.penta);
    std::set<std::string> unique;
    int64_t black_wins = 0, white_wins = 0;
    for (const GameResult* g : sorted_pairing(games, static_cast<int>(q))) {
      if (!g->counted()) continue;
      std::string key = absl::StrCat(g->black, "/", g->white, ":");
      for (const Move& m : g->moves) absl::StrAppend(&key, m.vertex.index(), ",");
      unique.insert(key);
      black_wins += g->winner == Color::kBlack;
      white_wins += g->winner == Color::kWhite;
    }
    nlohmann::json j = {{"first", ctx.names[p.first]},
                        {"second", ctx.names[p.second]},
                        {"games", c.wdl.games()},
                        {"wins", c.wdl.wins},
                        {"losses", c.wdl.losses},
                        {"draws", c.wdl.draws},
                        {"score", c.wdl.score()},
                        {"score_ci95", interval_json(ci)},
                        {"elo", opt(elo_from_score(c.wdl.score()))},
                        {"elo_ci95", elo_interval_json(elo_interval(ci))},
                        {"los", likelihood_of_superiority(c.wdl)},
                        {"pairs", c.penta.pairs()},
                        {"pentanomial", c.penta.counts},
                        {"pair_score_ci95", interval_json(pci)},
                        {"pair_elo_ci95", elo_interval_json(elo_interval(pci))},
                        {"unique_games", unique.size()},
                        {"colour", {{"black_wins", black_wins}, {"white_wins", white_wins}}}};
    report["pairings"].push_back(j);
    pair_results.push_back({p.first, p.second, c.wdl.wins + 0.5 * c.wdl.draws, c.wdl.games()});
    if (ctx.pairings.size() == 1) {
      for (const char* k : {"score", "score_ci95", "elo", "elo_ci95", "los"}) report[k] = j[k];
      if (ctx.sprt) {
        const SprtState s = sprt_state(c, *ctx.sprt);
        report["sprt"] = {{"llr", s.llr},
                          {"lower", ctx.sprt->lower()},
                          {"upper", ctx.sprt->upper()},
                          {"decision", s.decision},
                          {"elo0", ctx.sprt->elo0},
                          {"elo1", ctx.sprt->elo1},
                          {"alpha", ctx.sprt->alpha},
                          {"beta", ctx.sprt->beta},
                          {"elo_model", ctx.sprt->model()},
                          {"per", ctx.sprt->per_pair ? "pair" : "game"}};
      }
    }
  }
  if (n > 2) {
    const std::vector<double> elo = bradley_terry_elo(n, pair_results);
    for (int e = 0; e < n; ++e) report["ratings"].push_back({{"name", ctx.names[e]}, {"elo", elo[e]}});
    report["ratings_model"] = "Bradley-Terry maximum likelihood, mean 0, one prior draw per pairing";
  }
  report["score_disagreements"] = disagreements;
  report["provenance"] = ctx.provenance;
  return report;
}

std::string match_report_text(const nlohmann::json& r) {
  std::string out;
  absl::StrAppendFormat(&out, "%d games counted (%d void, %d draws) of %d scheduled\n\n", r["games"].get<int64_t>(),
                        r["void_games"].get<int64_t>(), r["draws"].get<int64_t>(), r["games_scheduled"].get<int64_t>());
  // Names padded by their width on a terminal (util/text.h): a CJK character takes two columns.
  absl::StrAppendFormat(&out, "%-16s %-28s %6s %6s %6s %6s %8s %8s %8s\n", "engine", "name / version", "games", "wins",
                        "losses", "draws", "forfeits", "B wins", "W wins");
  for (const auto& e : r["engines"]) {
    const std::string id = absl::StrCat(e["gtp_name"].get<std::string>(), " ", e["version"].get<std::string>());
    absl::StrAppendFormat(&out, "%s %s %6d %6d %6d %6d %8d %8d %8d\n", pad_right(e["name"].get<std::string>(), 16),
                          pad_right(truncate_to_width(id, 28), 28), e["games"].get<int64_t>(), e["wins"].get<int64_t>(),
                          e["losses"].get<int64_t>(), e["draws"].get<int64_t>(), e["forfeits"].get<int64_t>(),
                          e["wins_as_black"].get<int64_t>(), e["wins_as_white"].get<int64_t>());
    for (const auto& [reason, count] : e["forfeit_reasons"].items()) {
      absl::StrAppendFormat(&out, "    forfeit x%d: %s\n", count.get<int64_t>(), reason);
    }
  }
  bool timed = false;
  for (const auto& e : r["engines"]) timed = timed || (e.contains("time") && !e["time"].is_null());
  if (timed) {
    absl::StrAppendFormat(&out, "\n%-16s %9s %9s %9s %15s %9s\n", "seconds a move", "median", "mean", "longest",
                          "a game (median)", "moves");
    for (const auto& e : r["engines"]) {
      if (!e.contains("time") || e["time"].is_null()) continue;
      const auto& t = e["time"];
      absl::StrAppendFormat(&out, "%s %9.2f %9.2f %9.2f %15.1f %9d\n", pad_right(e["name"].get<std::string>(), 16),
                            t["median_s"].get<double>(), t["mean_s"].get<double>(), t["longest_s"].get<double>(),
                            t["game_median_s"].get<double>(), t["moves"].get<int64_t>());
    }
  }
  out += "\n";
  for (const auto& p : r["pairings"]) {
    const auto& ci = p["score_ci95"];
    const auto& eci = p["elo_ci95"];
    const auto& pci = p["pair_elo_ci95"];
    const auto& penta = p["pentanomial"];
    absl::StrAppendFormat(&out,
                          "%s vs %s: +%d -%d =%d, score %.1f%% [%.1f%%, %.1f%%] (Wilson 95%%)\n"
                          "  Elo %s [%s, %s]; pairs %d, pentanomial [%d %d %d %d %d], pair-based Elo [%s, %s]\n"
                          "  LOS %.1f%%; unique games %d; black won %d, white won %d\n",
                          p["first"].get<std::string>(), p["second"].get<std::string>(), p["wins"].get<int64_t>(),
                          p["losses"].get<int64_t>(), p["draws"].get<int64_t>(), 100 * p["score"].get<double>(),
                          100 * ci[0].get<double>(), 100 * ci[1].get<double>(), fmt_elo(p["elo"], p["score"]), fmt_elo(eci[0], ci[0]),
                          fmt_elo(eci[1], ci[1]), p["pairs"].get<int64_t>(), penta[0].get<int64_t>(), penta[1].get<int64_t>(),
                          penta[2].get<int64_t>(), penta[3].get<int64_t>(), penta[4].get<int64_t>(), fmt_elo(pci[0], p["pair_score_ci95"][0]),
                          fmt_elo(pci[1], p["pair_score_ci95"][1]), 100 * p["los"].get<double>(), p["unique_games"].get<int64_t>(),
                          p["colour"]["black_wins"].get<int64_t>(), p["colour"]["white_wins"].get<int64_t>());
  }
  if (r.contains("ratings")) {
    out += "\njoint ratings (" + r["ratings_model"].get<std::string>() + "):\n";
    for (const auto& e : r["ratings"]) {
      absl::StrAppendFormat(&out, "  %s %+7.1f\n", pad_right(e["name"].get<std::string>(), 16), e["elo"].get<double>());
    }
  }
  if (r.contains("sprt")) {
    const auto& s = r["sprt"];
    // "continue" only while games are left to play: after the last scheduled game the test
    // ended undecided.
    std::string decision = s["decision"].get<std::string>();
    if (decision == "continue" && r.value("games_left", int64_t{-1}) == 0) {
      decision = "undecided: every scheduled game was played without reaching a bound";
    } else if (decision == "continue") {
      decision = "continue (undecided so far)";
    }
    absl::StrAppendFormat(&out, "\nSPRT (%s Elo, per %s) elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f [%.3f, %.3f] -> %s\n",
                          s["elo_model"].get<std::string>(), s["per"].get<std::string>(), s["elo0"].get<double>(),
                          s["elo1"].get<double>(), s["alpha"].get<double>(), s["beta"].get<double>(),
                          s["llr"].get<double>(), s["lower"].get<double>(), s["upper"].get<double>(), decision);
  }
  const auto& d = r["score_disagreements"];
  if (!d.empty()) {
    absl::StrAppendFormat(&out, "\nfinal_score disagreements: %d\n", d.size());
    for (const auto& x : d) {
      absl::StrAppendFormat(&out, "  game %d: %s says %s, referee %s\n", x["game"].get<int64_t>(),
                            x["engine"].get<std::string>(), x["answer"].get<std::string>(),
                            x["result"].get<std::string>());
    }
  }
  return out;
}

std::string write_plots(const std::vector<GameResult>& games, const ReportContext& ctx, const std::string& out_dir) {
  if (ctx.pairings.empty()) return "plots: no pairings";
  const Pairing p = ctx.pairings[0];
  const std::string data = out_dir + "/progress.dat";
  {
    std::ofstream f(data);
    f << "# games elo elo_lo elo_hi llr (pairing " << ctx.names[p.first] << " vs " << ctx.names[p.second]
      << "; Elo clamped to +-800 where infinite)\n";
    std::vector<GameResult> prefix;
    for (const GameResult* g : sorted_pairing(games, 0)) {
      if (!g->counted()) continue;
      prefix.push_back(*g);
      const PairingCounts c = count_pairing(prefix, 0, p);
      const Interval ci = wilson_interval(c.wdl);
      auto clamp = [](std::optional<double> x, double inf) { return x ? std::clamp(*x, -800.0, 800.0) : inf; };
      const double s = c.wdl.score();
      const double elo = clamp(elo_from_score(s), s >= 1 ? 800 : -800);
      f << c.wdl.games() << ' ' << elo << ' ' << clamp(elo_from_score(ci.lo), -800) << ' '
        << clamp(elo_from_score(ci.hi), 800) << ' ' << (ctx.sprt ? sprt_state(c, *ctx.sprt).llr : 0.0) << '\n';
    }
  }
  const std::string elo_title = "Elo of " + ctx.names[p.first] + " vs " + ctx.names[p.second] + " (95% Wilson interval)";
  std::string script = "set terminal svg size 800,500 dynamic background '#ffffff'\n"
                       "set key top right\nset grid\nset xlabel 'games'\n"
                       "set output " + gnuplot_quote(out_dir + "/elo.svg") + "\n"
                       "set title " + gnuplot_quote(elo_title) + " noenhanced\n"
                       "set ylabel 'Elo'\n"
                       "plot " + gnuplot_quote(data) + " using 1:3:4 with filledcurves fs transparent solid 0.25 lc rgb "
                       "'#4477aa' title '95% interval', '' using 1:2 with lines lw 2 lc rgb '#224488' title 'Elo', "
                       "0 with lines lc rgb '#888888' notitle\n";
  if (ctx.sprt) {
    const std::string llr_title = absl::StrFormat("SPRT (%s Elo) elo0=%g elo1=%g: LLR per %s", ctx.sprt->model(),
                                                  ctx.sprt->elo0, ctx.sprt->elo1, ctx.sprt->per_pair ? "pair" : "game");
    script += "set output " + gnuplot_quote(out_dir + "/llr.svg") + "\n" +
              "set title " + gnuplot_quote(llr_title) + " noenhanced\n" +
              "set ylabel 'LLR'\n" +
              "plot " + gnuplot_quote(data) + " using 1:5 with lines lw 2 lc rgb '#224488' title 'LLR', " +
              absl::StrFormat("%.17g", ctx.sprt->upper()) + " with lines lc rgb '#228833' title 'accept H1', " +
              absl::StrFormat("%.17g", ctx.sprt->lower()) + " with lines lc rgb '#cc3311' title 'accept H0'\n";
  }
  if (const std::string problem = run_gnuplot(out_dir + "/plots.gp", script); !problem.empty()) {
    return "plots: " + problem + ", skipped (data in " + data + ")";
  }
  return "plots: " + out_dir + "/elo.svg" + (ctx.sprt ? ", " + out_dir + "/llr.svg" : std::string());
}

}  // namespace hane
