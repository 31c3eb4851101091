// The GTP engine: one command table with typed arguments (args.h), the game state (board size,
// komi, rules, moves, handicap, clocks), and the protocol loop with a reader thread, so that
// live analysis streams until the next line arrives and `# interrupt` (GoGui) stops a search.
//
// Commands, one file per family, listed by list_commands in this order: the GTP 2 standard
// set (protocol_version, name, version, known_command, list_commands, quit, boardsize,
// clear_board, komi, play, genmove, reg_genmove, undo, showboard, fixed_handicap,
// place_free_handicap, set_free_handicap, final_score, final_status_list, time_settings,
// time_left, loadsgf), KGS's (kgs-genmove_cleanup, kgs-time_settings, kgs-rules), GNU Go's
// estimate_score, GoGui's (cputime, gogui-interrupt, gogui-analyze_commands and the hane-* heat
// maps, influence and classes it lists), and the
// live analysis of Leela Zero and KataGo read by Sabaki and Lizzie (lz-analyze, kata-analyze,
// lz-genmove_analyze, kata-genmove_analyze).
//
// Every failure is a GTP error with the standard text ("unknown command", "syntax error",
// "illegal move", "invalid coordinate", "invalid color", "unacceptable size", "cannot undo",
// "board not empty", "invalid number of stones", "bad vertex list", "cannot load file");
// nothing but responses is written to the output; diagnostics go to the log.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "go/game.h"
#include "gtp/args.h"
#include "gtp/player.h"
#include "gtp/protocol.h"
#include "search/time_control.h"

namespace hane::gtp {

struct EngineConfig {
  std::string name = "hane";
  std::string version = "0";
  int board_size = 19;
  double komi = 7.5;
  /// Where diagnostics go (stderr in `hane gtp`); nullptr for none.
  std::ostream* log = nullptr;
  /// One line on `log` after each genmove: the move, its win rate, the score estimate, the
  /// playouts and time (with the clock's desired and worst time) and the principal variation
  /// (`hane match` keeps engines' stderr per game, so a game can be replayed to where its win
  /// rate turned).
  bool move_log = false;
};

/// How points are counted at the end: area (Chinese, AGA, New Zealand, Tromp-Taylor: stones
/// plus surrounded points) or territory (Japanese: surrounded points plus prisoners).
enum class Scoring { kArea, kTerritory };

/// GTP final_score text of a margin (Black - White - komi, points): "B+3.5", "W+0.5", or "0".
std::string result_text(double margin);

/// A rule set as kgs-rules names it: the Game rules and the counting.
struct RuleSet {
  std::string name;  // "chinese", "japanese", "aga", "new_zealand", "tromp-taylor"
  Superko superko = Superko::kPositional;
  bool allow_suicide = false;
  Scoring scoring = Scoring::kArea;
};
/// The rule set of a kgs-rules name (any case); nullptr if unknown.
const RuleSet* find_rule_set(std::string_view name);

class Engine {
 public:
  Engine(std::unique_ptr<MoveGenerator> player, EngineConfig config = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Runs the protocol: reads lines from `in` on a reader thread, answers on `out` (flushed
  /// after every response), until `quit` or the end of `in`. Returns 0.
  int run(std::istream& in, std::ostream& out);

  /// Executes one received line and writes its response to `out` (nothing for an empty or
  /// comment line). Analysis commands stop after their first report, as if the next line were
  /// already waiting. Returns false after `quit`.
  bool execute(std::string_view line, std::ostream& out);

  /// The command names, in list_commands order.
  std::vector<std::string> command_names() const;

  const Game& game() const { return game_; }
  const RuleSet& rules() const { return rules_; }
  double komi() const { return komi_; }

 private:
  struct Call {
    const CommandLine& line;
    Args args;
    std::ostream& out;
    std::string text;       // the response text, unless streamed
    bool streamed = false;  // the handler wrote the whole response itself
  };
  using Handler = std::function<void(Call&)>;

  void add(std::string name, Handler handler);
  // The command table, filled family by family in this order (the list_commands order), each
  // family in a file of its own.
  void register_commands();
  void register_standard_commands();  // commands_standard.cc: the GTP 2 standard set
  void register_kgs_commands();       // commands_kgs.cc
  void register_score_commands();     // commands_score.cc: estimate_score (GNU Go's)
  void register_gogui_commands();     // commands_gogui.cc: cputime, gogui-*, hane-* heat maps
  void register_analysis_commands();  // commands_analysis.cc: lz-/kata-analyze and *-genmove_analyze
  void log(const std::string& text) const;
  void log_move(Color c, Vertex v, const SearchResult& result) const;

  // Game state.
  void new_game(int size);
  void rebuild();  // the game again under rules_ / komi_, replaying events_
  void set_clocks();  // both clocks to time_
  void place_setup(Color c, Vertex v);
  bool play(Color c, Vertex v);
  std::string genmove(Call& call, bool cleanup, bool commit);
  Request request_for(Color c) const;

  // Analysis (commands_analysis.cc).
  struct AnalyzeOptions {
    Color color;
    double interval = 1.0;  // seconds
    int min_moves = 0, max_moves = 1 << 30;
    bool ownership = false;
  };
  AnalyzeOptions parse_analyze_args(Args& args, bool genmove) const;
  std::string info_line(const SearchResult& r, const AnalyzeOptions& o, bool kata,
                        const std::vector<float>& ownership) const;
  void analyze(Call& call, bool kata);
  void genmove_analyze(Call& call, bool kata);
  void start_stream(Call& call);

  /// Stones of the chains with `status` in the end estimate, one chain per line
  /// (commands_standard.cc).
  std::string status_list(PointStatus status);

  std::unique_ptr<MoveGenerator> player_;
  EngineConfig config_;
  std::vector<std::pair<std::string, Handler>> commands_;
  absl::flat_hash_map<std::string, size_t> index_;

  RuleSet rules_;
  double komi_;
  Game game_;
  struct Event {
    bool setup;
    Color color;
    Vertex vertex;
  };
  std::vector<Event> events_;
  TimeSettings time_;
  TimeControl clocks_[3];  // indexed by Color (black 1, white 2)

  // Input from the reader thread and the stop flags it sets; shared with that thread, which
  // may outlive the engine when it is left blocked on a terminal.
  struct Input {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::string> lines;
    bool eof = false;
    std::atomic<bool> interrupt{false};  // `# interrupt` (GoGui) since the command started
    std::atomic<bool> waiting{false};    // input is waiting: analysis stops
  };
  std::shared_ptr<Input> input_;
  bool live_ = false;  // inside run(): analysis waits for the next line
};

}  // namespace hane::gtp
