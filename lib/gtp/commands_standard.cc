// The GTP version 2 standard commands (https://www.lysator.liu.se/~gunnar/gtp/, section 6):
// administration, setup, play, handicap, scoring, clocks, loadsgf.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtp/board_text.h"
#include "gtp/command_text.h"
#include "gtp/engine.h"
#include "sgf/record.h"

namespace hane::gtp {
namespace {

std::string color_word(Color c) { return c == Color::kBlack ? "black" : "white"; }

// One line per chain whose stones have `status`.
std::string chains_text(const Board& board, const std::vector<PointStatus>& statuses, PointStatus status) {
  std::vector<Vertex> heads;
  std::string out;
  for (int i = 0; i < board.size() * board.size(); ++i) {
    const Vertex v = board.at(i % board.size(), i / board.size());
    if (!board.is_stone(v) || static_cast<size_t>(v.index()) >= statuses.size() ||
        statuses[static_cast<size_t>(v.index())] != status) {
      continue;
    }
    const Vertex head = board.chain_head(v);
    if (std::find(heads.begin(), heads.end(), head) != heads.end()) continue;
    heads.push_back(head);
    std::string line;
    Vertex s = v;
    do {
      if (!line.empty()) line += ' ';
      line += to_gtp(s, board.size());
      s = board.next_in_chain(s);
    } while (s != v);
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string Engine::status_list(PointStatus status) {
  return chains_text(game_.board(), player_->estimate_end(game_).status, status);
}

void Engine::register_standard_commands() {
  add("protocol_version", [](Call& c) { c.args.done(); c.text = "2"; });
  add("name", [this](Call& c) { c.args.done(); c.text = config_.name; });
  add("version", [this](Call& c) { c.args.done(); c.text = config_.version; });
  add("known_command", [this](Call& c) {
    const std::string name = c.args.word();
    c.args.done();
    c.text = index_.contains(name) ? "true" : "false";
  });
  add("list_commands", [this](Call& c) {
    c.args.done();
    for (const auto& [name, handler] : commands_) c.text += name + "\n";
  });
  add("quit", [](Call& c) { c.args.done(); });
  add("boardsize", [this](Call& c) {
    const int size = c.args.integer(Geometry::kMinSize, Geometry::kMaxSize, "unacceptable size");
    c.args.done();
    new_game(size);
  });
  add("clear_board", [this](Call& c) {
    c.args.done();
    new_game(game_.size());
  });
  add("komi", [this](Call& c) {
    const double k = c.args.number();
    c.args.done();
    komi_ = k;
    rebuild();
  });
  add("play", [this](Call& c) {
    const Move m = c.args.move();
    c.args.done();
    if (!play(m.color, m.vertex)) throw GtpError("illegal move");
  });
  add("genmove", [this](Call& c) { c.text = genmove(c, false, true); });
  add("reg_genmove", [this](Call& c) { c.text = genmove(c, false, false); });
  add("undo", [this](Call& c) {
    c.args.done();
    if (game_.moves().empty()) throw GtpError("cannot undo");
    game_.undo();
    events_.pop_back();
  });
  add("showboard", [this](Call& c) {
    c.args.done();
    DrawOptions draw;
    if (!game_.moves().empty()) draw.last_move = game_.moves().back().vertex;
    c.text = "\n" + draw_board(game_.board(), draw) + "\n" + color_word(game_.to_move()) + " to play, komi " +
             format_number(komi_, 1) + ", " + rules_.name + " rules, captures black " +
             std::to_string(game_.board().prisoners(Color::kBlack)) + " white " +
             std::to_string(game_.board().prisoners(Color::kWhite)) + ", move " +
             std::to_string(game_.moves().size() + 1);
  });
  add("fixed_handicap", [this](Call& c) {
    const int n = c.args.integer(0, 1 << 30, "invalid number of stones");
    c.args.done();
    if (game_.board().num_stones() > 0 || !game_.moves().empty()) throw GtpError("board not empty");
    const std::vector<Vertex> stones = fixed_handicap(game_.size(), n);
    if (stones.empty()) throw GtpError("invalid number of stones");
    for (const Vertex v : stones) {
      place_setup(Color::kBlack, v);
      c.text += (c.text.empty() ? "" : " ") + to_gtp(v, game_.size());
    }
    game_.set_to_move(Color::kWhite);
    rebuild();  // komi with the handicap's points
  });
  add("place_free_handicap", [this](Call& c) {
    const int points = game_.size() * game_.size();
    const int n = c.args.integer(0, 1 << 30, "invalid number of stones");
    c.args.done();
    if (n < 2 || n >= points) throw GtpError("invalid number of stones");
    if (game_.board().num_stones() > 0 || !game_.moves().empty()) throw GtpError("board not empty");
    // The fixed layout as far as it goes, then points the move generator picks for Black.
    std::vector<Vertex> stones = fixed_handicap(game_.size(), std::min(n, max_fixed_handicap(game_.size())));
    for (const Vertex v : stones) place_setup(Color::kBlack, v);
    while (static_cast<int>(stones.size()) < n) {
      Vertex v = player_->genmove(game_, request_for(Color::kBlack)).move;
      if (!v.is_point() || !game_.board().is_empty(v) || game_.legal(v, Color::kBlack) != Legality::kLegal) {
        // The generator declined: the first empty point that is legal.
        v = Vertex::none();
        for (int i = 0; i < points && v.is_none(); ++i) {
          const Vertex p = game_.board().at(i % game_.size(), i / game_.size());
          if (game_.board().is_empty(p) && game_.legal(p, Color::kBlack) == Legality::kLegal) v = p;
        }
        if (v.is_none()) break;
      }
      place_setup(Color::kBlack, v);
      stones.push_back(v);
    }
    for (const Vertex v : stones) c.text += (c.text.empty() ? "" : " ") + to_gtp(v, game_.size());
    game_.set_to_move(Color::kWhite);
    rebuild();  // komi with the handicap's points
  });
  add("set_free_handicap", [this](Call& c) {
    std::vector<Vertex> stones;
    while (!c.args.empty()) {
      const auto v = from_gtp(c.args.word(), game_.size());
      if (!v || v->is_pass() || std::find(stones.begin(), stones.end(), *v) != stones.end()) {
        throw GtpError("bad vertex list");
      }
      stones.push_back(*v);
    }
    if (stones.size() < 2 || static_cast<int>(stones.size()) >= game_.size() * game_.size()) {
      throw GtpError("bad vertex list");
    }
    if (game_.board().num_stones() > 0 || !game_.moves().empty()) throw GtpError("board not empty");
    for (const Vertex v : stones) place_setup(Color::kBlack, v);
    game_.set_to_move(Color::kWhite);
    rebuild();  // komi with the handicap's points
  });
  add("final_score", [this](Call& c) {
    c.args.done();
    const EndEstimate end = player_->estimate_end(game_);
    c.text = result_text(rules_.scoring == Scoring::kArea ? end.area_margin : end.territory_margin);
  });
  add("final_status_list", [this](Call& c) {
    const std::string which = lower(c.args.word());
    c.args.done();
    if (which != "alive" && which != "dead" && which != "seki") throw GtpError("syntax error");
    c.text = status_list(which == "alive" ? PointStatus::kAlive : which == "dead" ? PointStatus::kDead : PointStatus::kSeki);
  });
  add("time_settings", [this](Call& c) {
    const int main = c.args.integer(0, 1 << 30);
    const int byo = c.args.integer(0, 1 << 30);
    const int stones = c.args.integer(0, 1 << 30);
    c.args.done();
    TimeSettings t;
    if (byo > 0 && stones == 0) {
      t.kind = TimeSettings::Kind::kNone;  // spec 4.2: no time limit
    } else if (byo == 0) {
      t.kind = main > 0 ? TimeSettings::Kind::kAbsolute : TimeSettings::Kind::kNone;
    } else {
      t.kind = TimeSettings::Kind::kCanadian;
    }
    t.main_time = main;
    t.byo_yomi_time = byo;
    t.byo_yomi_stones = stones;
    time_ = t;
    set_clocks();
  });
  add("time_left", [this](Call& c) {
    const Color color = c.args.color();
    const int seconds = c.args.integer(0, 1 << 30);
    const int stones = c.args.integer(0, 1 << 30);
    c.args.done();
    clocks_[static_cast<int>(color)].time_left(seconds, stones);
  });
  add("loadsgf", [this](Call& c) {
    const std::string path = c.args.word();
    const int move_number = c.args.empty() ? -1 : c.args.integer(1, 1 << 30);
    c.args.done();
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    std::error_code ec;
    auto record = std::filesystem::is_directory(path, ec) ? absl::InvalidArgumentError("a folder, not an SGF file")
                  : file                                  ? read_game(text.str())
                                                          : absl::NotFoundError("cannot open");
    if (!record.ok()) {
      log("gtp: loadsgf " + path + ": " + std::string(record.status().message()));
      throw GtpError("cannot load file");
    }
    // Build the new game aside, so that a bad file leaves the current one as it was.
    const Game saved_game = game_;
    const std::vector<Event> saved_events = events_;
    const double saved_komi = komi_;
    komi_ = record->komi;
    game_ = Game(record->board_size, Rules{rules_.allow_suicide, rules_.superko, komi_});
    events_.clear();
    for (const Vertex v : record->setup.black) place_setup(Color::kBlack, v);
    for (const Vertex v : record->setup.white) place_setup(Color::kWhite, v);
    for (const Vertex v : record->setup.empty_points) place_setup(Color::kEmpty, v);
    game_.set_to_move(record->to_play);
    auto refuse = [&](const std::string& why) {
      log("gtp: loadsgf " + path + ": " + why);
      game_ = saved_game;
      events_ = saved_events;
      komi_ = saved_komi;
      throw GtpError("cannot load file");
    };
    // Setup stones (AB, AW, AE) are placed without captures: a chain left without liberties is
    // no position (the corpus reader refuses it too).
    auto check_setup = [&] {
      const Vertex dead = chain_without_liberties(game_.board());
      if (!dead.is_none()) refuse("setup leaves a chain without liberties at " + to_gtp(dead, game_.size()));
    };
    check_setup();
    int number = 1;
    bool setup_changed = false;
    for (const GameEvent& e : record->events) {
      if (e.type != GameEvent::Type::kSetup && setup_changed) check_setup(), setup_changed = false;
      if (e.type == GameEvent::Type::kMove) {
        if (number == move_number) break;
        if (!play(e.color, e.vertex)) {
          refuse("move " + std::to_string(number) + " (" + to_gtp(e.vertex, game_.size()) + ") is illegal");
        }
        ++number;
      } else if (e.type == GameEvent::Type::kSetup) {
        place_setup(e.color, e.vertex);
        setup_changed = true;
      } else {
        game_.set_to_move(e.color);
      }
    }
    if (setup_changed) check_setup();
    rebuild();  // komi with a handicap's points
    set_clocks();
    player_->new_game();
  });
}

}  // namespace hane::gtp
