// Engines of a match: specs from the command line, and a running engine (a GTP child process
// with the commands it knows), restarted after faults.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine_process/gtp_client.h"

namespace hane {

/// How to run one engine.
struct EngineSpec {
  std::string name;               // unique within a match, used in reports, SGF PB/PW
  std::string spec;               // as given, e.g. "gtp:gnugo --mode gtp --level 1"
  std::vector<std::string> argv;  // program and arguments; "{seed}" is replaced per game
  /// True when argv contains "{seed}": the engine is started afresh for every game with
  /// that game's seed. Otherwise one process plays game after game (restarted after a fault)
  /// and gets no seed.
  bool per_game = false;
};

/// Parses "NAME=gtp:COMMAND LINE" (any GTP program; the command line is split as a shell
/// would) or "NAME=hane:ARGS" (a child `<hane_exe> gtp ARGS --seed {seed}`, so each game has
/// its own seed). Without "NAME=" the name is "engine<index + 1>". InvalidArgument naming the
/// spec when it has no known prefix or an empty command.
absl::StatusOr<EngineSpec> parse_engine_spec(std::string_view text, const std::string& hane_exe, int index);

/// One engine process driven by one thread.
class EngineProcess {
 public:
  explicit EngineProcess(EngineSpec spec) : spec_(std::move(spec)) {}

  const EngineSpec& spec() const { return spec_; }
  GtpClient& client() { return client_; }

  /// Makes sure a process is running for a game with `seed`: starts one when none runs, when
  /// the last one broke, or always when spec().per_game. A fresh process is asked name,
  /// version and list_commands (answers kept below; when list_commands is refused every
  /// command is taken as known). Errors name the engine: it could not be started, or did not
  /// answer within `timeout_s`.
  absl::Status ensure_started(uint64_t seed, double timeout_s);
  /// Stops the process (e.g. after a fault), keeping its last stderr lines in last_stderr().
  void stop();

  /// Whether the engine listed `command` (true when it could not list its commands).
  bool knows(std::string_view command) const;
  const std::string& gtp_name() const { return gtp_name_; }
  const std::string& gtp_version() const { return gtp_version_; }
  /// The stderr tail of the last stopped process, or of the running one.
  std::vector<std::string> last_stderr() const;

 private:
  EngineSpec spec_;
  GtpClient client_;
  std::set<std::string, std::less<>> commands_;
  bool listed_ = false;
  std::string gtp_name_, gtp_version_;
  std::vector<std::string> stopped_tail_;
};

}  // namespace hane
