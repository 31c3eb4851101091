// One behaviour for every `hane` subcommand: arguments checked before any work, the same exit
// codes, Ctrl-C handled.
//
// Exit codes: 0 success (and --help, --version), 1 the work failed, 2 usage (a bad command
// line: unknown command or option, a bad value, an input that is not there, an output that
// cannot be written), 130 interrupted (Ctrl-C). CLI11's own codes are mapped onto these.
//
// Checks, attached by option name to every subcommand by harden() (so new commands get them
// by naming their options the same way):
//   PATH... ("paths"), --openings  each exists; a folder holds at least one .sgf/.mgt or archive;
//                                a file is a game record or an archive (a model file there is
//                                named as one: "-m a.model b.model")
//   --bots                       an existing, readable file
//   FILE ("file"), --model       an existing file ("uniform" is a model too)
//   --base, --tree, --init, --search-prior, --guesser, --joseki, and --prior of gtp, play and
//                                analyze: an existing model file, or none
//   --out, --json                the file can be created or overwritten (the folder exists and
//                                is writable), with the system's reason if not; match, tune
//                                and analyze --out, eval --plot: a folder, made with the
//                                folders above it when missing
//   CLI11's range checks         their messages name the bounds plainly ("must be 0..1, not 2",
//                                "must be > 0, not 0"), never DBL_MAX
//   --threads                    0 (one per core) .. 1024; more than the cores is capped to
//                                the number of cores with a warning (timings would be spoiled)
//   --max-games, --min-moves     >= 0
//   --size                       0 (any) or 2..25
//   --seconds                    more than 0, at most 3600
//   --komi                       a finite number
// Every option takes one value per occurrence (repeat it for more: -m a -m b; add_repeatable).
// And, on the whole command line before parsing: unknown subcommands and options are refused
// with "did you mean ...", and single-dash long options ("-out") are refused.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hane::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

/// A bad command line found while the command runs (a value only the command can read, such as
/// --min-rank 7x or a match engine spec): run() prints "hane: <what>" and exits with kExitUsage.
/// Any other exception from a command is a failure of the work (kExitFailure).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Attaches the checks above to every option of every subcommand of `app`, by name.
void harden(CLI::App& app);

/// What a repeated option refuses: nothing; the same value twice (files compared as files:
/// a.model and ./a.model are one); for KEY=VALUE options the same KEY twice.
enum class Repeats { kAny, kDistinct, kDistinctKeys };

/// The one rule for every option that can take several values (-m, --label, --policy,
/// --policy-set, --openings, -e, tune's --param): one value per occurrence, the option repeated
/// for more (`-m a.model -m b.model`), as KataGo's and gomill's command lines take them; a word
/// after the value is not the option's (it is a PATH, or an error). Adds the option to `cmd`,
/// its values kept in order in `values`. Its help shows `value_name` (not CLI11's "TEXT ...")
/// and ends "; repeatable: NAME A NAME B". A value or KEY given twice, as `repeats` says, is a
/// usage error naming it (exit 2): "--policy-set rules.capture given twice (rules.capture=1,
/// rules.capture=2)".
CLI::Option* add_repeatable(CLI::App* cmd, const std::string& name, std::vector<std::string>& values,
                            const std::string& value_name, const std::string& help, Repeats repeats);

/// The same rule for an option added otherwise (a list of numbers, --snapshots 10,20): one value
/// per occurrence, repeatable, the help as above. Returns `option`.
CLI::Option* one_value_each(CLI::Option* option, const std::string& value_name);

/// UsageError when `values` (of option `name`) repeat a value or KEY as `repeats` forbids;
/// what add_repeatable checks, for values gathered otherwise.
void check_repeats(const std::string& name, const std::vector<std::string>& values, Repeats repeats);

/// Number checks with plain messages ("must be > 0, not 0"; CLI11's own name the range up to
/// the largest double): more than 0, at least 0.
CLI::Validator positive_number();
CLI::Validator non_negative_number();

/// "" if `path` can be written (created or overwritten: its folder exists and is writable),
/// else the reason ("cannot write x: folder y does not exist").
std::string output_problem(const std::string& path);

/// Parses and runs `app` with the checks and exit codes above; messages go to stderr, each
/// starting "hane: ". Installs the Ctrl-C handler (util/interrupt.h).
int run(CLI::App& app, int argc, char** argv);

/// The closest of `candidates` to `word` (edit distance at most a third of its length, at
/// least 2), or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// "" if the command line only names known subcommands and options of `app` and no file it
/// would write (--out, -o, --json, --sgf) is one it reads or another of its outputs, else the
/// message: an unknown option or command (with a guess), an existing output that is the same
/// file as a PATH, a model or any other option's value (also the MODEL of a "NAME:MODEL" spec),
/// or a game record or archive inside a folder given as input; two outputs that name one file.
/// A command never writes over what it reads (the model file's rename would replace even a
/// read-only file).
std::string check_command_line(const CLI::App& app, int argc, const char* const* argv);

/// Model files record the board sizes they were trained on: call with the sizes of the games
/// a trainer learnt from (size -> games) before it writes the model.
void note_training_board_sizes(const std::map<int, int64_t>& sizes);

/// Warns on stderr when the model file's recorded board sizes (board_sizes_seen, else
/// board_size) do not include some of `game_sizes`. Silent for models that are not files.
void warn_if_other_board_sizes(const std::string& model_path, const std::map<int, int64_t>& game_sizes);
/// The same for a model used on boards of `sizes` (bench, gtp): "M was trained on 19x19 boards;
/// <use> 9x9<after>", e.g. use "the engine starts on", after " (--size): no joseki prior there".
void warn_if_model_not_for(const std::string& model_path, const std::vector<int>& sizes, const std::string& use,
                           const std::string& after = "");

/// CPU time of the calling thread, seconds (CLOCK_THREAD_CPUTIME_ID): on a shared machine it
/// counts only our own work.
double thread_cpu_seconds();

/// What a file holds, from its first bytes: a hane model (the "hane-model" line), JSON, an
/// SGF game record, an archive (gzip, bzip2, xz, zip, 7z, tar), something else, or nothing (no
/// file, or an empty one).
enum class FileKind { kMissing, kModel, kJson, kSgf, kArchive, kOther };
FileKind file_kind(const std::string& path);

/// For a file a command writes besides its named outputs (a trainer's snapshot models, a
/// learning curve's data and picture, eval's plots): throws UsageError, naming `flag`, when
/// `path` is a file the command line reads, another of its outputs, or an existing file of
/// another kind than `kind` (kOther: plot data, scripts and pictures). check_command_line
/// records what the command line reads and writes; call this after it, before any work. The
/// named outputs themselves (--out, --json, --sgf) are checked the same way by
/// check_command_line: a model, JSON or a game record replaces only a file of its own kind.
void check_extra_output(const std::string& flag, const std::string& path, FileKind kind);

/// A trainer's snapshot file: "model.tree" with count 1000 -> "model-1000.tree".
std::string snapshot_path(const std::string& out, int count);

/// The command line this process was started with, its arguments joined by spaces (read from
/// /proc/self/cmdline; empty where there is none): what match and tune write in their reports,
/// so that a rerun is the same command.
std::string process_command_line();

}  // namespace hane::tools
