#include "sgf/rules.h"

#include <array>

namespace hane {
namespace {

RecordRules make(std::string_view name, bool suicide, Superko superko) {
  return {std::string(name), suicide, superko};
}

// KataGo writes rules as "koPOSITIONALscoreAREAtaxNONEsui1..." (lower-cased here).
std::optional<RecordRules> katago_rules(std::string_view key) {
  if (!key.starts_with("ko") || key.find("score") == std::string_view::npos) return std::nullopt;
  RecordRules r = make("KataGo", false, Superko::kNone);
  if (key.starts_with("kosimple")) {
    r.superko = Superko::kNone;
  } else if (key.starts_with("kopositional")) {
    r.superko = Superko::kPositional;
  } else if (key.starts_with("kosituational")) {
    r.superko = Superko::kSituational;
  } else {
    return std::nullopt;
  }
  const size_t sui = key.find("sui");
  if (sui != std::string_view::npos && sui + 3 < key.size()) r.allow_suicide = key[sui + 3] == '1';
  return r;
}

}  // namespace

std::optional<RecordRules> rules_from_ru(std::string_view ru) {
  std::string key;
  for (char c : ru) {
    if (c == ' ' || c == '-' || c == '_' || c == '\t' || c == '\n' || c == '.') continue;
    key.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  if (key.ends_with("rules")) key.resize(key.size() - 5);
  if (key.ends_with("rule")) key.resize(key.size() - 4);
  if (key.starts_with("\u65e5\u672c")) key = "japanese";                                 // 日本
  if (key.starts_with("\u4e2d\u56fd") || key.starts_with("\u4e2d\u570b")) key = "chinese";  // 中国 中國
  struct Name {
    std::string_view key;
    std::string_view name;
    bool suicide;
    Superko superko;
  };
  static constexpr std::array<Name, 18> kNames = {{
      {"japanese", "Japanese", false, Superko::kNone},
      {"japan", "Japanese", false, Superko::kNone},
      {"jp", "Japanese", false, Superko::kNone},
      {"ja", "Japanese", false, Superko::kNone},
      {"korean", "Korean", false, Superko::kNone},
      {"ko", "Korean", false, Superko::kNone},
      {"chinese", "Chinese", false, Superko::kPositional},
      {"china", "Chinese", false, Superko::kPositional},
      {"cn", "Chinese", false, Superko::kPositional},
      {"aga", "AGA", false, Superko::kSituational},
      {"newzealand", "New Zealand", true, Superko::kSituational},
      {"nz", "New Zealand", true, Superko::kSituational},
      {"tromptaylor", "Tromp-Taylor", true, Superko::kPositional},
      {"tt", "Tromp-Taylor", true, Superko::kPositional},
      {"ing", "Ing", true, Superko::kNone},
      {"goe", "Ing", true, Superko::kNone},
      {"sst", "Ing", true, Superko::kNone},
      {"korea", "Korean", false, Superko::kNone},
  }};
  for (const Name& n : kNames) {
    if (key == n.key) return make(n.name, n.suicide, n.superko);
  }
  return katago_rules(key);
}

RecordRules default_record_rules() { return make("Japanese", false, Superko::kNone); }

}  // namespace hane
