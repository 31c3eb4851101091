#include "gtp/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <thread>

#include "go/area.h"
#include "gtp/board_text.h"
#include "sgf/record.h"

namespace hane::gtp {

struct Engine::Input {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> lines;
  bool eof = false;
  std::atomic<bool> interrupt{false};  // `# interrupt` (GoGui) since the command started
  std::atomic<bool> waiting{false};    // input is waiting: analysis stops
};

namespace {

const RuleSet kRuleSets[] = {
    {"chinese", Superko::kPositional, false, Scoring::kArea},
    {"japanese", Superko::kNone, false, Scoring::kTerritory},
    {"aga", Superko::kSituational, false, Scoring::kArea},
    {"new_zealand", Superko::kSituational, true, Scoring::kArea},
    {"tromp-taylor", Superko::kPositional, true, Scoring::kArea},
};

// White's points for Black's handicap stones under the rule set's area counting (go/area.h:
// Chinese one per stone, AGA one fewer), added to komi in the game the search plays and scores.
// The handicap is the setup when it is all Black's (fixed_handicap, place_free_handicap,
// set_free_handicap, or a loaded record's AB).
template <typename Events>
double handicap_points(const RuleSet& rules, const Events& events) {
  int stones = 0;
  for (const auto& e : events) {
    if (!e.setup) continue;
    if (e.color != Color::kBlack) return 0;
    ++stones;
  }
  const HandicapCompensation rule = rules.name == "chinese" ? HandicapCompensation::kPerStone
                                    : rules.name == "aga"   ? HandicapCompensation::kPerStoneButOne
                                                            : HandicapCompensation::kNone;
  return handicap_compensation(rule, stones);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string format_number(double x, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

std::string color_word(Color c) { return c == Color::kBlack ? "black" : "white"; }

// Black's ownership per Vertex::index() as rows from the top left, for `sign` (+1 Black's
// view, -1 White's).
std::vector<float> rows(const Board& board, const std::vector<float>& by_index, float sign) {
  std::vector<float> out;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const size_t i = static_cast<size_t>(board.at(x, y).index());
      out.push_back(i < by_index.size() ? sign * by_index[i] : 0.0f);
    }
  }
  return out;
}


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

std::string result_text(double margin) {
  if (margin == 0) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%c+%g", margin > 0 ? 'B' : 'W', std::abs(margin));
  return text;
}

const RuleSet* find_rule_set(std::string_view name) {
  const std::string n = lower(name);
  for (const RuleSet& r : kRuleSets) {
    if (r.name == n) return &r;
  }
  return nullptr;
}

Engine::Engine(std::unique_ptr<MoveGenerator> player, EngineConfig config)
    : player_(std::move(player)),
      config_(std::move(config)),
      rules_(kRuleSets[0]),
      komi_(config_.komi),
      game_(config_.board_size),
      input_(std::make_shared<Input>()) {
  register_commands();
  new_game(config_.board_size);
}

Engine::~Engine() = default;

void Engine::log(const std::string& text) const {
  if (config_.log) *config_.log << text << std::endl;
}

void Engine::add(std::string name, Handler handler) {
  index_[name] = commands_.size();
  commands_.emplace_back(std::move(name), std::move(handler));
}

std::vector<std::string> Engine::command_names() const {
  std::vector<std::string> names;
  for (const auto& [name, handler] : commands_) names.push_back(name);
  return names;
}

// ---- Game state ------------------------------------------------------------------------------

void Engine::new_game(int size) {
  game_ = Game(size, Rules{rules_.allow_suicide, rules_.superko, komi_});
  events_.clear();
  clocks_[1].set(time_);
  clocks_[2].set(time_);
  player_->new_game();
}

void Engine::rebuild() {
  const double komi = komi_ + handicap_points(rules_, events_);
  Game game(game_.size(), Rules{rules_.allow_suicide, rules_.superko, komi});
  for (const Event& e : events_) {
    if (e.setup) {
      game.set_stone(e.vertex, e.color);
    } else if (game.play(e.vertex, e.color) != Legality::kLegal) {
      // Legal under the old rules only (a superko repetition): keep the board as played.
      log("gtp: move " + to_gtp(e.vertex, game.size()) + " is illegal under the new rules; kept");
      Game loose(game.size(), Rules{rules_.allow_suicide, Superko::kNone, komi});
      for (const Event& f : events_) {
        if (f.setup) loose.set_stone(f.vertex, f.color);
        else loose.play(f.vertex, f.color);
      }
      game = loose;
      break;
    }
  }
  game.set_to_move(game_.to_move());
  game_ = game;
}

void Engine::place_setup(Color c, Vertex v) {
  game_.set_stone(v, c);
  events_.push_back({true, c, v});
}

bool Engine::play(Color c, Vertex v) {
  if (game_.play(v, c) != Legality::kLegal) return false;
  events_.push_back({false, c, v});
  return true;
}

Request Engine::request_for(Color c) const {
  Request r;
  r.color = c;
  r.clock = &clocks_[static_cast<int>(c)];
  r.stop = &input_->interrupt;
  return r;
}

std::string Engine::status_list(PointStatus status) {
  return chains_text(game_.board(), player_->estimate_end(game_).status, status);
}

std::string Engine::genmove(Call& call, bool cleanup, bool commit) {
  const Color c = call.args.color();
  call.args.done();
  Request request = request_for(c);
  request.cleanup = cleanup;
  const SearchResult result = player_->genmove(game_, request);
  clocks_[static_cast<int>(c)].spend(result.seconds);
  if (result.resign) return "resign";
  Vertex v = result.move;
  if (!v.is_pass() && game_.legal(v, c) != Legality::kLegal) {
    log("gtp: the move generator chose " + to_gtp(v, game_.size()) + ", which is " +
        std::string(legality_name(game_.legal(v, c))) + "; passing instead");
    v = Vertex::pass();
  }
  if (cleanup && v.is_pass()) {
    // Capture what looks dead: a legal move on a liberty of a dead opponent chain.
    const EndEstimate end = player_->estimate_end(game_);
    const Board& board = game_.board();
    for (int i = 0; i < board.size() * board.size(); ++i) {
      const Vertex s = board.at(i % board.size(), i / board.size());
      if (board.color(s) != opponent(c) || end.status[static_cast<size_t>(s.index())] != PointStatus::kDead) continue;
      std::vector<Vertex> libs(static_cast<size_t>(game_.board().liberties(s)));
      game_.board().liberties_of(s, libs);
      const auto it = std::find_if(libs.begin(), libs.end(), [&](Vertex l) {
        return game_.legal(l, c) == Legality::kLegal;
      });
      if (it != libs.end()) {
        v = *it;
        break;
      }
    }
  }
  if (commit) play(c, v);
  return to_gtp(v, game_.size());
}

// ---- Analysis --------------------------------------------------------------------------------

Engine::AnalyzeOptions Engine::parse_analyze_args(Args& args, bool /*genmove*/) const {
  AnalyzeOptions o;
  o.color = game_.to_move();
  // Optional colour (the side to move without one, for *-genmove_analyze too), optional
  // interval in centiseconds, then key-value pairs, as Leela Zero and KataGo read them.
  const auto next_is_color = [&] {
    if (args.empty()) return false;
    Args peek = args;
    return parse_color(peek.word()) != Color::kEmpty;
  };
  if (next_is_color()) o.color = args.color();
  const auto next_is_number = [&] {
    if (args.empty()) return false;
    Args peek = args;
    const std::string w = peek.word();
    return !w.empty() && w.find_first_not_of("0123456789") == std::string::npos;
  };
  if (next_is_number()) o.interval = args.integer(0, 1 << 30) / 100.0;
  while (!args.empty()) {
    const std::string key = args.word();
    if (key == "interval") {
      o.interval = args.integer(0, 1 << 30) / 100.0;
    } else if (key == "minmoves") {
      o.min_moves = args.integer(0, 1 << 30);
    } else if (key == "maxmoves") {
      o.max_moves = args.integer(0, 1 << 30);
    } else if (key == "ownership") {
      o.ownership = args.boolean();
    } else if (key == "pvVisits" || key == "movesOwnership" || key == "ownershipStdev") {
      args.boolean();  // accepted; not reported
    } else if (key == "avoid" || key == "allow") {
      throw GtpError("avoid and allow are not supported");
    } else {
      throw GtpError("syntax error");
    }
  }
  return o;
}

std::string Engine::info_line(const SearchResult& r, const AnalyzeOptions& o, bool kata,
                              const std::vector<float>& ownership) const {
  std::vector<const MoveStats*> moves;
  for (const MoveStats& m : r.children) {
    if (m.visits > 0 && static_cast<int>(moves.size()) < o.max_moves) moves.push_back(&m);
  }
  std::string line;
  const int n = game_.size();
  for (size_t i = 0; i < moves.size(); ++i) {
    const MoveStats& m = *moves[i];
    const double w = std::clamp(m.winrate, 0.0, 1.0);
    const double lcb = std::max(0.0, w - 1.96 * std::sqrt(w * (1 - w) / static_cast<double>(m.visits + 1)));
    if (!line.empty()) line += ' ';
    line += "info move " + to_gtp(m.move, n) + " visits " + std::to_string(m.visits);
    if (kata) {
      line += " winrate " + format_number(w, 6) + " prior " + format_number(m.prior, 6) + " lcb " + format_number(lcb, 6);
    } else {
      line += " winrate " + std::to_string(std::lround(w * 10000)) + " prior " +
              std::to_string(std::lround(m.prior * 10000)) + " lcb " + std::to_string(std::lround(lcb * 10000));
    }
    line += " order " + std::to_string(i) + " pv";
    for (const Vertex v : m.pv) line += " " + to_gtp(v, n);
    if (m.pv.empty()) line += " " + to_gtp(m.move, n);
  }
  if (kata && o.ownership && !ownership.empty() && !line.empty()) {
    // For the player to move, row by row from the top, as KataGo reports it.
    line += " ownership";
    for (const float x : rows(game_.board(), ownership, o.color == Color::kBlack ? 1.0f : -1.0f)) {
      line += " " + format_number(x, 4);
    }
  }
  return line;
}

void Engine::start_stream(Call& call) {
  call.out << "=" << call.line.id << "\n" << std::flush;
  call.streamed = true;
}

void Engine::analyze(Call& call, bool kata) {
  const AnalyzeOptions o = parse_analyze_args(call.args, false);
  start_stream(call);
  {
    std::lock_guard lock(input_->mu);
    input_->waiting = !live_ || !input_->lines.empty() || input_->eof;
  }
  Request request = request_for(o.color);
  request.stop = &input_->waiting;
  request.report_interval = std::max(0.01, o.interval);
  request.report = [&](const SearchResult& r) {
    if (static_cast<int>(r.children.size()) < o.min_moves && !*request.stop) return;
    const std::vector<float> own = kata && o.ownership ? player_->ownership(game_) : std::vector<float>{};
    const std::string line = info_line(r, o, kata, own);
    if (!line.empty()) call.out << line << "\n" << std::flush;
  };
  player_->analyze(game_, request);
  call.out << "\n" << std::flush;
}

void Engine::genmove_analyze(Call& call, bool kata) {
  const AnalyzeOptions o = parse_analyze_args(call.args, true);
  start_stream(call);
  Request request = request_for(o.color);
  request.report_interval = std::max(0.01, o.interval);
  request.report = [&](const SearchResult& r) {
    const std::vector<float> own = kata && o.ownership ? player_->ownership(game_) : std::vector<float>{};
    const std::string line = info_line(r, o, kata, own);
    if (!line.empty()) call.out << line << "\n" << std::flush;
  };
  const SearchResult result = player_->genmove(game_, request);
  request.report(result);  // the final statistics
  clocks_[static_cast<int>(o.color)].spend(result.seconds);
  std::string move = "resign";
  if (!result.resign) {
    Vertex v = result.move;
    if (!v.is_pass() && game_.legal(v, o.color) != Legality::kLegal) v = Vertex::pass();
    play(o.color, v);
    move = to_gtp(v, game_.size());
  }
  call.out << "play " << move << "\n\n" << std::flush;
}

void MoveGenerator::analyze(const Game& game, const Request& request) {
  const SearchResult result = genmove(game, request);
  if (request.report) request.report(result);
  while (request.stop && !*request.stop) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// ---- Commands --------------------------------------------------------------------------------

void Engine::register_commands() {
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
  add("kgs-genmove_cleanup", [this](Call& c) { c.text = genmove(c, true, true); });
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
    rebuild();
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
    rebuild();
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
    clocks_[1].set(time_);
  clocks_[2].set(time_);
  });
  add("kgs-time_settings", [this](Call& c) {
    const std::string kind = lower(c.args.word());
    TimeSettings t;
    if (kind == "none") {
    } else if (kind == "absolute") {
      t.kind = TimeSettings::Kind::kAbsolute;
      t.main_time = c.args.integer(0, 1 << 30);
    } else if (kind == "byoyomi") {
      t.kind = TimeSettings::Kind::kByoYomi;
      t.main_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_periods = c.args.integer(0, 1 << 30);
    } else if (kind == "canadian") {
      t.kind = TimeSettings::Kind::kCanadian;
      t.main_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_stones = c.args.integer(0, 1 << 30);
    } else {
      throw GtpError("syntax error");
    }
    c.args.done();
    time_ = t;
    clocks_[1].set(time_);
  clocks_[2].set(time_);
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
    auto record = file ? read_game(text.str()) : absl::NotFoundError("cannot open");
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
    int number = 1;
    for (const GameEvent& e : record->events) {
      if (e.type == GameEvent::Type::kMove) {
        if (number == move_number) break;
        if (!play(e.color, e.vertex)) {
          log("gtp: loadsgf " + path + ": move " + std::to_string(number) + " (" + to_gtp(e.vertex, game_.size()) +
              ") is illegal");
          game_ = saved_game;
          events_ = saved_events;
          komi_ = saved_komi;
          throw GtpError("cannot load file");
        }
        ++number;
      } else if (e.type == GameEvent::Type::kSetup) {
        place_setup(e.color, e.vertex);
      } else {
        game_.set_to_move(e.color);
      }
    }
    rebuild();  // komi with a handicap's points
    clocks_[1].set(time_);
  clocks_[2].set(time_);
    player_->new_game();
  });
  add("kgs-rules", [this](Call& c) {
    const std::string name = c.args.word();
    c.args.done();
    const RuleSet* r = find_rule_set(name);
    if (!r) throw GtpError("unknown rules");
    rules_ = *r;
    rebuild();
  });
  add("cputime", [](Call& c) {
    c.args.done();
    c.text = format_number(static_cast<double>(std::clock()) / CLOCKS_PER_SEC, 3);
  });
  add("gogui-interrupt", [](Call& c) { c.args.done(); });
  add("gogui-analyze_commands", [](Call& c) {
    c.args.done();
    c.text =
        "gfx/Guesser priors/hane-gfx_priors\n"
        "gfx/Search visits/hane-gfx_visits\n"
        "gfx/Ownership/hane-gfx_ownership\n"
        "dboard/Ownership values/hane-dboard_ownership\n"
        "plist/Dead stones/final_status_list dead\n"
        "string/Final score/final_score";
  });
  const auto optional_color = [this](Args& args) {
    const Color color = args.empty() ? game_.to_move() : args.color();
    args.done();
    return color;
  };
  add("hane-gfx_priors", [this, optional_color](Call& c) {
    const Color color = optional_color(c.args);
    const std::vector<float> p = player_->priors(game_, color);
    if (p.empty()) throw GtpError("this engine has no guesser");
    const float top = *std::max_element(p.begin(), p.end());
    std::vector<std::pair<float, Vertex>> ranked;
    std::string influence = "INFLUENCE";
    const int n = game_.size();
    for (int i = 0; i < n * n; ++i) {
      const Vertex v = game_.board().at(i % n, i / n);
      const float pv = p[static_cast<size_t>(v.index())];
      if (pv <= 0 || top <= 0) continue;
      influence += " " + to_gtp(v, n) + " " + format_number(pv / top, 3);
      ranked.push_back({pv, v});
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string label = "LABEL";
    for (size_t i = 0; i < ranked.size() && i < 10; ++i) {
      label += " " + to_gtp(ranked[i].second, n) + " " + std::to_string(std::lround(100 * ranked[i].first));
    }
    c.text = influence + "\n" + label;
  });
  add("hane-gfx_visits", [this, optional_color](Call& c) {
    const Color color = optional_color(c.args);
    const SearchResult result = player_->genmove(game_, request_for(color));
    const int n = game_.size();
    int64_t top = 0;
    for (const MoveStats& m : result.children) top = std::max(top, m.visits);
    std::string influence = "INFLUENCE", label = "LABEL", var = "VAR";
    for (const MoveStats& m : result.children) {
      if (!m.move.is_point() || m.visits == 0) continue;
      influence += " " + to_gtp(m.move, n) + " " + format_number(static_cast<double>(m.visits) / static_cast<double>(top), 3);
      label += " " + to_gtp(m.move, n) + " " + std::to_string(m.visits);
    }
    if (!result.children.empty()) {
      Color mover = color;
      for (const Vertex v : result.children.front().pv) {
        var += std::string(" ") + (mover == Color::kBlack ? "b " : "w ") + to_gtp(v, n);
        mover = opponent(mover);
      }
    }
    c.text = influence + "\n" + label + (var.size() > 3 ? "\n" + var : "");
  });
  add("hane-gfx_ownership", [this](Call& c) {
    c.args.done();
    const std::vector<float> own = rows(game_.board(), player_->ownership(game_), 1.0f);
    const int n = game_.size();
    std::string influence = "INFLUENCE";
    for (int i = 0; i < n * n; ++i) {
      const float o = own[static_cast<size_t>(i)];
      if (std::abs(o) >= 0.05f) influence += " " + to_gtp(game_.board().at(i % n, i / n), n) + " " + format_number(o, 2);
    }
    c.text = influence;
  });
  add("hane-dboard_ownership", [this](Call& c) {
    c.args.done();
    const std::vector<float> own = rows(game_.board(), player_->ownership(game_), 1.0f);
    const int n = game_.size();
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) c.text += (x ? " " : "") + format_number(own[static_cast<size_t>(y * n + x)], 2);
      c.text += "\n";
    }
  });
  add("lz-analyze", [this](Call& c) { analyze(c, false); });
  add("kata-analyze", [this](Call& c) { analyze(c, true); });
  add("lz-genmove_analyze", [this](Call& c) { genmove_analyze(c, false); });
  add("kata-genmove_analyze", [this](Call& c) { genmove_analyze(c, true); });
}

