// hane play: a game against the engine in a terminal. The board is drawn after every move;
// the player types moves (D4), pass, undo, resign, hint or quit; each engine move comes with a
// line of why. At the end the game is scored (dead stones drawn in lower case) and saved as SGF.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "features/influence.h"
#include "go/area.h"
#include "go/game.h"
#include "go/vertex.h"
#include "gtp/board_text.h"
#include "gtp/engine.h"
#include "gtp/search_player.h"
#include "sgf/record.h"
#include "sgf/writer.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/engine_options.h"
#include "tools/version.h"
#include "util/files.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

// The user's lines, read from standard input without blocking past a Ctrl-C: the wait is a
// poll() of 100 ms at a time that looks at interrupted() between polls. A blocking read would
// miss a Ctrl-C that comes after the check and before the read, and wait for a line that never
// comes (a Ctrl-C during the read ends it with EINTR, but not one just before it).
class LineReader {
 public:
  /// The next line without its newline (a last line without one counts); false at the end of
  /// the input, on a read error, or once interrupted() is true.
  bool next(std::string& line) {
    for (;;) {
      const size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return true;
      }
      if (eof_) {
        if (buffer_.empty()) return false;
        line = std::move(buffer_);
        buffer_.clear();
        return true;
      }
      if (interrupted()) return false;
      pollfd p{STDIN_FILENO, POLLIN, 0};
      const int ready = ::poll(&p, 1, 100);
      if (ready < 0 && errno != EINTR) return false;
      if (ready <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  std::string buffer_;
  bool eof_ = false;
};

struct PlayOptions {
  int size = 9;
  double komi = 7.5;
  std::string color = "black";
  int handicap = 0;
  std::string sgf_path;
  bool explain_model = false;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// One line of why for `move` in a player's words: the guesser's rank of it, then the search's
// visits and win rate; with `model_words`, the guesser's own account first.
std::string why(gtp::MoveGenerator& player, const Game& before, Color color, const SearchResult& r, bool model_words) {
  std::string line;
  const std::string explained = player.explain(before, color, r.move, model_words);
  if (!explained.empty()) line = explained + ", ";
  int64_t visits = 0;
  for (const MoveStats& m : r.children) {
    if (m.move == r.move) visits = m.visits;
  }
  line += with_thousands(visits) + " visits, " + std::to_string(std::lround(100 * r.winrate)) + "% win";
  return line;
}

void draw(const Game& game, std::span<const Vertex> dead = {}) {
  gtp::DrawOptions d;
  if (!game.moves().empty()) d.last_move = game.moves().back().vertex;
  d.dead = dead;
  std::cout << "\n" << gtp::draw_board(game.board(), d) << "\n";
  std::cout << "captures: black " << game.board().prisoners(Color::kBlack) << ", white "
            << game.board().prisoners(Color::kWhite) << "; komi " << game.rules().komi << "\n";
}

std::string default_sgf_path() {
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof name, "hane-%Y%m%d-%H%M%S.sgf", std::localtime(&now));
  return name;
}

// PATH with "-K" before its extension: game.sgf -> game-2.sgf.
std::string numbered(const std::string& path, int k) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-" + std::to_string(k) + p.extension().string())).string();
}

// `path`, or the first of PATH-2, PATH-3... that does not exist (two games saved in one second).
std::string free_sgf_path(const std::string& path) {
  std::error_code ec;
  std::string out = path;
  for (int k = 2; std::filesystem::exists(out, ec) && k < 1000; ++k) out = numbered(path, k);
  return out;
}

int run_play(const PlayOptions& o, const EngineFlags& flags) {
  const Color human = lower(o.color).starts_with("w") ? Color::kWhite : Color::kBlack;
  if (o.handicap == 1 || (o.handicap > 1 && gtp::fixed_handicap(o.size, o.handicap).empty())) {
    throw UsageError("--handicap " + std::to_string(o.handicap) + ": no fixed handicap of that many stones on " +
                     std::to_string(o.size) + "x" + std::to_string(o.size) + " (0 for none, else 2 up to 9 on odd sizes from 7x7)");
  }
  if (!std::isfinite(o.komi)) throw UsageError("--komi: not a number of points");
  // Where the game goes, checked before the first move: never over a file that exists (as
  // GoGui asks before a save replaces one, and a terminal cannot ask in the middle of the moves).
  std::string path = o.sgf_path.empty() ? default_sgf_path() : o.sgf_path;
  std::error_code ec;
  if (!o.sgf_path.empty() && std::filesystem::exists(path, ec)) {
    throw UsageError("--sgf " + path + ": the file exists; hane play never writes over a file: name a new one");
  }
  if (o.sgf_path.empty()) path = free_sgf_path(path);
  if (const std::string problem = output_problem(path); !problem.empty()) throw UsageError("--sgf: " + problem);
  auto made = make_player(flags, &std::cerr);
  if (!made.ok()) throw std::runtime_error(std::string(made.status().message()));
  std::unique_ptr<gtp::SearchPlayer> player = std::move(*made);
  if (!flags.quiet) std::cerr << "hane play: " << player->name() << std::endl;

  Game game(o.size, Rules{false, Superko::kPositional, o.komi});
  GameRecord record;
  record.board_size = o.size;
  record.komi = o.komi;
  record.rules = "Chinese";
  record.application = std::string("hane:") + kVersion;
  (human == Color::kBlack ? record.black_name : record.white_name) = "you";
  (human == Color::kBlack ? record.white_name : record.black_name) = "hane";
  if (o.handicap > 0) {
    const std::vector<Vertex> stones = gtp::fixed_handicap(o.size, o.handicap);
    for (const Vertex v : stones) game.set_stone(v, Color::kBlack);
    game.set_to_move(Color::kWhite);
    record.handicap = o.handicap;
    record.setup.black = stones;
    record.to_play = Color::kWhite;
  }
  std::cout << "You play " << (human == Color::kBlack ? "black (X)" : "white (O)")
            << ". Type a move (D4), pass, undo, resign, hint or quit.\n";

  // Ctrl-C saves the game so far: it ends the wait for a line (LineReader) and is seen after
  // the engine's move.
  InterruptScope scope("saving the game so far");
  LineReader input;
  std::string result;
  bool counted = false;
  // The board is drawn whenever it changed since it was last drawn.
  uint64_t drawn_hash = 0;
  size_t drawn_moves = SIZE_MAX;
  const auto redraw = [&] {
    if (game.board().hash() == drawn_hash && game.moves().size() == drawn_moves) return;
    draw(game);
    drawn_hash = game.board().hash();
    drawn_moves = game.moves().size();
  };
  while (!interrupted()) {
    if (game.consecutive_passes() >= 2) {
      counted = true;
      break;
    }
    const Color to_move = game.to_move();
    if (to_move != human) {
      const Game before = game;
      gtp::Request request;
      request.color = to_move;
      const SearchResult r = player->genmove(game, request);
      if (r.resign) {
        std::cout << "hane resigns.\n";
        result = std::string(human == Color::kBlack ? "B" : "W") + "+R";
        break;
      }
      game.play(r.move, to_move);
      redraw();
      // The move's strategic meaning from the maps of the position before it, then the why;
      // after it, the quick score estimate (features/influence.h, search/score_estimate.h).
      const std::string plan =
          r.move.is_point() ? strategic_words(before.board(), player->estimate_score(before, false).maps, r.move, to_move) : "";
      std::cout << "hane plays " << to_gtp(r.move, o.size) << ": " << (plan.empty() ? "" : plan + "; ")
                << why(*player, before, to_move, r, o.explain_model) << "\n";
      std::cout << "Score estimate: " << gtp::result_text(player->estimate_score(game, false).margin) << "\n";
      continue;
    }
    redraw();
    std::cout << (human == Color::kBlack ? "Black" : "White") << " to play> " << std::flush;
    std::string line;
    if (!input.next(line)) {
      std::cout << "\n";
      if (!interrupted()) result = "Void";
      break;
    }
    const std::string text = lower(trim(line));
    if (text.empty()) continue;
    if (text == "quit" || text == "exit") {
      result = "Void";
      break;
    }
    if (text == "resign") {
      result = std::string(human == Color::kBlack ? "W" : "B") + "+R";
      std::cout << "You resign.\n";
      break;
    }
    if (text == "undo") {
      // The last full turn: back to before the player's previous move (none yet: nothing, and
      // the engine's first move stays).
      bool undone = false;
      const bool any = std::any_of(game.moves().begin(), game.moves().end(), [&](const Move& m) { return m.color == human; });
      while (any && !game.moves().empty()) {
        const Color c = game.moves().back().color;
        game.undo();
        if (c == human) {
          undone = true;
          break;
        }
      }
      std::cout << (undone ? "Taken back." : "Nothing to take back.") << "\n";
      if (undone) player->new_game();
      continue;
    }
    if (text == "hint") {
      gtp::Request request;
      request.color = human;
      const SearchResult r = player->genmove(game, request);
      std::cout << "hint: " << (r.resign ? std::string("resign") : to_gtp(r.move, o.size)) << ": "
                << why(*player, game, human, r, o.explain_model) << "\n";
      continue;
    }
    const auto v = from_gtp(text, o.size);
    if (!v) {
      std::cout << "'" << trim(line) << "' is not a move here: type a point such as D4 (columns A-"
                << static_cast<char>("ABCDEFGHJKLMNOPQRSTUVWXYZ"[o.size - 1])
                << ", no I; rows 1-" << o.size << "), pass, undo, resign, hint or quit.\n";
      continue;
    }
    const Legality l = game.play(*v, human);
    if (l != Legality::kLegal) std::cout << to_gtp(*v, o.size) << " is illegal (" << legality_name(l) << ").\n";
  }

  std::vector<Vertex> dead;
  if (counted) {
    const EndEstimate end = player->estimate_end(game);
    for (int y = 0; y < o.size; ++y) {
      for (int x = 0; x < o.size; ++x) {
        const Vertex v = game.board().at(x, y);
        if (end.status[static_cast<size_t>(v.index())] == PointStatus::kDead) dead.push_back(v);
      }
    }
    result = gtp::result_text(end.area_margin);
    draw(game, dead);
    std::cout << "Both passed. Dead stones (lower case):";
    for (const Vertex v : dead) std::cout << " " << to_gtp(v, o.size);
    if (dead.empty()) std::cout << " none";
    std::cout << "\nResult (area counting, komi " << o.komi << "): " << result << "\n";
  } else if (interrupted()) {
    result = "";
  } else if (result != "Void") {
    std::cout << "Result: " << result << "\n";
  }
  record.result = result == "Void" ? "" : result == "0" ? "0" : result;
  for (const Move& m : game.moves()) record.events.push_back(GameEvent::move(m.color, m.vertex));
  // A counted game keeps what its result is based on: each side's area, the dead stones in it
  // (TB / TW in the last node, as SGF viewers show territory).
  SgfAnnotations notes;
  if (counted) {
    const AreaPoints area = area_points(game.board(), dead);
    SgfProperties props;
    for (const auto& [id, points] : {std::pair{"TB", &area.black}, {"TW", &area.white}}) {
      std::vector<std::string> values;
      for (const Vertex v : *points) values.push_back(to_sgf(v, o.size));
      props.emplace_back(id, std::move(values));
    }
    if (game.moves().empty()) notes.root = props;
    else notes.moves.resize(game.moves().size()), notes.moves.back() = props;
  }
  // A file made under that name during the game is not written over: the game goes to a new
  // name, said on the screen.
  const std::string text = write_sgf(record, notes);
  std::string saved = path;
  for (int k = 2;; ++k) {
    const absl::Status s = write_new_file(saved, text);
    if (s.ok()) break;
    if (!absl::IsAlreadyExists(s) || k > 1000) throw std::runtime_error(std::string(s.message()));
    saved = numbered(path, k);
  }
  if (saved != path) std::cout << path << " was made during the game and is left as it is.\n";
  std::cout << (interrupted() ? "Saved the game so far (no result) to " : "Saved the game to ") << saved << std::endl;
  return interrupted() ? kExitInterrupted : kExitOk;
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto options = std::make_shared<PlayOptions>();
  auto flags = std::make_shared<EngineFlags>();
  CLI::App* cmd = app.add_subcommand("play", "Play a game against the engine in this terminal; saves it as SGF at the end.");
  cmd->add_option("--size", options->size, "Board size")->check(CLI::Range(2, 25))->capture_default_str();
  cmd->add_option("--komi", options->komi, "Komi")->capture_default_str();
  cmd->add_option("--color", options->color, "Your colour: black or white")
      ->check(CLI::IsMember({"black", "white", "b", "w"}, CLI::ignore_case))
      ->capture_default_str();
  cmd->add_option("--handicap", options->handicap, "Fixed handicap stones for Black (GTP placement)")
      ->check(CLI::Range(0, 9))
      ->capture_default_str();
  cmd->add_option("--sgf", options->sgf_path,
                  "Where to save the game: a new file (one that exists is refused; default hane-DATE-TIME.sgf here)");
  cmd->add_flag("--explain-model", options->explain_model,
                "After each engine move, also the guesser's own account of it (its pattern, features or the tree's questions)");
  add_engine_options(cmd, *flags);
  cmd->callback([options, flags] {
    if (run_play(*options, *flags) != kExitOk) throw CLI::RuntimeError(kExitInterrupted);
  });
}

}  // namespace hane::tools
