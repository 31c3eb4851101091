#include "gtp/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>
#include <thread>

#include "absl/strings/str_format.h"
#include "go/area.h"
#include "gtp/command_text.h"

namespace hane::gtp {

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

void Engine::set_clocks() {
  clocks_[1].set(time_);
  clocks_[2].set(time_);
}

void Engine::new_game(int size) {
  game_ = Game(size, Rules{rules_.allow_suicide, rules_.superko, komi_});
  events_.clear();
  set_clocks();
  player_->new_game();
}

void Engine::rebuild() {
  const double komi = komi_ + handicap_points(rules_, events_);
  Game game(game_.size(), Rules{rules_.allow_suicide, rules_.superko, komi});
  for (const Event& e : events_) {
    if (e.setup) {
      game.set_stone(e.vertex, e.color);
      continue;
    }
    game.set_to_move(e.color);  // so that undo gives the move back to its player (after PL, setup)
    if (game.play(e.vertex, e.color) != Legality::kLegal) {
      // Legal under the old rules only (a superko repetition): keep the board as played.
      log("gtp: move " + to_gtp(e.vertex, game.size()) + " is illegal under the new rules; kept");
      Game loose(game.size(), Rules{rules_.allow_suicide, Superko::kNone, komi});
      for (const Event& f : events_) {
        if (f.setup) {
          loose.set_stone(f.vertex, f.color);
        } else {
          loose.set_to_move(f.color);
          loose.play(f.vertex, f.color);
        }
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
  r.territory = rules_.scoring == Scoring::kTerritory;
  return r;
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
  if (config_.move_log && config_.log) log_move(c, v, result);
  if (commit) play(c, v);
  return to_gtp(v, game_.size());
}

void Engine::log_move(Color c, Vertex v, const SearchResult& r) const {
  std::string line = absl::StrFormat("genmove %s (move %d): %s, win %.1f%%, score %+.1f (B-W), %d playouts, %d root visits, %.2f s",
                                     c == Color::kBlack ? "b" : "w", static_cast<int>(game_.moves().size()) + 1,
                                     r.resign ? "resign" : to_gtp(v, game_.size()), 100 * r.winrate, r.score_mean,
                                     r.playouts, r.root_visits, r.seconds);
  if (r.desired_seconds > 0) absl::StrAppendFormat(&line, " (desired %.2f s, worst %.2f s)", r.desired_seconds, r.max_seconds);
  if (r.extra_komi != 0) absl::StrAppendFormat(&line, ", dynamic komi %+.1f", r.extra_komi);
  if (!r.children.empty() && r.children[0].pv.size() > 1) {
    line += ", pv";
    for (Vertex p : r.children[0].pv) line += " " + to_gtp(p, game_.size());
  }
  log(line);
}

// ---- Analysis --------------------------------------------------------------------------------

// ---- Commands --------------------------------------------------------------------------------

// One table, filled by command family; list_commands gives this order.
void Engine::register_commands() {
  register_standard_commands();
  register_kgs_commands();
  register_score_commands();
  register_gogui_commands();
  register_analysis_commands();
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