// ---- Protocol loop ---------------------------------------------------------------------------

bool Engine::execute(std::string_view raw, std::ostream& out) {
  const std::string text = preprocess(raw);
  if (text.empty()) return true;
  const CommandLine line = parse_request(text);
  const auto it = index_.find(line.name);
  if (it == index_.end()) {
    out << format_response(false, line.id, "unknown command") << std::flush;
    return true;
  }
  Call call{line, Args(line.args, game_.size()), out, "", false};
  bool ok = true;
  try {
    commands_[it->second].second(call);
  } catch (const GtpError& e) {
    ok = false;
    call.text = e.what();
  } catch (const std::exception& e) {
    ok = false;
    call.text = std::string("internal error: ") + e.what();
    log("gtp: " + line.name + ": " + e.what());
  }
  if (call.streamed) {
    if (!ok) log("gtp: " + line.name + ": " + call.text);
  } else {
    out << format_response(ok, line.id, call.text) << std::flush;
  }
  return !(ok && line.name == "quit");
}

int Engine::run(std::istream& in, std::ostream& out) {
  std::shared_ptr<Input> input = input_;
  // std::cin is tied to std::cout: every read would flush the output from the reader thread,
  // racing with the responses written here.
  in.tie(nullptr);
  std::thread reader([input, &in] {
    std::string raw;
    while (std::getline(in, raw)) {
      const bool blank = preprocess(raw).empty();
      const size_t hash = raw.find('#');
      // GoGui's interrupt: a comment line reading "# interrupt".
      const bool interrupt = blank && hash != std::string::npos && preprocess(raw.substr(hash + 1)) == "interrupt";
      if (interrupt) {
        input->interrupt = true;
        input->waiting = true;
        continue;
      }
      if (blank) {
        // An empty line ends a running lz-analyze / kata-analyze, as in Leela Zero and KataGo
        // (GUIs send one to stop the stream); it is no command.
        if (hash == std::string::npos) input->waiting = true;
        continue;
      }
      std::lock_guard lock(input->mu);
      input->lines.push_back(raw);
      input->waiting = true;
      input->cv.notify_one();
    }
    std::lock_guard lock(input->mu);
    input->eof = true;
    input->waiting = true;
    input->cv.notify_one();
  });
  live_ = true;
  bool eof = false;
  while (true) {
    std::string line;
    {
      std::unique_lock lock(input->mu);
      input->cv.wait(lock, [&] { return !input->lines.empty() || input->eof; });
      if (input->lines.empty()) {
        eof = true;
        break;
      }
      line = std::move(input->lines.front());
      input->lines.pop_front();
      input->waiting = !input->lines.empty() || input->eof;
      input->interrupt = false;
    }
    if (!execute(line, out)) break;
  }
  live_ = false;
  // After quit the reader may be blocked on a terminal that never ends: leave it (it only
  // holds the shared input state). A stream that ends (a pipe, a file) is read to its end.
  if (!eof) {
    std::unique_lock lock(input->mu);
    eof = input->cv.wait_for(lock, std::chrono::milliseconds(200), [&] { return input->eof; });
  }
  if (eof) {
    reader.join();
  } else {
    reader.detach();
  }
  return 0;
}

}  // namespace hane::gtp
