#include "match/referee.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "go/score.h"

namespace hane {
namespace {

using Clock = std::chrono::steady_clock;

const char* gtp_color(Color c) { return c == Color::kBlack ? "b" : "w"; }
const char* color_word(Color c) { return c == Color::kBlack ? "black" : "white"; }

// A fault: the engine `who` loses; the caller fills the rest of the result.
struct Fault {
  Color who = Color::kEmpty;
  Ending ending = Ending::kForfeit;
  std::string reason;
};

struct Clocks {
  double main_left = 0, period_left = 0;
  int stones_left = 0;
  bool in_byo = false;
};

class Referee {
 public:
  Referee(const GameSettings& s, const GameAssignment& a, EngineProcess& black, EngineProcess& white,
          const std::atomic<bool>* cancel)
      : s_(s), a_(a), game_(s.size, Rules{false, Superko::kPositional, s.komi}) {
    engines_[0] = &black;
    engines_[1] = &white;
    for (Clocks& c : clocks_) {
      c.main_left = s.time.main_s;
      if (s.time.main_s <= 0) {
        c.in_byo = true;
        c.period_left = s.time.period_s;
        c.stones_left = s.time.stones;
      }
    }
    cancel_ = cancel;
  }

  absl::StatusOr<GameResult> run(const std::string& stderr_dir);

 private:
  EngineProcess& engine(Color c) { return *engines_[c == Color::kBlack ? 0 : 1]; }
  int engine_index(Color c) const { return c == Color::kBlack ? a_.black : a_.white; }

  // Sends a command; a transport error or (when `must`) a '?' reply becomes a fault of `c`.
  std::optional<GtpReply> send(Color c, const std::string& cmd, double timeout, bool must);
  bool setup(Color c);
  bool play_moves(bool cleanup, int limit, bool* limit_reached);
  bool score_game();
  void ask_final_scores();
  void set_score(double margin, std::string from);
  // Komi plus White's points for the handicap stones placed, under the game's rules.
  double scoring_komi() const {
    return s_.komi + handicap_compensation(s_.handicap_compensation, static_cast<int>(r_.handicap_stones.size()));
  }

