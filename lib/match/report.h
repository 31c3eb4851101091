// The report of a match: per-engine and per-pairing statistics, SPRT, joint ratings,
// provenance; as JSON (the --json report) and as text; and plots drawn by gnuplot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "match/result.h"
#include "match/schedule.h"
#include "match/stats.h"
#include "nlohmann/json.hpp"

namespace hane {

/// What the report needs besides the games.
struct ReportContext {
  std::vector<std::string> names;         // engine names, by index
  std::vector<std::string> gtp_names;     // their `name` answers
  std::vector<std::string> gtp_versions;  // their `version` answers
  std::vector<std::string> specs;
  std::vector<Pairing> pairings;
  std::optional<SprtParams> sprt;
  int64_t games_scheduled = 0;
  nlohmann::json provenance;  // copied as is
};

/// Win/draw/loss of pairing `q`'s first engine and its pentanomial pair counts (pairs with
/// both games counted), from the games in `games` (any order).
struct PairingCounts {
  Wdl wdl;
  Pentanomial penta;
};
PairingCounts count_pairing(const std::vector<GameResult>& games, int pairing, const Pairing& p);

/// The SPRT state of a two-engine match: the LLR (per pair or per game, as the params say)
/// and "H1" (accept elo1: the first engine is stronger), "H0" or "continue".
struct SprtState {
  double llr = 0;
  std::string decision = "continue";
};
SprtState sprt_state(const PairingCounts& counts, const SprtParams& params);

/// The report as JSON. Keys: games (counted), void_games, draws, games_scheduled,
/// engines[{name, gtp_name, version, spec, games, wins, losses, draws, forfeits,
/// wins_as_black, wins_as_white, games_as_black, games_as_white, forfeit_reasons, time}],
/// pairings[{first, second, games, wins, losses, draws, score, score_ci95, elo, elo_ci95,
/// los, pentanomial, pairs, pair_score_ci95, pair_elo_ci95, unique_games,
/// colour: {black_wins, white_wins}}], ratings (Bradley-Terry, more than two engines),
/// score_disagreements[{game, engine, answer, result}], and for two engines the first
/// engine's score, score_ci95, elo, elo_ci95 at the top level; sprt{llr, lower, upper,
/// decision, elo0, elo1, alpha, beta, elo_model, per} when asked; provenance. Elo values are
/// logistic; an Elo at a score of 0 or 1 is null, and so is an infinite interval bound.
/// An engine's time (null before its first move) is the wall seconds of the moves it
/// generated (the opening's moves left out) over every game played, void ones too: moves,
/// median_s, mean_s, longest_s, and game_median_s (the median over games of its seconds a game).
nlohmann::json match_report_json(const std::vector<GameResult>& games, const ReportContext& context);

/// A readable rendering of match_report_json.
std::string match_report_text(const nlohmann::json& report);

/// Writes <out_dir>/progress.dat (games, elo, lo, hi, llr after each counted game of
/// pairing 0, in schedule order) and, when gnuplot is on PATH, elo.svg (the Elo estimate
/// with its 95% interval against games) and llr.svg (the LLR against its bounds, with
/// --sprt). Returns a line saying what was written or why plots were skipped.
std::string write_plots(const std::vector<GameResult>& games, const ReportContext& context,
                        const std::string& out_dir);

}  // namespace hane
