#include "tools/cli.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>
#include <thread>

#include "corpus/source.h"
#include "go/vertex.h"
#include "predict/model_file.h"
#include "cluster/cluster.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace fs = std::filesystem;
namespace {

// --- value checks ---------------------------------------------------------------------------

// A bound as written: 0, 0.001, 3600, 1099511627776.
std::string bound_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", x);
  return buf;
}

// Bounds this large stand for "no upper bound" (DBL_MAX, INT64_MAX): never printed.
bool unbounded(double hi) { return hi >= 9e15; }

bool holds_game_records(const fs::path& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().string();
    if (it->is_regular_file(ec) && (is_record_path(name) || is_archive_path(name))) return true;
  }
  return false;
}

std::string check_input(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return path + ": no such file or folder";
  if (fs::is_directory(st)) {
    if (!holds_game_records(path)) return path + ": folder holds no game records (.sgf, .mgt) or archives";
    return "";
  }
  if (::access(path.c_str(), R_OK) != 0) return path + ": cannot read: " + std::strerror(errno);
  if (!is_record_path(path) && !is_archive_path(path)) {
    // Often a value meant for the option before it, which takes one value per occurrence:
    // "eval games/ -m a.model b.model".
    if (file_kind(path) == FileKind::kModel) {
      return path + ": a model file, not games: each option takes one value, so give every model its own "
                    "option (-m a.model -m b.model)";
    }
    return path + ": " + std::string(kNotAnInput);
  }
  return "";
}

std::string check_readable_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return path + ": no such file";
  if (fs::is_directory(path, ec)) return path + ": is a folder, not a file";
  if (::access(path.c_str(), R_OK) != 0) return path + ": cannot read: " + std::strerror(errno);
  return "";
}

std::string check_model_input(const std::string& path) {
  if (path == "uniform") return "";
  std::error_code ec;
  if (!fs::exists(path, ec)) return path + ": no such model file (or 'uniform')";
  if (fs::is_directory(path, ec)) return path + ": is a folder, not a model file";
  if (::access(path.c_str(), R_OK) != 0) return path + ": cannot read: " + std::strerror(errno);
  return "";
}

// A model file named by an option other than --model (--base, --tree, --init, --prior, ...), or
// "none" or "uniform": missing is a usage error (exit 2) in every command, as gtp's --prior is.
std::string check_model_option(const std::string& path) {
  if (path == "none" || path == "uniform") return "";  // (uniform: a guesser without a file)
  std::error_code ec;
  if (!fs::exists(path, ec)) return path + ": no such model file (or none)";
  return check_model_input(path);
}

// Whether a file can be made in the folder `dir`: "" or why not. One is made there and removed
// at once: access(2) says yes to root everywhere, and to folders such as /proc and /sys where no
// file can be made.
std::string make_file_problem(const fs::path& dir) {
  std::string probe = (dir / ".hane-write-test-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

std::string check_output(const std::string& path) {
  if (path.empty()) return "empty file name";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "cannot write " + path + ": is a folder";
  // An existing regular file is replaced whole (util/files.h write_file_atomically: a new file
  // beside it, renamed over it), so its folder must take a new file, as for a new one; anything
  // else that exists (a terminal, a pipe) is asked with access(2) alone.
  if (fs::exists(path, ec)) {
    if (::access(path.c_str(), W_OK) != 0) return "cannot write " + path + ": " + std::strerror(errno);
    if (!fs::is_regular_file(path, ec)) return "";
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return "cannot write " + path + ": folder " + dir.string() + " does not exist";
  const std::string problem = make_file_problem(dir);
  return problem.empty() ? "" : "cannot write " + path + ": folder " + dir.string() + ": " + problem;
}

// An output folder (match, tune and analyze --out, eval --plot): an existing writable folder, or
// one that can be made with the folders above it (std::filesystem::create_directories, as the
// commands make it): its nearest existing ancestor is a writable folder.
std::string check_output_folder(const std::string& path) {
  if (path.empty()) return "empty folder name";
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec)) return "cannot write into " + path + ": not a folder";
    const std::string problem = make_file_problem(path);
    return problem.empty() ? "" : "cannot write into " + path + ": " + problem;
  }
  fs::path dir = fs::path(path).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "a/b/"
  do {
    dir = dir.parent_path();
  } while (!dir.empty() && !fs::exists(dir, ec));
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return "cannot make " + path + ": " + dir.string() + " is not a folder";
  const std::string problem = make_file_problem(dir);
  return problem.empty() ? "" : "cannot make " + path + ": " + dir.string() + ": " + problem;
}

