// KGS's commands (kgsGtp): genmove with cleanup of disputed dead stones, its time systems, and
// the rule sets it names.
#include "gtp/command_text.h"
#include "gtp/engine.h"

namespace hane::gtp {

void Engine::register_kgs_commands() {
  add("kgs-genmove_cleanup", [this](Call& c) { c.text = genmove(c, true, true); });
  add("kgs-time_settings", [this](Call& c) {
    const std::string kind = lower(c.args.word());
    TimeSettings t;
    if (kind == "none") {
    } else if (kind == "absolute") {
      t.kind = TimeSettings::Kind::kAbsolute;
      t.main_time = c.args.integer(0, 1 << 30);
    } else if (kind == "byoyomi") {
      t.kind = TimeSettings::Kind::kByoYomi;
      t.main_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_periods = c.args.integer(0, 1 << 30);
    } else if (kind == "canadian") {
      t.kind = TimeSettings::Kind::kCanadian;
      t.main_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_time = c.args.integer(0, 1 << 30);
      t.byo_yomi_stones = c.args.integer(0, 1 << 30);
    } else {
      throw GtpError("syntax error");
    }
    c.args.done();
    time_ = t;
    set_clocks();
  });
  add("kgs-rules", [this](Call& c) {
    const std::string name = c.args.word();
    c.args.done();
    const RuleSet* r = find_rule_set(name);
    if (!r) throw GtpError("unknown rules");
    rules_ = *r;
    rebuild();
  });
}

}  // namespace hane::gtp
