// Game records: the meaning of a parsed SGF game tree's main line (see parser.h for syntax).
//
// Reading is lenient by default: oddities are normalised and reported in
// GameRecord::warnings; with ReadOptions::strict every warning is an error instead (the tree's
// framing repairs, parser.h, included). What is always an error: GM other than 1, a bad SZ, a
// move or setup point that is malformed or off the board. Normalisations, each with a warning:
//   - KM: "" or unreadable -> 0; "6,5" -> 6.5 (decimal comma); trailing text after a number
//     ignored; |komi| > 150 kept but warned.
//   - HA: "", "even" or unreadable -> 0; negative -> 0; HA[n] never places stones (only
//     AB does); HA >= 2 with no AB in the root warns.
//   - PL: "black" / "white" or lower case -> B / W; anything else is ignored.
//   - Moves: a value of white space only ("B[  ]") is a pass. AB/AW/AE "tt" or "" is skipped.
//   - A single-valued property with several values (B[aa]B[bb] merged by the parser, PB twice)
//     uses every value for B/W (in order) and the first for others; B/W together or with
//     setup in one node are applied as AE, AB, AW, PL, B, W.
//   - GM[] (empty) is read as GM[1]; RU naming no known rule set (rules.h) is kept as text and
//     replay assumes its default.
// Read as the format or the writer means, silently (not normalisations):
//   - SZ missing means 19; "19:19" is 19; non-square, non-numeric or outside 2..25 is an
//     error (vertex.h: the padded board arrays hold at most 25x25).
//   - Fox (an AP value starting "foxwq"; Fox writes two AP values and the Fox one is kept)
//     stores komi x50, so there a komi with |k| > 20 is divided by 50: KM[375] -> 7.5.
//   - Points: "" is pass (FF[4]); "tt" is pass on boards up to 19x19 (FF[3]), a point on larger
//     ones. Compressed lists "aa:cc" expand row by row.
//   - Game-info properties (PB, PW, BR, WR, KM, HA, RE, DT, RU, EV, GN, PC) are taken from
//     the root, or else from their first node on the main line.
//   - RU absent: replay uses its default rules (counted by the corpus reader, no warning).
// Text: escapes processed ("\]" -> "]"), soft line breaks ("\" + newline) removed, CRLF, CR
// and LFCR become "\n"; simple-text fields (all but comments) have newlines turned into
// spaces and are trimmed. Charset: root CA (case-insensitive) UTF-8; ISO-8859-1 / Latin1;
// GB2312, GBK, GB18030, CP936 (decoded as GB18030); Big5 (decoded as CP950); anything else
// iconv knows. Output is always valid UTF-8: undecodable bytes become U+FFFD (warning).
// Without CA (or with one iconv does not know: warning) a value that is valid UTF-8 is kept
// and any other is decoded as Latin-1 (the FF[4] default) with a warning. Escapes are undone
// on the raw bytes before decoding (as FF[4] says), so a Big5/GBK character whose second byte
// is '\' (0x5C) reads right only if the writer escaped it. Per-move comments are not kept.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "go/color.h"
#include "go/vertex.h"
#include "sgf/parser.h"
#include "sgf/rules.h"

namespace hane {

/// A player's rank. Amateur dan 1..9 -> +1..+9, kyu 1..50 -> -1..-50; professional dan
/// separately. Both zero when unknown.
struct Rank {
  int amateur = 0;
  int pro = 0;
  /// Marked uncertain ("6d?", KGS's unestablished ranks).
  bool uncertain = false;