// --threads: 0 (one per core) to 1024 for the corpus readers and trainers, 1 to 256 for an
// engine's search threads (its own range, checked here before the cap to the cores).
std::string check_threads(std::string& value, bool search) {
  long long n = 0;
  try {
    size_t used = 0;
    n = std::stoll(value, &used);
    if (used != value.size()) throw std::invalid_argument(value);
  } catch (const std::exception&) {
    return "not a whole number: " + value;
  }
  if (search && (n < 1 || n > 256)) return "1 to 256 (an engine's search threads), not " + value;
  if (n < 0 || n > 1024) return "0 (one per core) to 1024, not " + value;
  const long long cores = std::max(1u, std::thread::hardware_concurrency());
  if (n > cores) {
    std::fprintf(stderr, "hane: warning: --threads %lld is more than the %lld cores: using %lld\n", n, cores, cores);
    value = std::to_string(cores);
  }
  return "";
}

std::string check_size(const std::string& value) {
  try {
    size_t used = 0;
    const int n = std::stoi(value, &used);
    if (used == value.size() && (n == 0 || (n >= Geometry::kMinSize && n <= Geometry::kMaxSize))) return "";
  } catch (const std::exception&) {
  }
  return "board size: 0 (any) or 2..25, not " + value;
}

CLI::Validator validator(std::function<std::string(std::string&)> f, const std::string& description) {
  return CLI::Validator(std::move(f), description);
}

// A number within [lo, hi] (lo excluded when `open_lo`; a whole number when `whole`), with a
// message that says so plainly and names no bound that stands for "none" (unbounded()).
CLI::Validator number_check(double lo, double hi, bool open_lo, bool whole = false) {
  return validator(
      [=](std::string& v) -> std::string {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        const bool number = !v.empty() && end == v.c_str() + v.size() && !std::isnan(d);
        if (!number || (whole && d != std::floor(d))) return std::string(whole ? "not a whole number: " : "not a number: ") + v;
        const bool low = open_lo ? !(d > lo) : !(d >= lo);
        if (!low && d <= hi) return "";
        if (unbounded(hi)) return std::string(open_lo ? "must be > " : "must be >= ") + bound_text(lo) + ", not " + v;
        return "must be " + std::string(open_lo ? "more than " : "") + bound_text(lo) + (open_lo ? ", at most " : "..") + bound_text(hi) + ", not " + v;
      },
      "");
}

bool whole_number_option(const CLI::Option* o) {
  const std::string type = o->get_type_name();
  return type.starts_with("INT") || type.starts_with("UINT");
}

