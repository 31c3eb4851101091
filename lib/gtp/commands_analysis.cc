// Live analysis as Leela Zero and KataGo stream it (read by Sabaki and Lizzie): lz-analyze,
// kata-analyze, lz-genmove_analyze, kata-genmove_analyze; `info move ...` lines every interval
// until the next command arrives.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "gtp/command_text.h"
#include "gtp/engine.h"

namespace hane::gtp {

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
    for (const float x : ownership_rows(game_.board(), ownership, o.color == Color::kBlack ? 1.0f : -1.0f)) {
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

void Engine::register_analysis_commands() {
  add("lz-analyze", [this](Call& c) { analyze(c, false); });
  add("kata-analyze", [this](Call& c) { analyze(c, true); });
  add("lz-genmove_analyze", [this](Call& c) { genmove_analyze(c, false); });
  add("kata-genmove_analyze", [this](Call& c) { genmove_analyze(c, true); });
}

}  // namespace hane::gtp
