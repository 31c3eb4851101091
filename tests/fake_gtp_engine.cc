// A fake GTP engine for the match tests. Arguments are key=value options:
//   name=NAME        answer to `name` (default "fake")
//   seed=N           random seed (default 1); moves are random legal moves that do not fill
//                    the engine's own eyes, or pass when there is none
//   moves=D4,C3,...  play these moves in order (skipping any that are illegal), then pass
//   crash=N          exit with code 3 at the N-th genmove (after a line on stderr)
//   hang=N           stop answering at the N-th genmove (sleeps 30 s)
//   garbage=N        a reply without '=' at the N-th genmove
//   refuse=N         '? cannot' at the N-th genmove
//   illegal=N        an occupied point at the N-th genmove
//   resign=N         resign at the N-th genmove (of the process)
//   resign_each=N    resign at the N-th genmove of every game (counted from clear_board)
//   sleep=MS         wait MS milliseconds before every genmove answer
//   badscore=1       final_score gives the opposite winner
//   dead=white       final_status_list dead lists every white stone (else nothing)
//   nocleanup=1 / nohandicap=1 / nostatus=1   leave kgs-genmove_cleanup / fixed_handicap /
//                    final_status_list out of list_commands (and refuse them)
//   slowstart=MS     wait before reading the first command
//   tune=X           a synthetic objective for hane tune: strength s = -10 (X - 0.7)^2, and the
//                    engine resigns at its genmove ceil(100 E e^s), E exponential from the seed
//                    and its colour, so it outlasts (beats) an engine of strength s' with
//                    probability close to logistic(s - s') (Bradley-Terry; move counts are whole)
//   nostart=1        exit at once with code 2
// Every genmove writes "fake NAME: genmove K" to stderr. The commands it got are appended
// to the file given by log=PATH, one per line.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "go/game.h"
#include "go/score.h"
#include "match/result.h"
#include "util/hash.h"