// CLI11's own range checks (CLI::Range, CLI::PositiveNumber, CLI::NonNegativeNumber) print
// their bounds with std::to_string: "not in range 0.000000 to 1797693134862315708145274237317
// 04356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234
// 321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304
// 583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368
// .000000". Each is given number_check's plain message instead, with the same bounds, read from
// its description ("POSITIVE", "NONNEGATIVE", or "TYPE in [LO - HI]").
void readable_ranges(CLI::Option* o) {
  for (int i = 0;; ++i) {
    CLI::Validator* v = nullptr;
    try {
      v = o->get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    const bool whole = whole_number_option(o);
    const std::string d = v->get_description();
    if (d == "POSITIVE") {
      v->operation(number_check(0, std::numeric_limits<double>::max(), true, whole));
      continue;
    }
    if (d == "NONNEGATIVE") {
      v->operation(number_check(0, std::numeric_limits<double>::max(), false, whole));
      continue;
    }
    const size_t in = d.find(" in ["), dash = d.find(" - ", in == std::string::npos ? 0 : in + 6);
    if (in == std::string::npos || dash == std::string::npos || !d.ends_with("]")) continue;
    const std::string lo_text = d.substr(in + 5, dash - in - 5), hi_text = d.substr(dash + 3, d.size() - dash - 4);
    char* end_lo = nullptr;
    char* end_hi = nullptr;
    const double lo = std::strtod(lo_text.c_str(), &end_lo), hi = std::strtod(hi_text.c_str(), &end_hi);
    if (lo_text.empty() || hi_text.empty() || *end_lo != '\0' || *end_hi != '\0') continue;
    v->operation(number_check(lo, hi, false, whole));
  }
}

bool has_name(const CLI::Option* o, const std::string& name) {
  for (const std::string& n : o->get_lnames()) {
    if (n == name) return true;
  }
  return o->get_name() == name;
}

void harden_app(CLI::App* app) {
  for (CLI::Option* o : app->get_options()) {
    // One value per occurrence: "-m a.model games/" must not read games/ as a second model.
    if (!o->get_positional()) o->allow_extra_args(false);
    readable_ranges(o);
    if (has_name(o, "paths") || has_name(o, "openings")) {
      o->check(validator([](std::string& v) { return check_input(v); }, ""));
    } else if (has_name(o, "bots")) {
      o->check(validator([](std::string& v) { return check_readable_file(v); }, ""));
    } else if (has_name(o, "file") || (has_name(o, "model") && (app->get_name() == "eval" || app->get_name() == "bench"))) {
      o->check(validator([](std::string& v) { return check_model_input(v); }, ""));
    } else if (has_name(o, "base") || has_name(o, "tree") || has_name(o, "init") || has_name(o, "search-prior") ||
               has_name(o, "guesser") || has_name(o, "joseki") ||
               (has_name(o, "prior") && (app->get_name() == "gtp" || app->get_name() == "play" || app->get_name() == "analyze"))) {
      o->check(validator([](std::string& v) { return check_model_option(v); }, ""));
    } else if (((app->get_name() == "match" || app->get_name() == "tune" || app->get_name() == "analyze") &&
                has_name(o, "out")) ||
               has_name(o, "plot")) {
      o->check(validator([](std::string& v) { return check_output_folder(v); }, ""));
    } else if ((app->get_name() == "match" || app->get_name() == "tune") && has_name(o, "json")) {
      // May name a file inside the --out folder, which the match makes: its folder must be makeable.
      o->check(validator([](std::string& v) {
        const fs::path dir = fs::path(v).parent_path();
        return dir.empty() ? check_output(v) : check_output_folder(dir.string());
      }, ""));
    } else if (has_name(o, "out") || has_name(o, "json")) {
      o->check(validator([](std::string& v) { return check_output(v); }, ""));
    } else if (has_name(o, "threads")) {
      // transform, not check: CLI11 hands a check a copy, and the cap must reach the value.
      const bool search = o->get_group() == "Engine";
      o->transform(validator([search](std::string& v) { return check_threads(v, search); }, ""));
    } else if (has_name(o, "max-games") || has_name(o, "min-moves")) {
      o->check(number_check(0, std::numeric_limits<double>::max(), false));
    } else if (has_name(o, "size")) {
      o->check(validator([](std::string& v) { return check_size(v); }, ""));
    } else if (has_name(o, "seed")) {
      // Unsigned: CLI11 would read "-1" as the largest seed.
      o->check(validator([](std::string& v) -> std::string {
        const bool digits = !v.empty() && v.size() <= 20 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
        return digits ? "" : "a whole number from 0, not " + v;
      }, ""));
    } else if (has_name(o, "seconds")) {
      o->check(number_check(0, 3600.0, true));
    } else if (has_name(o, "komi")) {
      o->check(validator([](std::string& v) -> std::string {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        return !v.empty() && end == v.c_str() + v.size() && std::isfinite(d) ? "" : "komi: a finite number of points, not " + v;
      }, ""));
    }
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) harden_app(sub);
}

// --- the command line as a whole ------------------------------------------------------------

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    path = a->get_parent() == nullptr ? "hane" + path : " " + a->get_name() + path;
  }
  return path;
}

