// The rule sets an SGF RU value names, as far as replaying a record needs them: is suicide
// legal, and which repetitions are forbidden.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "go/game.h"

namespace hane {

struct RecordRules {
  /// "Japanese", "Chinese", "Korean", "AGA", "New Zealand", "Tromp-Taylor", "Ing" or "KataGo".
  std::string name;
  /// Multi-stone and single-stone suicide are legal (New Zealand, Tromp-Taylor, Ing).
  bool allow_suicide = false;
  /// Repetitions forbidden beyond simple ko.
  Superko superko = Superko::kNone;

  bool operator==(const RecordRules&) const = default;
};

/// What RU names, or nullopt if it names nothing known. Case, spaces, '-', '_' and a trailing
/// "rules" do not matter ("New Zealand", "NZ", "tromp-taylor", "TT", "Japanese rules", "jp").
/// Rule sets, from their texts:
///   Japanese (1989) and Korean: suicide illegal, no superko (a repeated position ends the
///     game without result, so records may hold one);
///   Chinese (2002): suicide illegal, positional superko;
///   AGA (2004): suicide illegal, situational superko;
///   New Zealand (2002): suicide legal, situational superko;
///   Tromp-Taylor: suicide legal, positional superko;
///   Ing (SST 1996): suicide legal; its ko rules are not modelled, only simple ko is checked;
///   KataGo's "koXXXscoreYYY...suiN" strings: ko SIMPLE / POSITIONAL / SITUATIONAL, sui 0 / 1.
/// Also read: the CJK names 日本 and 中国 / 中國 (as a prefix), and "GOE" for Ing.
std::optional<RecordRules> rules_from_ru(std::string_view ru);

/// What replay assumes when RU is absent or unknown, unless told otherwise: the Japanese
/// rules (suicide illegal, simple ko only), the most lenient of the common sets for replay.
RecordRules default_record_rules();

}  // namespace hane
