#include "match/engine.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hane {

absl::StatusOr<EngineSpec> parse_engine_spec(std::string_view text, const std::string& hane_exe, int index) {
  EngineSpec e;
  std::string_view rest = text;
  const size_t colon = text.find(':');
  const size_t eq = text.find('=');
  if (eq != std::string_view::npos && (colon == std::string_view::npos || eq < colon)) {
    e.name = std::string(absl::StripAsciiWhitespace(std::string(text.substr(0, eq))));
    rest = text.substr(eq + 1);
  }
  if (e.name.empty()) e.name = absl::StrCat("engine", index + 1);
  e.spec = std::string(rest);
  std::string line;
  if (rest.starts_with("gtp:")) {
    line = std::string(rest.substr(4));
  } else if (rest.starts_with("hane:")) {
    line = absl::StrCat("'", hane_exe, "' gtp ", std::string(rest.substr(5)), " --seed {seed}");
  } else {
    return absl::InvalidArgumentError(absl::StrCat("engine '", std::string(text), "': expected NAME=gtp:COMMAND or NAME=hane:ARGS"));
  }
  auto argv = split_command_line(line);
  if (!argv.ok()) return absl::InvalidArgumentError(absl::StrCat("engine '", std::string(text), "': ", argv.status().message()));
  e.argv = std::move(*argv);
  for (const std::string& a : e.argv) e.per_game |= a.find("{seed}") != std::string::npos;
  return e;
}

absl::Status EngineProcess::ensure_started(uint64_t seed, double timeout_s) {
  if (client_.running() && !spec_.per_game) return absl::OkStatus();
  stop();
  std::vector<std::string> argv = spec_.argv;
  for (std::string& a : argv) {
    for (size_t p; (p = a.find("{seed}")) != std::string::npos;) a.replace(p, 6, std::to_string(seed));
  }
  if (absl::Status s = client_.start(argv); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("engine ", spec_.name, ": ", s.message()));
  }
  auto fail = [&](const std::string& what, const absl::Status& s) {
    const std::string msg = absl::StrCat("engine ", spec_.name, " (", spec_.spec, "): ", what, ": ", s.message());
    stop();
    return absl::UnavailableError(msg);
  };
  auto name = client_.command("name", timeout_s);
  if (!name.ok()) return fail("no answer to 'name'", name.status());
  if (!name->ok) return fail("'name' refused", absl::UnknownError(name->text));
  gtp_name_ = name->text;
  auto version = client_.command("version", timeout_s);
  if (!version.ok()) return fail("no answer to 'version'", version.status());
  gtp_version_ = version->ok ? version->text : "";
  auto list = client_.command("list_commands", timeout_s);
  if (!list.ok()) return fail("no answer to 'list_commands'", list.status());
  commands_.clear();
  listed_ = list->ok;
  if (listed_) {
    for (absl::string_view c : absl::StrSplit(list->text, '\n', absl::SkipWhitespace())) {
      commands_.emplace(std::string(absl::StripAsciiWhitespace(c)));
    }
  }
  return absl::OkStatus();
}

void EngineProcess::stop() {
  if (client_.pid() > 0) {
    client_.stop();
    stopped_tail_ = client_.stderr_tail();
  }
}

bool EngineProcess::knows(std::string_view command) const { return !listed_ || commands_.contains(std::string(command)); }

std::vector<std::string> EngineProcess::last_stderr() const {
  return client_.pid() > 0 ? client_.stderr_tail() : stopped_tail_;
}

}  // namespace hane