const CLI::Option* find_long(const CLI::App* app, const std::string& name) {
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      if (!o->get_positional() && has_name(o, name)) return o;
    }
    if (a->get_parent() != nullptr && !a->get_fallthrough()) {
      // Options of the parents do not apply after a subcommand, except --help.
      if (name == "help") continue;
      break;
    }
  }
  return nullptr;
}

const CLI::Option* find_short(const CLI::App* app, char c) {
  for (const CLI::Option* o : app->get_options()) {
    for (const std::string& n : o->get_snames()) {
      if (n.size() == 1 && n[0] == c) return o;
    }
  }
  return nullptr;
}

std::vector<std::string> long_names(const CLI::App* app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app->get_options()) {
    for (const std::string& n : o->get_lnames()) out.push_back(n);
  }
  return out;
}

bool takes_value(const CLI::Option* o) { return o->get_type_size_max() > 0 && o->get_expected_max() > 0; }

// "--engine" of "-e,--engine": the long name, as messages name an option.
std::string long_flag(const std::string& names) {
  std::string first;
  size_t at = 0;
  while (at <= names.size()) {
    const size_t comma = std::min(names.find(',', at), names.size());
    const std::string n = names.substr(at, comma - at);
    if (n.starts_with("--")) return n;
    if (first.empty()) first = n;
    at = comma + 1;
  }
  return first;
}

bool is_number(const std::string& s) {
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

}  // namespace

void harden(CLI::App& app) {
  harden_app(&app);
  // CLI11's own messages (a bad value, a missing option) start "hane: " as ours do, and the
  // commonest are said in our words.
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    std::string what = e.what();
    constexpr std::string_view kAtMost = ": At Most 1 required but received ";
    if (what == "A subcommand is required") {
      what = "a command is needed here (--help lists them)";
    } else if (what == "paths is required") {
      what = "PATH... is required: game records, folders or archives";
    } else if (const size_t at = what.find(kAtMost); at != std::string::npos) {
      what = what.substr(0, at) + " given " + what.substr(at + kAtMost.size()) + " times: give it once";
    }
    return "hane: " + what + "\n" + CLI::FailureMessage::simple(a, e).substr(std::string(e.what()).size() + 1);
  });
}

CLI::Option* one_value_each(CLI::Option* option, const std::string& value_name) {
  option->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
  option->type_name(value_name);
  const std::string flag = option->get_lnames().empty() ? option->get_name() : "--" + option->get_lnames().front();
  const std::string& help = option->get_description();
  const std::string example = flag + " A " + flag + " B";
  option->description(help.find('\n') == std::string::npos ? help + "; repeatable: " + example
                                                             : help + "\nRepeatable: " + example);
  return option;
}

void check_repeats(const std::string& name, const std::vector<std::string>& values, Repeats repeats) {
  if (repeats == Repeats::kAny) return;
  auto key = [&](const std::string& v) { return repeats == Repeats::kDistinctKeys ? v.substr(0, v.find('=')) : v; };
  auto same = [&](const std::string& a, const std::string& b) {
    if (key(a) == key(b)) return true;
    if (repeats != Repeats::kDistinct) return false;
    std::error_code ec;
    return fs::is_regular_file(a, ec) && fs::is_regular_file(b, ec) && fs::equivalent(a, b, ec);
  };
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (!same(values[j], values[i])) continue;
      if (repeats == Repeats::kDistinctKeys) {
        throw UsageError(name + " " + key(values[i]) + " given twice (" + values[j] + ", " + values[i] +
                         "): give each key once");
      }
      throw UsageError(name + " " + values[i] + " given twice" +
                       (values[i] == values[j] ? "" : " (as " + values[j] + ")") + ": give each once");
    }
  }
}

