// hane gtp: the engine over the Go Text Protocol on stdin/stdout (for GUIs, servers, matches).
#include <iostream>
#include <memory>

#include "gtp/engine.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/engine_options.h"
#include "tools/version.h"

namespace hane::tools {

void add_gtp_command(CLI::App& app) {
  auto flags = std::make_shared<EngineFlags>();
  auto size = std::make_shared<int>(19);
  auto komi = std::make_shared<double>(7.5);
  CLI::App* cmd = app.add_subcommand(
      "gtp",
      "Play over GTP version 2 on stdin/stdout: the standard commands, KGS's (kgs-rules, kgs-time_settings, "
      "kgs-genmove_cleanup), GoGui's analyze commands and interrupt, and Leela Zero / KataGo live analysis "
      "(lz-analyze, kata-analyze, lz-genmove_analyze). Only GTP goes to stdout; diagnostics to stderr.");
  add_engine_options(cmd, *flags);
  cmd->add_option("--size", *size, "Board size before the first boardsize command")->check(CLI::Range(2, 25))->capture_default_str();
  cmd->add_option("--komi", *komi, "Komi before the first komi command")->capture_default_str();
  cmd->callback([flags, size, komi] {
    auto player = make_player(*flags, &std::cerr);
    if (player.ok()) {
      // Models of another board size than the engine starts on (a later boardsize is not checked).
      const SearchOptions& s = flags->options.search;
      const std::string use = "the engine starts on";
      if (s.policy.find(':') != std::string::npos) {
        warn_if_model_not_for(s.policy.substr(s.policy.find(':') + 1), {*size}, use, " (--size)");
      }
      if (s.prior != "none") warn_if_model_not_for(s.prior, {*size}, use, " (--size)");
      if (s.joseki != "none") warn_if_model_not_for(s.joseki, {*size}, use, " (--size): no joseki prior there");
    }
    if (!player.ok()) throw std::runtime_error(std::string(player.status().message()));
    if (!flags->quiet) std::cerr << "hane gtp: " << (*player)->name() << std::endl;
    gtp::EngineConfig config;
    config.name = "hane";
    config.version = kVersion;
    config.board_size = *size;
    config.komi = *komi;
    config.log = &std::cerr;
    config.move_log = !flags->quiet;
    gtp::Engine engine(std::move(*player), config);
    engine.run(std::cin, std::cout);
  });
}

}  // namespace hane::tools