  const GameSettings& s_;
  const GameAssignment& a_;
  Game game_;
  EngineProcess* engines_[2];
  Clocks clocks_[2];
  const std::atomic<bool>* cancel_ = nullptr;
  std::optional<Fault> fault_;
  bool cancelled_ = false;
  GameResult r_;
};

std::optional<GtpReply> Referee::send(Color c, const std::string& cmd, double timeout, bool must) {
  if (fault_ || cancelled_) return std::nullopt;
  auto reply = engine(c).client().command(cmd, timeout);
  if (!reply.ok()) {
    if (reply.status().code() == absl::StatusCode::kCancelled) {
      cancelled_ = true;
      return std::nullopt;
    }
    fault_ = Fault{c, Ending::kForfeit, absl::StrCat(reply.status().message())};
    return std::nullopt;
  }
  if (must && !reply->ok) {
    fault_ = Fault{c, Ending::kForfeit, absl::StrCat("refused '", cmd, "': ", reply->text)};
    return std::nullopt;
  }
  return *reply;
}

bool Referee::setup(Color c) {
  const double t = s_.command_timeout_s;
  send(c, absl::StrCat("boardsize ", s_.size), t, true);
  send(c, "clear_board", t, true);
  send(c, absl::StrFormat("komi %g", s_.komi), t, true);
  if (s_.time.enabled()) send(c, absl::StrFormat("time_settings %d %d %d", static_cast<int>(std::lround(s_.time.main_s)),
                                                 static_cast<int>(std::lround(s_.time.period_s)), s_.time.stones),
                              t, true);
  if (!r_.handicap_stones.empty()) {
    std::vector<Vertex> expected = r_.handicap_stones;
    std::sort(expected.begin(), expected.end());
    if (engine(c).knows("fixed_handicap")) {
      auto reply = send(c, absl::StrCat("fixed_handicap ", s_.handicap), t, true);
      if (!reply) return false;
      std::vector<Vertex> got;
      for (absl::string_view w : absl::StrSplit(reply->text, absl::ByAnyChar(" \n"), absl::SkipEmpty())) {
        if (auto v = from_gtp(std::string(w), s_.size)) got.push_back(*v);
      }
      std::sort(got.begin(), got.end());
      if (got != expected) {
        fault_ = Fault{c, Ending::kForfeit, absl::StrCat("fixed_handicap ", s_.handicap, " placed '", reply->text,
                                                         "', not the standard points")};
      }
    } else {
      std::string cmd = "set_free_handicap";
      for (Vertex v : r_.handicap_stones) absl::StrAppend(&cmd, " ", to_gtp(v, s_.size));
      send(c, cmd, t, true);
    }
  }
  return !fault_ && !cancelled_;
}

bool Referee::play_moves(bool cleanup, int limit, bool* limit_reached) {
  *limit_reached = false;
  int played = 0;
  int passes = 0;
  while (!fault_ && !cancelled_) {
    if (played >= limit) {
      *limit_reached = true;
      return true;
    }
    const Color c = game_.to_move();
    const int ci = c == Color::kBlack ? 0 : 1;
    double timeout = s_.move_timeout_s;
    if (s_.time.enabled()) {
      Clocks& k = clocks_[ci];
      const double left = k.in_byo ? k.period_left : k.main_left;
      send(c, absl::StrFormat("time_left %s %d %d", gtp_color(c), static_cast<int>(std::floor(std::max(0.0, left))),
                              k.in_byo ? k.stones_left : 0),
           s_.command_timeout_s, false);
      timeout = (k.in_byo ? k.period_left : k.main_left + s_.time.period_s) + s_.time_margin_s + 1.0;
    }
    const bool use_cleanup = cleanup && engine(c).knows("kgs-genmove_cleanup");
    const std::string cmd = absl::StrCat(use_cleanup ? "kgs-genmove_cleanup " : "genmove ", gtp_color(c));
    const auto t0 = Clock::now();
    auto reply = send(c, cmd, timeout, true);
    const double used = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!reply) {
      if (fault_ && s_.time.enabled() && fault_->reason.starts_with("no reply")) {
        fault_->ending = Ending::kTime;
        fault_->reason = absl::StrFormat("lost on time: no move within %.1f s", timeout);
      }
      return false;
    }
    if (s_.time.enabled()) {
      Clocks& k = clocks_[ci];
      bool lost = false;
      if (!k.in_byo) {
        k.main_left -= used;
        if (k.main_left < -s_.time_margin_s) {
          if (s_.time.period_s > 0) {
            k.in_byo = true;
            k.period_left = s_.time.period_s + k.main_left;  // main time overflow comes off the period
            k.stones_left = s_.time.stones;
          } else {
            lost = true;
          }
        }
      } else {
        k.period_left -= used;
      }
      if (k.in_byo) {
        if (k.period_left < -s_.time_margin_s) lost = true;
        if (!lost && k.stones_left > 0 && --k.stones_left == 0) {
          k.period_left = s_.time.period_s;
          k.stones_left = s_.time.stones;
        }
      }
      if (lost) {
        fault_ = Fault{c, Ending::kTime, absl::StrFormat("lost on time (move took %.2f s)", used)};
        return false;
      }
    }
    const std::string text = absl::AsciiStrToLower(absl::StripAsciiWhitespace(reply->text));
    if (text == "resign") {
      r_.ending = Ending::kResign;
      r_.winner = opponent(c);
      r_.result = absl::StrCat(opponent(c) == Color::kBlack ? "B" : "W", "+R");
      r_.reason = absl::StrCat(color_word(c), " resigned");
      r_.move_seconds.push_back(used);
      return false;
    }
    auto v = from_gtp(text, s_.size);
    if (!v || v->is_none()) {
      fault_ = Fault{c, Ending::kForfeit, absl::StrCat("unreadable move '", reply->text, "' from '", cmd, "'")};
      return false;
    }
    const Legality legal = game_.play(*v, c);
    if (legal != Legality::kLegal) {
      fault_ = Fault{c, Ending::kForfeit,
                     absl::StrCat("illegal move ", to_gtp(*v, s_.size), " (", std::string(legality_name(legal)), ")")};
      return false;
    }
    r_.moves.push_back({c, *v});
    r_.move_seconds.push_back(used);
    ++played;
    send(opponent(c), absl::StrCat("play ", gtp_color(c), " ", to_gtp(*v, s_.size)), s_.command_timeout_s, true);
    if (fault_ && fault_->reason.starts_with("refused")) fault_->reason = absl::StrCat("rejected a legal move: ", fault_->reason);
    passes = v->is_pass() ? passes + 1 : 0;
    if (passes >= 2) return true;
  }
  return false;
}

void Referee::set_score(double margin, std::string from) {
  r_.margin = margin;
  r_.winner = margin > 0 ? Color::kBlack : margin < 0 ? Color::kWhite : Color::kEmpty;
  r_.result = score_text(margin);
  r_.dead_stones_from = std::move(from);
}

bool Referee::score_game() {
  // final_status_list dead from both engines; both must answer the same set.
  std::optional<std::vector<Vertex>> lists[2];
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (!engine(c).knows("final_status_list")) continue;
    auto reply = send(c, "final_status_list dead", s_.command_timeout_s, false);
    if (fault_ || cancelled_) return false;
    if (!reply || !reply->ok) continue;
    std::vector<Vertex> dead;
    bool readable = true;
    for (absl::string_view w : absl::StrSplit(reply->text, absl::ByAnyChar(" \n"), absl::SkipEmpty())) {
      auto v = from_gtp(std::string(w), s_.size);
      if (!v || !v->is_point() || !game_.board().is_stone(*v)) readable = false;
      else dead.push_back(*v);
    }
    if (!readable) continue;
    std::sort(dead.begin(), dead.end());
    lists[c == Color::kBlack ? 0 : 1] = std::move(dead);
  }
  if (lists[0] && lists[1] && *lists[0] == *lists[1]) {
    Board b = game_.board();
    for (Vertex v : *lists[0]) b.set_stone(v, Color::kEmpty);
    r_.dead = *lists[0];
    set_score(area_score(b).margin(scoring_komi()), "agreed");
    return true;
  }
  return false;
}