CLI::Option* add_repeatable(CLI::App* cmd, const std::string& name, std::vector<std::string>& values,
                            const std::string& value_name, const std::string& help, Repeats repeats) {
  CLI::Option* option = cmd->add_option_function<std::vector<std::string>>(
      name,
      [&values, repeats, flag = long_flag(name)](const std::vector<std::string>& given) {
        try {
          check_repeats(flag, given, repeats);
        } catch (const UsageError& e) {
          throw CLI::ValidationError(e.what());  // a parse error wherever the options are parsed (tune's hane: engines)
        }
        values = given;
      },
      help);
  one_value_each(option, value_name);
  return option;
}

CLI::Validator positive_number() { return number_check(0, std::numeric_limits<double>::max(), true); }
CLI::Validator non_negative_number() { return number_check(0, std::numeric_limits<double>::max(), false); }

std::string output_problem(const std::string& path) { return check_output(path); }

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    const bool prefix = std::min(word.size(), c.size()) >= 3 && (c.starts_with(word) || word.starts_with(c));
    if (d < best_distance || (prefix && best.empty())) {
      best = c;
      best_distance = prefix ? 0 : d;
    }
  }
  return best;
}

namespace {

// A command line read as CLI11 will read it: the values given (an option's value, or a
// positional word with flag "PATH"), each with the (sub)command it belongs to, and the first
// unknown option or command as a message ("" if none; reading stops there).
struct CommandLine {
  struct Value {
    const CLI::App* command;
    const CLI::Option* option;  // nullptr for a positional word
    std::string flag, value;
  };
  std::vector<Value> values;
  std::string problem;
};

std::string unknown_command(const CLI::App* cur, const std::string& word, const std::vector<std::string>& names) {
  const std::string guess = did_you_mean(word, names);
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
  return "unknown command '" + word + "' for '" + command_path(cur) + "'" +
         (guess.empty() ? "" : "; did you mean '" + guess + "'?") + " (commands: " + all + ")";
}

// The message for an option `a` (starting with '-') that `cur` does not know, or "" if it knows it.
std::string unknown_option(const CLI::App* cur, const std::string& a) {
  const bool dashes = a.starts_with("--");
  const size_t eq = a.find('=');
  const std::string body = a.substr(dashes ? 2 : 1, eq == std::string::npos ? std::string::npos : eq - (dashes ? 2 : 1));
  auto hint = [&](const std::string& word) {
    const std::string guess = did_you_mean(word, long_names(cur));
    return guess.empty() ? "" : "; did you mean --" + guess + "?";
  };
  if (dashes) {
    return find_long(cur, body) != nullptr ? "" : "unknown option --" + body + " for '" + command_path(cur) + "'" + hint(body);
  }
  if (body.size() >= 2 && find_long(cur, body) != nullptr) return "single-dash long option " + a + ": write --" + body;
  if (body.size() >= 2 && find_short(cur, body[0]) == nullptr) {
    return "unknown option " + a + " for '" + command_path(cur) + "'" + hint(body);
  }
  if (find_short(cur, a[1]) != nullptr) return "";
  // One letter: the long options that start with it, as a guess ("-q": --quiet).
  std::vector<std::string> starting;
  for (const std::string& n : long_names(cur)) {
    if (n[0] == a[1]) starting.push_back(n);
  }
  return "unknown option -" + std::string(1, a[1]) + " for '" + command_path(cur) + "'" +
         (starting.size() == 1 ? "; did you mean --" + starting[0] + "?" : "");
}

CommandLine read_command_line(const CLI::App& app, int argc, const char* const* argv) {
  CommandLine line;
  const CLI::App* cur = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      for (++i; i < argc; ++i) line.values.push_back({cur, nullptr, "PATH", argv[i]});
      break;
    }
    if (a.size() >= 2 && a[0] == '-' && !is_number(a)) {
      line.problem = unknown_option(cur, a);
      if (!line.problem.empty()) return line;
      const bool dashes = a.starts_with("--");
      const size_t eq = a.find('=');
      const CLI::Option* o = dashes ? find_long(cur, a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2))
                                    : find_short(cur, a[1]);
      if (!takes_value(o)) continue;
      std::string value;
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
      } else if (!dashes && a.size() > 2) {
        value = a.substr(2);  // -oFILE
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        continue;  // CLI11 reports the missing value
      }
      line.values.push_back({cur, o, long_flag(o->get_name()), value});
      continue;
    }
    // A word: a subcommand, or a positional value.
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : cur->get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
      if (sub->check_name(a)) next = sub;
    }
    if (next != nullptr) {
      cur = next;
      continue;
    }
    const bool has_positionals = !cur->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
    if (!names.empty() && !has_positionals) {
      line.problem = unknown_command(cur, a, names);
      return line;
    }
    line.values.push_back({cur, nullptr, "PATH", a});
  }
  return line;
}

