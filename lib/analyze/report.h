// What `hane analyze` writes for a game: a copy of the record with the figures in the
// properties Sabaki reads, a JSON file, a win-rate graph (gnuplot) and the final position's
// ownership map (SVG); and the summary over games.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "analyze/analyze.h"
#include "nlohmann/json.hpp"
#include "sgf/record.h"

namespace hane {

/// The game as read (`original`: its SGF text, CorpusGame::text; every property, comment and
/// variation kept, sgf/writer.h: annotate_sgf) with the analysis added to its main line: in
/// the root SBKV (Black's win rate before the first move, percent with two decimals, as Sabaki
/// stores its analysis); in each move's node SBKV after the move, and on a mistake BM[1] and a
/// comment: the win-rate drop, the engine's move and its principal variation, the guesser's
/// rank of the played move; in the last move's node SBKS (the estimated score, Black's lead in
/// points), TB/TW (each side's area: empty points and dead stones) and a comment with the score
/// and the dead stones. Comments are appended to the node's own. Without `original` (or when
/// it does not hold the record's moves) the record is written again (sgf/writer.h: write_sgf).
std::string annotated_sgf(std::string_view original, const GameRecord& record, const GameAnalysis& analysis,
                          double mistake);

/// The analysis as JSON: settings (copied), black, white, result, rules, board_size, komi,
/// black_start (Black's win rate before move 1, 0..1), moves[{number, color, move (GTP),
/// black_before, black_after, drop, mistake, best, best_winrate (the mover's), pv[], visits,
/// guesser_rank, guesser_probability (null for passes)}], final{score, counting, finished (two passes
/// ended the game; else the open points were given by ownership: analyze.h), area_margin,
/// territory_margin, dead[], black_area, white_area, ownership (rows from the top, +1 Black ..
/// -1 White)}, players{B, W: {moves, mistakes, guesser_top1, guesser_mean_probability}}.
nlohmann::json analysis_json(const GameRecord& record, const GameAnalysis& analysis, const nlohmann::json& settings);

/// The final position as an SVG picture: the board with its stones, a square on every point
/// sized and coloured by its ownership, dead stones crossed, and the estimated score as title.
std::string ownership_svg(const GameRecord& record, const GameAnalysis& analysis);

/// The win-rate graph's data (STEM-winrate.dat): rows "move black_winrate_percent mistake"
/// (mistake 1 Black's, 2 White's, 0 none), move 0 the start, after a comment line.
std::string winrate_plot_data(const nlohmann::json& game);

/// The gnuplot script that draws `data` (winrate_plot_data's file) into `svg`: Black's win rate
/// against moves, mistakes marked with the mover's colour, the legend below (util/plot.h runs it).
std::string winrate_plot_script(const nlohmann::json& game, const std::string& data, const std::string& svg);

/// Per player (by name; "Black"/"White" of GAME when unnamed), summed over the games' JSON
/// (analysis_json): games, moves, mistakes, mistakes per 100 moves, guesser_top1 (the share of
/// the player's moves that were the guesser's first choice), guesser_mean_probability.
nlohmann::json players_summary(const std::map<std::string, nlohmann::json>& games);

}  // namespace hane