namespace {

using hane::Color;
using hane::Game;
using hane::Legality;
using hane::Vertex;

std::map<std::string, std::string> g_opt;

std::string opt(const std::string& k, const std::string& def = "") {
  auto it = g_opt.find(k);
  return it == g_opt.end() ? def : it->second;
}
int opt_int(const std::string& k, int def = 0) { return g_opt.count(k) ? std::atoi(g_opt[k].c_str()) : def; }

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void reply(const std::string& text) { std::cout << "= " << text << "\n\n" << std::flush; }
void error(const std::string& text) { std::cout << "? " << text << "\n\n" << std::flush; }

Color parse_color(const std::string& s) { return (s == "b" || s == "B" || s == "black") ? Color::kBlack : Color::kWhite; }

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const size_t eq = a.find('=');
    g_opt[eq == std::string::npos ? a : a.substr(0, eq)] = eq == std::string::npos ? "1" : a.substr(eq + 1);
  }
  const std::string name = opt("name", "fake");
  if (opt_int("nostart")) {
    std::fprintf(stderr, "fake %s: refusing to start\n", name.c_str());
    return 2;
  }
  if (opt_int("slowstart")) sleep_ms(opt_int("slowstart"));
  std::FILE* log = opt("log").empty() ? nullptr : std::fopen(opt("log").c_str(), "a");
  std::mt19937_64 rng(static_cast<uint64_t>(std::atoll(opt("seed", "1").c_str())));
  int size = 19;
  double komi = 7.5;
  Game game(size, hane::Rules{false, hane::Superko::kPositional, komi});
  std::vector<std::string> fixed;
  {
    std::stringstream ss(opt("moves"));
    for (std::string m; std::getline(ss, m, ',');) fixed.push_back(m);
  }
  size_t next_fixed = 0;
  int genmoves = 0, game_genmoves = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (log) std::fprintf(log, "%s\n", line.c_str()), std::fflush(log);
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    std::vector<std::string> args;
    for (std::string w; in >> w;) args.push_back(w);
    if (cmd.empty()) continue;
    if (cmd == "quit") {
      reply("");
      break;
    } else if (cmd == "protocol_version") {
      reply("2");
    } else if (cmd == "name") {
      reply(name);
    } else if (cmd == "version") {
      reply("1.0");
    } else if (cmd == "list_commands") {
      std::string list = "protocol_version\nname\nversion\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\n"
                         "set_free_handicap\ntime_settings\ntime_left\nfinal_score\nquit";
      if (!opt_int("nocleanup")) list += "\nkgs-genmove_cleanup";
      if (!opt_int("nohandicap")) list += "\nfixed_handicap";
      if (!opt_int("nostatus")) list += "\nfinal_status_list";
      reply(list);
    } else if (cmd == "boardsize") {
      size = args.empty() ? 19 : std::atoi(args[0].c_str());
      game = Game(size, hane::Rules{false, hane::Superko::kPositional, komi});
      reply("");
    } else if (cmd == "clear_board") {
      game = Game(size, hane::Rules{false, hane::Superko::kPositional, komi});
      next_fixed = 0;
      game_genmoves = 0;
      reply("");
    } else if (cmd == "komi") {
      komi = args.empty() ? 0 : std::atof(args[0].c_str());
      reply("");
    } else if (cmd == "time_settings" || cmd == "time_left") {
      reply("");
    } else if (cmd == "fixed_handicap" && !opt_int("nohandicap")) {
      const int n = args.empty() ? 0 : std::atoi(args[0].c_str());
      std::string out;
      for (Vertex v : hane::fixed_handicap_points(size, n)) {
        game.set_stone(v, Color::kBlack);
        out += hane::to_gtp(v, size) + " ";
      }
      game.set_to_move(Color::kWhite);
      reply(out);
    } else if (cmd == "set_free_handicap") {
      for (const std::string& a : args) {
        if (auto v = hane::from_gtp(a, size)) game.set_stone(*v, Color::kBlack);
      }
      game.set_to_move(Color::kWhite);
      reply("");
    } else if (cmd == "play" && args.size() == 2) {
      auto v = hane::from_gtp(args[1], size);
      if (!v || game.play(*v, parse_color(args[0])) != Legality::kLegal) {
        error("illegal move");
      } else {
        reply("");
      }
    } else if ((cmd == "genmove" || (cmd == "kgs-genmove_cleanup" && !opt_int("nocleanup"))) && args.size() == 1) {
      ++genmoves, ++game_genmoves;
      std::fprintf(stderr, "fake %s: genmove %d\n", name.c_str(), genmoves);
      std::fflush(stderr);
      const Color c = parse_color(args[0]);
      if (opt_int("sleep")) sleep_ms(opt_int("sleep"));
      if (genmoves == opt_int("crash", -1)) {
        std::fprintf(stderr, "fake %s: crashing at move %d\n", name.c_str(), genmoves);
        return 3;
      }
      if (genmoves == opt_int("hang", -1)) {
        sleep_ms(30000);
        return 4;
      }
      if (genmoves == opt_int("garbage", -1)) {
        std::cout << "hello, this is not GTP\n\n" << std::flush;
        continue;
      }
      if (genmoves == opt_int("refuse", -1)) {
        error("cannot");
        continue;
      }
      if (!opt("tune").empty()) {
        // The genmove at which this engine resigns, drawn once per game (per seed and colour).
        const double x = std::atof(opt("tune").c_str());
        uint64_t h = hane::splitmix64(static_cast<uint64_t>(std::atoll(opt("seed", "1").c_str())) * 2 + (c == Color::kBlack));
        const double u = (static_cast<double>(h >> 11) + 0.5) / 9007199254740992.0;
        const int resign_at = static_cast<int>(std::ceil(-std::log(u) * 100 * std::exp(-10 * (x - 0.7) * (x - 0.7))));
        if (genmoves >= resign_at) {
          reply("resign");
          continue;
        }
      }
      if (genmoves == opt_int("resign", -1) || game_genmoves == opt_int("resign_each", -1)) {
        reply("resign");
        continue;
      }
      const hane::Board& b = game.board();
      if (genmoves == opt_int("illegal", -1)) {
        for (int y = 0; y < size; ++y) {
          for (int x = 0; x < size; ++x) {
            if (b.is_stone(b.at(x, y))) {
              reply(hane::to_gtp(b.at(x, y), size));
              goto answered;
            }
          }
        }
      }
      {
        Vertex move = Vertex::pass();
        while (next_fixed < fixed.size()) {
          auto v = hane::from_gtp(fixed[next_fixed++], size);
          if (v && game.legal(*v, c) == Legality::kLegal) {
            move = *v;
            break;
          }
        }
        if (fixed.empty()) {
          std::vector<Vertex> options;
          for (int y = 0; y < size; ++y) {
            for (int x = 0; x < size; ++x) {
              const Vertex v = b.at(x, y);
              if (b.is_empty(v) && !b.is_eye(v, c) && game.legal(v, c) == Legality::kLegal) options.push_back(v);
            }
          }
          if (!options.empty()) move = options[rng() % options.size()];
        }
        game.play(move, c);
        reply(hane::to_gtp(move, size));
      }
    answered:;
    } else if (cmd == "final_status_list" && !opt_int("nostatus")) {
      std::string out;
      if (opt("dead") == "white" && !args.empty() && args[0] == "dead") {
        const hane::Board& b = game.board();
        for (int y = 0; y < size; ++y) {
          for (int x = 0; x < size; ++x) {
            if (b.color(b.at(x, y)) == Color::kWhite) out += hane::to_gtp(b.at(x, y), size) + " ";
          }
        }
      }
      reply(out);
    } else if (cmd == "final_score") {
      double margin = hane::area_score(game.board()).margin(komi);
      if (opt_int("badscore")) margin = -margin + (margin == 0 ? 1 : 0);
      char buf[64];
      if (margin == 0) {
        reply("0");
      } else {
        std::snprintf(buf, sizeof buf, "%s+%g", margin > 0 ? "B" : "W", margin > 0 ? margin : -margin);
        reply(buf);
      }
    } else {
      error("unknown command");
    }
  }
  if (log) std::fclose(log);
  return 0;
}