void Referee::ask_final_scores() {
  for (Color c : {Color::kBlack, Color::kWhite}) {
    std::string answer;
    if (engine(c).knows("final_score")) {
      auto reply = send(c, "final_score", s_.command_timeout_s, false);
      if (fault_ || cancelled_) return;
      if (reply) answer = reply->ok ? reply->text : absl::StrCat("? ", reply->text);
    }
    r_.final_score.push_back(answer);
    if (!answer.empty() && !answer.starts_with("?")) {
      const auto theirs = parse_final_score(answer);
      if (!theirs || *theirs != r_.margin) r_.score_disagreement = true;
    }
  }
}

absl::StatusOr<GameResult> Referee::run(const std::string& stderr_dir) {
  const auto start = Clock::now();
  r_.index = a_.index;
  r_.pairing = a_.pairing;
  r_.pair = a_.pair;
  r_.black = a_.black;
  r_.white = a_.white;
  r_.black_name = engines_[0]->spec().name;
  r_.white_name = engines_[1]->spec().name;
  r_.opening = a_.opening_name;
  r_.opening_moves = static_cast<int>(a_.opening.size());
  r_.seed = a_.seed;
  r_.size = s_.size;
  r_.komi = s_.komi;
  r_.handicap = s_.handicap;
  r_.rules = s_.rules_name;
  r_.time = s_.time;
  r_.dead_stones_from = "none";
  if (s_.handicap >= 2) {
    r_.handicap_stones = fixed_handicap_points(s_.size, s_.handicap);
    for (Vertex v : r_.handicap_stones) game_.set_stone(v, Color::kBlack);
    game_.set_to_move(Color::kWhite);
  }
  // Start (or restart) both engines; one that cannot start forfeits.
  for (Color c : {Color::kBlack, Color::kWhite}) {
    EngineProcess& e = engine(c);
    e.client().set_cancel_flag(cancel_);
    if (!stderr_dir.empty()) {
      e.client().set_stderr_file(absl::StrCat(stderr_dir, "/", a_.index, "-", e.spec().name, ".stderr"));
    }
    if (absl::Status st = e.ensure_started(a_.seed, s_.command_timeout_s); !st.ok()) {
      if (st.code() == absl::StatusCode::kCancelled || (cancel_ && cancel_->load())) return absl::CancelledError("interrupted");
      if (!fault_) fault_ = Fault{c, Ending::kForfeit, absl::StrCat("could not start: ", st.message())};
    }
  }
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (!setup(c)) break;
  }
  for (const Move& m : a_.opening) {
    if (fault_ || cancelled_) break;
    if (game_.play(m.vertex, m.color) != Legality::kLegal) {
      return absl::InvalidArgumentError(absl::StrCat("opening ", a_.opening_name, ": illegal move ", to_gtp(m.vertex, s_.size)));
    }
    r_.moves.push_back(m);
    r_.move_seconds.push_back(0);
    for (Color c : {Color::kBlack, Color::kWhite}) {
      send(c, absl::StrCat("play ", gtp_color(m.color), " ", to_gtp(m.vertex, s_.size)), s_.command_timeout_s, true);
    }
  }
  const int max_moves = s_.max_moves > 0 ? s_.max_moves : 3 * s_.size * s_.size;
  bool limit = false;
  if (!fault_ && !cancelled_) {
    const int left = std::max(0, max_moves - static_cast<int>(r_.moves.size()));
    if (play_moves(false, left, &limit) && !fault_ && !cancelled_) {
      if (score_game()) {
        r_.ending = limit ? Ending::kMaxMoves : Ending::kScore;
        r_.reason = limit ? "max moves, adjudicated by area score with agreed dead stones" : "two passes";
      } else if (fault_ || cancelled_) {
        // handled below
      } else if (limit) {
        r_.ending = Ending::kVoid;
        r_.result = "Void";
        r_.reason = absl::StrCat("max moves (", max_moves, ") without agreed dead stones");
      } else {
        bool cleanup_limit = false;
        if (play_moves(true, s_.size * s_.size, &cleanup_limit) && !fault_ && !cancelled_) {
          if (cleanup_limit) {
            r_.ending = Ending::kVoid;
            r_.result = "Void";
            r_.reason = "cleanup phase did not end";
          } else {
            set_score(area_score(game_.board()).margin(scoring_komi()), "cleanup");
            r_.ending = Ending::kScore;
            r_.reason = "two passes; dead stones not agreed, scored after a cleanup phase";
          }
        }
      }
      if (!fault_ && !cancelled_ && r_.ending != Ending::kVoid) ask_final_scores();
    }
  }
  if (cancelled_) return absl::CancelledError("interrupted");
  if (fault_) {
    const Color loser = fault_->who;
    EngineProcess& e = engine(loser);
    e.stop();
    r_.ending = fault_->ending;
    r_.winner = opponent(loser);
    r_.result = absl::StrCat(opponent(loser) == Color::kBlack ? "B" : "W", fault_->ending == Ending::kTime ? "+T" : "+F");
    r_.reason = absl::StrCat(color_word(loser), " (", e.spec().name, ") ",
                             fault_->ending == Ending::kTime ? "" : "forfeits: ", fault_->reason);
    r_.forfeit_engine = engine_index(loser);
    r_.stderr_tail = e.last_stderr();
    r_.dead.clear();
    r_.final_score.clear();
    r_.score_disagreement = false;
  }
  for (EngineProcess* e : engines_) {
    e->client().set_stderr_file("");
    if (e->spec().per_game) e->stop();
  }
  r_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r_;
}

}  // namespace

std::optional<double> parse_final_score(std::string_view text) {
  std::string t = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(std::string(text)));
  if (t == "0" || t == "JIGO" || t == "DRAW") return 0.0;
  if (t.size() < 3 || (t[0] != 'B' && t[0] != 'W') || t[1] != '+') return std::nullopt;
  double x = 0;
  if (!absl::SimpleAtod(t.substr(2), &x)) return std::nullopt;
  return t[0] == 'B' ? x : -x;
}

std::string score_text(double margin) {
  if (margin == 0) return "0";
  return absl::StrFormat("%s+%g", margin > 0 ? "B" : "W", std::abs(margin));
}

absl::StatusOr<GameResult> play_game(const GameSettings& settings, const GameAssignment& game, EngineProcess& black,
                                     EngineProcess& white, const std::atomic<bool>* cancel,
                                     const std::string& stderr_dir) {
  Referee referee(settings, game, black, white, cancel);
  return referee.run(stderr_dir);
}

}  // namespace hane