bool is_output_file_option(const CLI::App* app, const CLI::Option* o) {
  if (o == nullptr) return false;
  const std::string& cmd = app->get_name();
  if (has_name(o, "out")) return cmd != "match" && cmd != "tune" && cmd != "analyze";  // theirs are folders
  return has_name(o, "json") || has_name(o, "sgf");
}

// The paths a value may name: itself, each of its words (a `hane:` engine's options), and of
// each the MODEL of "NAME:MODEL" or the value of "KEY=VALUE".
std::vector<std::string> named_paths(const std::string& value) {
  std::vector<std::string> out{value};
  std::vector<std::string> words;
  for (size_t at = 0; at < value.size();) {
    const size_t end = std::min(value.find_first_of(" \t", at), value.size());
    if (end > at) words.push_back(value.substr(at, end - at));
    at = end + 1;
  }
  if (words.size() > 1) out.insert(out.end(), words.begin(), words.end());
  const size_t n = out.size();
  for (size_t i = 0; i < n; ++i) {
    for (const char sep : {':', '='}) {
      const size_t at = out[i].rfind(sep);
      if (at != std::string::npos && at + 1 < out[i].size()) out.push_back(out[i].substr(at + 1));
    }
  }
  return out;
}

const char* kind_name(FileKind k) {
  switch (k) {
    case FileKind::kMissing: return "nothing";
    case FileKind::kModel: return "a hane model";
    case FileKind::kJson: return "JSON";
    case FileKind::kSgf: return "a game record";
    case FileKind::kArchive: return "an archive";
    case FileKind::kOther: return "a file of another kind";
  }
  return "?";
}

// The kind of file an output option writes.
FileKind written_kind(const std::string& flag) {
  if (flag == "--json") return FileKind::kJson;
  if (flag == "--sgf") return FileKind::kSgf;
  return FileKind::kModel;  // --out of the trainers
}

// The files the command line reads and writes, kept by check_command_line for check_extra_output.
struct Named {
  std::vector<std::pair<std::string, std::string>> inputs, outputs;  // flag, path
};
Named& named() {
  static Named n;
  return n;
}

fs::path canonical_path(const std::string& p) {
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(p, ec), ec);
}

// Why `path` may not be written as `kind`, the end of a message ("the same file as --base
// b.model; ..."), or "": it is a file the command line reads (named().inputs), a game record or
// archive inside a folder it reads, or an existing file of another kind.
std::string write_clash(const std::string& path, FileKind kind) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return "";
  const fs::path written = canonical_path(path);
  for (const auto& [flag, p] : named().inputs) {
    if (!fs::exists(p, ec)) continue;
    const bool same = fs::equivalent(p, path, ec);
    bool inside = false;
    if (!same && fs::is_directory(p, ec) && (is_record_path(path) || is_archive_path(path))) {
      const fs::path folder = canonical_path(p);
      inside = std::mismatch(folder.begin(), folder.end(), written.begin(), written.end()).first == folder.end();
    }
    if (same || inside) {
      return std::string(same ? "the same file as " : "inside the folder read as ") +
             (flag == "PATH" ? "the input " : flag + " ") + p + "; hane never writes over what it reads: name another file";
    }
  }
  const FileKind now = fs::is_regular_file(path, ec) ? file_kind(path) : FileKind::kMissing;
  if (now == FileKind::kMissing || now == kind) return "";
  return std::string("the file exists and holds ") + kind_name(now) + ", not " +
         (kind == FileKind::kOther ? "plot data" : kind_name(kind)) +
         "; hane replaces only a file of the kind it writes: remove it or name another";
}