  bool known() const { return amateur != 0 || pro != 0; }
  /// "6d", "2k", "3p", with "?" if uncertain; "" if unknown.
  std::string to_string() const;
  bool operator==(const Rank&) const = default;
};

/// Reads rank text: a number 1..50 (ASCII or one CJK digit), optional spaces, a unit
/// (d / dan / 段 / 단, k / kyu / 級 / 级 / 급, p / pro, any case), an optional '?', then nothing
/// or a non-letter ("9d, Tengen" is 9 dan). "P" before the number makes a dan rank
/// professional (Fox: "P9段"). Otherwise "d" and "dan" are amateur: "9 dan" in a pro game
/// record still reads as amateur 9d. Anything else ("", "-", "Meijin", "10d") is unknown.
Rank parse_rank(std::string_view text);

/// One step of the main line after the root's setup.
struct GameEvent {
  enum class Type : uint8_t {
    kMove,    ///< `color` plays `vertex` (a point or pass). B / W.
    kSetup,   ///< `vertex` becomes `color` (kBlack, kWhite, or kEmpty to clear). AB/AW/AE.
    kToPlay,  ///< `color` is to play next. PL.
  };
  Type type = Type::kMove;
  Color color = Color::kEmpty;
  Vertex vertex;  // none for kToPlay

  static GameEvent move(Color c, Vertex v) { return {Type::kMove, c, v}; }
  static GameEvent setup(Color c, Vertex v) { return {Type::kSetup, c, v}; }
  static GameEvent to_play(Color c) { return {Type::kToPlay, c, Vertex::none()}; }
  bool operator==(const GameEvent&) const = default;
};

/// Stones placed in the root node, in file order.
struct Setup {
  std::vector<Vertex> black;         // AB
  std::vector<Vertex> white;         // AW
  std::vector<Vertex> empty_points;  // AE (no effect on an empty board; kept for writing)
  bool operator==(const Setup&) const = default;
};

/// One normalisation or repair of a record.
struct RecordWarning {
  /// A short fixed label for counting warnings by kind: "komi", "handicap", "blank move", ...
  /// or a parser repair's kind (parser.h).
  std::string kind;
  /// Byte offset (in the parsed text) of the node or token concerned.
  size_t offset = 0;
  /// Human-readable, naming the byte offset.
  std::string message;
  bool operator==(const RecordWarning&) const = default;
};

/// What a move guesser needs from one game. Strings are UTF-8.
struct GameRecord {
  int board_size = 19;  // SZ
  double komi = 0;      // KM, points
  int handicap = 0;     // HA, as stated
  std::string black_name, white_name;            // PB, PW
  std::string black_rank_text, white_rank_text;  // BR, WR as written
  Rank black_rank, white_rank;                   // parse_rank of the above
  std::string result;       // RE, e.g. "B+R", "W+3.5", "0"
  std::string date;         // DT
  std::string rules;        // RU as written
  /// The rule set RU names; nullopt if RU is absent or names no known set (rules.h).
  std::optional<RecordRules> declared_rules;
  std::string application;  // AP, e.g. "CGoban:3"
  std::string event;        // EV
  std::string game_name;    // GN
  std::string place;        // PC
  std::string comment;      // C of the root node (newlines kept)
  Setup setup;              // AB / AW / AE of the root node
  /// Who moves first after the root's setup: root PL; else the colour of the first move;
  /// else white if the setup has black stones and no white ones (handicap); else black.
  Color to_play = Color::kBlack;
  /// The main line after the root's setup, in order (moves in the root node included).
  std::vector<GameEvent> events;
  /// Game trees off the main line that were skipped.
  size_t num_variations = 0;
  /// What was normalised or repaired, in reading order (empty in strict mode).
  std::vector<RecordWarning> warnings;

  size_t num_moves() const;
  bool operator==(const GameRecord&) const = default;
};

struct ReadOptions {
  /// Turn every warning into an InvalidArgument error.
  bool strict = false;
  /// Used by read_game.
  ParseOptions parse;
};

/// Interprets a parsed game tree. Its framing repairs (ParsedTree::repairs) come first among
/// the warnings. Errors (InvalidArgument, message starting "sgf: "; in strict mode
/// "sgf: strict: " and the first warning): see the top of this file; move errors read "move N: point 'zz' outside 19x19 board (node at byte B)"
/// with N counted from 1.
absl::StatusOr<GameRecord> to_record(const ParsedTree& tree, const ReadOptions& options = {});

/// parse_sgf + to_record of the first game tree. Later trees, and syntax errors after the
/// first tree, are ignored with a warning (kind "several game trees").
absl::StatusOr<GameRecord> read_game(std::string_view sgf_text, const ReadOptions& options = {});

}  // namespace hane