// "" unless an output of `line` is one of its inputs or another output (see check_command_line).
std::string outputs_apart(const CommandLine& line) {
  std::vector<const CommandLine::Value*> outputs, inputs;
  for (const CommandLine::Value& v : line.values) {
    (is_output_file_option(v.command, v.option) ? outputs : inputs).push_back(&v);
  }
  named() = {};
  for (const CommandLine::Value* in : inputs) {
    for (const std::string& p : named_paths(in->value)) named().inputs.push_back({in->flag, p});
  }
  for (const CommandLine::Value* out : outputs) named().outputs.push_back({out->flag, out->value});
  for (size_t k = 0; k < outputs.size(); ++k) {
    const CommandLine::Value& out = *outputs[k];
    for (size_t j = 0; j < k; ++j) {
      if (canonical_path(outputs[j]->value) == canonical_path(out.value)) {
        return out.flag + " " + out.value + ": also the file of " + outputs[j]->flag + ": name two files";
      }
    }
    if (std::string clash = write_clash(out.value, written_kind(out.flag)); !clash.empty()) {
      return out.flag + " " + out.value + ": " + clash;
    }
  }
  return "";
}

}  // namespace

std::string check_command_line(const CLI::App& app, int argc, const char* const* argv) {
  const CommandLine line = read_command_line(app, argc, argv);
  return line.problem.empty() ? outputs_apart(line) : line.problem;
}

int run(CLI::App& app, int argc, char** argv) {
  install_interrupt_handler(/*sigterm_too=*/cluster::size() > 1);  // (see util/interrupt.h)
  harden(app);
  if (argc < 2) {
    // `hane` alone: the commands, as --help lists them.
    std::fputs(app.help().c_str(), stderr);
    std::fprintf(stderr, "hane: a command is needed (hane COMMAND --help for its options)\n");
    return kExitUsage;
  }
  if (const std::string problem = check_command_line(app, argc, argv); !problem.empty()) {
    std::fprintf(stderr, "hane: %s\nRun with --help for more information.\n", problem.c_str());
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "hane: %s\nRun with --help for more information.\n", e.what());
    return kExitUsage;
  } catch (const CLI::RuntimeError& e) {
    // Thrown by a command to end with its own code (match: 130 when interrupted).
    const int code = e.get_exit_code();
    return code == kExitOk || code == kExitInterrupted ? code : kExitFailure;
  } catch (const CLI::ParseError& e) {
    // CLI11's codes: 0 for --help and --version (CallForHelp, CallForVersion), else a bad
    // command line (ConversionError, ValidationError, RequiredError, ExtrasError, ...).
    const int code = app.exit(e);  // prints help, version or the error
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hane: %s\n", e.what());
    return interrupted() ? kExitInterrupted : kExitFailure;
  }
  if (interrupted()) {
    if (cluster::is_root()) std::fprintf(stderr, "hane: interrupted; what was kept is listed above\n");
    return kExitInterrupted;
  }
  return kExitOk;
}

void note_training_board_sizes(const std::map<int, int64_t>& sizes) { set_training_board_sizes(sizes); }

namespace {

// The board sizes a model file records (board_sizes_seen, else board_size); nullopt when the
// model is not a readable file.
std::optional<std::vector<int>> trained_sizes(const std::string& model_path) {
  std::error_code ec;
  if (!fs::is_regular_file(model_path, ec)) return std::nullopt;
  const auto file = read_model_file(model_path);
  if (!file.ok()) return std::nullopt;
  std::vector<int> trained;
  if (file->header.contains("board_sizes_seen")) {
    for (const auto& [size, n] : file->header["board_sizes_seen"].items()) trained.push_back(std::stoi(size));
  } else if (file->header.contains("board_size")) {
    trained.push_back(file->header["board_size"].get<int>());
  }
  return trained;
}

std::string sizes_text(const std::vector<int>& sizes) {
  std::string out;
  for (int s : sizes) out += (out.empty() ? "" : ", ") + std::to_string(s) + "x" + std::to_string(s);
  return out;
}

}  // namespace

void warn_if_other_board_sizes(const std::string& model_path, const std::map<int, int64_t>& game_sizes) {
  if (!cluster::is_root()) return;  // (every rank reads the same games)
  const auto trained = trained_sizes(model_path);
  if (!trained) return;
  std::vector<int> others;
  int64_t games = 0;
  for (const auto& [size, n] : game_sizes) {
    if (std::find(trained->begin(), trained->end(), size) != trained->end()) continue;
    others.push_back(size);
    games += n;
  }
  if (others.empty()) return;
  std::fprintf(stderr, "hane: warning: %s was trained on %s boards; %s games here are on %s\n", model_path.c_str(),
               trained->empty() ? "unrecorded" : sizes_text(*trained).c_str(), with_thousands(games).c_str(),
               sizes_text(others).c_str());
}

void warn_if_model_not_for(const std::string& model_path, const std::vector<int>& sizes, const std::string& use,
                           const std::string& after) {
  const auto trained = trained_sizes(model_path);
  if (!trained) return;
  std::vector<int> others;
  for (int size : sizes) {
    if (std::find(trained->begin(), trained->end(), size) == trained->end()) others.push_back(size);
  }
  if (others.empty()) return;
  std::fprintf(stderr, "hane: warning: %s was trained on %s boards; %s %s%s\n", model_path.c_str(),
               trained->empty() ? "unrecorded" : sizes_text(*trained).c_str(), use.c_str(), sizes_text(others).c_str(),
               after.c_str());
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

FileKind file_kind(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return FileKind::kMissing;
  std::string head(512, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.empty()) return FileKind::kMissing;
  if (head.starts_with(kModelMagic) && head.size() > kModelMagic.size() && head[kModelMagic.size()] == '\n') {
    return FileKind::kModel;
  }
  for (const std::string_view magic : {std::string_view("\x1f\x8b"), std::string_view("BZh"), std::string_view("\xfd" "7zXZ"),
                                       std::string_view("PK\x03\x04"), std::string_view("7z\xbc\xaf")}) {
    if (head.starts_with(magic)) return FileKind::kArchive;
  }
  if (head.size() >= 262 && head.compare(257, 5, "ustar") == 0) return FileKind::kArchive;
  size_t at = head.starts_with("\xef\xbb\xbf") ? 3 : 0;  // a UTF-8 byte-order mark
  while (at < head.size() && std::isspace(static_cast<unsigned char>(head[at]))) ++at;
  if (at == head.size()) return FileKind::kOther;
  if (head[at] == '{' || head[at] == '[') return FileKind::kJson;
  if (head[at] == '(') return FileKind::kSgf;
  return FileKind::kOther;
}

void check_extra_output(const std::string& flag, const std::string& path, FileKind kind) {
  for (const auto& [out_flag, p] : named().outputs) {
    if (canonical_path(p) == canonical_path(path)) {
      throw UsageError(flag + " would write " + path + ", the file of " + out_flag + " " + p + ": name two files");
    }
  }
  if (std::string clash = write_clash(path, kind); !clash.empty()) throw UsageError(flag + " would write " + path + ", " + clash);
}

std::string snapshot_path(const std::string& out, int count) {
  const fs::path p(out);
  const fs::path s = p.parent_path() / (p.stem().string() + "-" + std::to_string(count));
  return s.string() + p.extension().string();
}

std::string process_command_line() {
  std::string line;
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  for (std::string arg; std::getline(cmdline, arg, '\0');) line += (line.empty() ? "" : " ") + arg;
  return line;
}

}  // namespace hane::tools
