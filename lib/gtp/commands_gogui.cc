// GoGui's commands: cputime, gogui-interrupt (the interrupt itself is the `# interrupt` line
// read in Engine::run), and the analyze commands GoGui lists (gogui-analyze_commands): the
// hane-* heat maps of the guesser's priors, the search's visits, criticality and the ownership, and the
// whole-board maps of the score estimate (features/influence.h): the influence map and the
// classes (territory, framework, contested, dead stones).
#include <algorithm>
#include <cmath>
#include <ctime>

#include "gtp/command_text.h"
#include "gtp/engine.h"

namespace hane::gtp {

void Engine::register_gogui_commands() {
  add("cputime", [](Call& c) {
    c.args.done();
    c.text = format_number(static_cast<double>(std::clock()) / CLOCKS_PER_SEC, 3);
  });
  add("gogui-interrupt", [](Call& c) { c.args.done(); });
  add("gogui-analyze_commands", [](Call& c) {
    c.args.done();
    c.text =
        "gfx/Guesser priors/hane-gfx_priors\n"
        "gfx/Search visits/hane-gfx_visits\n"
        "gfx/Criticality/hane-gfx_criticality\n"
        "gfx/Ownership/hane-gfx_ownership\n"
        "dboard/Ownership values/hane-dboard_ownership\n"
        "gfx/Influence/hane-gfx_influence\n"
        "gfx/Territory and frameworks/hane-gfx_classes\n"
        "string/Score estimate/estimate_score\n"
        "plist/Dead stones/final_status_list dead\n"
        "string/Final score/final_score";
  });
  const auto optional_color = [this](Args& args) {
    const Color color = args.empty() ? game_.to_move() : args.color();
    args.done();
    return color;
  };
  add("hane-gfx_priors", [this, optional_color](Call& c) {
    const Color color = optional_color(c.args);
    const std::vector<float> p = player_->priors(game_, color);
    if (p.empty()) throw GtpError("this engine has no guesser");
    const float top = *std::max_element(p.begin(), p.end());
    std::vector<std::pair<float, Vertex>> ranked;
    std::string influence = "INFLUENCE";
    const int n = game_.size();
    for (int i = 0; i < n * n; ++i) {
      const Vertex v = game_.board().at(i % n, i / n);
      const float pv = p[static_cast<size_t>(v.index())];
      if (pv <= 0 || top <= 0) continue;
      influence += " " + to_gtp(v, n) + " " + format_number(pv / top, 3);
      ranked.push_back({pv, v});
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string label = "LABEL";
    for (size_t i = 0; i < ranked.size() && i < 10; ++i) {
      label += " " + to_gtp(ranked[i].second, n) + " " + std::to_string(std::lround(100 * ranked[i].first));
    }
    c.text = influence + "\n" + label;
  });
  add("hane-gfx_visits", [this, optional_color](Call& c) {
    const Color color = optional_color(c.args);
    const SearchResult result = player_->genmove(game_, request_for(color));
    const int n = game_.size();
    int64_t top = 0;
    for (const MoveStats& m : result.children) top = std::max(top, m.visits);
    std::string influence = "INFLUENCE", label = "LABEL", var = "VAR";
    for (const MoveStats& m : result.children) {
      if (!m.move.is_point() || m.visits == 0) continue;
      influence += " " + to_gtp(m.move, n) + " " + format_number(static_cast<double>(m.visits) / static_cast<double>(top), 3);
      label += " " + to_gtp(m.move, n) + " " + std::to_string(m.visits);
    }
    if (!result.children.empty()) {
      Color mover = color;
      for (const Vertex v : result.children.front().pv) {
        var += std::string(" ") + (mover == Color::kBlack ? "b " : "w ") + to_gtp(v, n);
        mover = opponent(mover);
      }
    }
    c.text = influence + "\n" + label + (var.size() > 3 ? "\n" + var : "");
  });
  // A search's criticality of the root moves it visited (search/criticality.h) as INFLUENCE,
  // crit / 0.5 (its largest magnitude), and the ten most critical as LABEL, crit in hundredths.
  add("hane-gfx_criticality", [this, optional_color](Call& c) {
    const Color color = optional_color(c.args);
    const SearchResult result = player_->genmove(game_, request_for(color));
    const int n = game_.size();
    std::vector<const MoveStats*> ranked;
    std::string influence = "INFLUENCE", label = "LABEL";
    for (const MoveStats& m : result.children) {
      if (!m.move.is_point() || m.visits == 0) continue;
      influence += " " + to_gtp(m.move, n) + " " + format_number(std::clamp(m.criticality / 0.5, -1.0, 1.0), 3);
      ranked.push_back(&m);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const MoveStats* a, const MoveStats* b) {
      return a->criticality > b->criticality;
    });
    for (size_t i = 0; i < ranked.size() && i < 10; ++i) {
      label += " " + to_gtp(ranked[i]->move, n) + " " + std::to_string(std::lround(100 * ranked[i]->criticality));
    }
    c.text = influence + "\n" + label;
  });
  add("hane-gfx_ownership", [this](Call& c) {
    c.args.done();
    const std::vector<float> own = ownership_rows(game_.board(), player_->ownership(game_), 1.0f);
    const int n = game_.size();
    std::string influence = "INFLUENCE";
    for (int i = 0; i < n * n; ++i) {
      const float o = own[static_cast<size_t>(i)];
      if (std::abs(o) >= 0.05f) influence += " " + to_gtp(game_.board().at(i % n, i / n), n) + " " + format_number(o, 2);
    }
    c.text = influence;
  });
  // The estimate's influence map (dead stones removed) as GoGui's INFLUENCE: value / 6
  // influence points, clamped to [-1, 1] (a point next to one stone reads 0.33), Black
  // positive; points under 0.05 left out.
  add("hane-gfx_influence", [this](Call& c) {
    c.args.done();
    const ScoreEstimate e = player_->estimate_score(game_, rules_.scoring == Scoring::kTerritory);
    const int n = game_.size();
    std::string influence = "INFLUENCE";
    for (int i = 0; i < n * n; ++i) {
      const Vertex v = game_.board().at(i % n, i / n);
      const float x = std::clamp(e.maps.influence.value(v) / 6.0f, -1.0f, 1.0f);
      if (std::abs(x) >= 0.05f) influence += " " + to_gtp(v, n) + " " + format_number(x, 2);
    }
    c.text = influence;
  });
  // The estimate's classes as GoGui COLOR lines (Black's territory deep blue, its framework
  // light blue; White's red and light red; contested ground yellow), the dead stones as MARK,
  // and the estimate with the counts as TEXT.
  add("hane-gfx_classes", [this](Call& c) {
    c.args.done();
    const ScoreEstimate e = player_->estimate_score(game_, rules_.scoring == Scoring::kTerritory);
    const int n = game_.size();
    struct Shade {
      PointClass cls;
      const char* color;
      std::string points;
      int count = 0;
    };
    Shade shades[] = {{PointClass::kBlackTerritory, "#2040e0", "", 0}, {PointClass::kBlackFramework, "#a0b0ff", "", 0},
                      {PointClass::kWhiteTerritory, "#e02020", "", 0}, {PointClass::kWhiteFramework, "#ffa8a8", "", 0},
                      {PointClass::kContested, "yellow", "", 0}};
    std::string dead;
    for (int i = 0; i < n * n; ++i) {
      const Vertex v = game_.board().at(i % n, i / n);
      const PointClass k = e.maps.at(v);
      if (k == PointClass::kDeadBlack || k == PointClass::kDeadWhite) dead += " " + to_gtp(v, n);
      for (Shade& s : shades) {
        if (s.cls == k) s.points += " " + to_gtp(v, n), ++s.count;
      }
    }
    for (const Shade& s : shades) {
      if (!s.points.empty()) c.text += std::string("COLOR ") + s.color + s.points + "\n";
    }
    if (!dead.empty()) c.text += "MARK" + dead + "\n";
    c.text += "TEXT " + result_text(e.margin) + ": Black territory " + std::to_string(shades[0].count) + ", framework " +
              std::to_string(shades[1].count) + "; White territory " + std::to_string(shades[2].count) + ", framework " +
              std::to_string(shades[3].count) + "; contested " + std::to_string(shades[4].count) + "; dead stones " +
              std::to_string(std::count(dead.begin(), dead.end(), ' '));
  });
  add("hane-dboard_ownership", [this](Call& c) {
    c.args.done();
    const std::vector<float> own = ownership_rows(game_.board(), player_->ownership(game_), 1.0f);
    const int n = game_.size();
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) c.text += (x ? " " : "") + format_number(own[static_cast<size_t>(y * n + x)], 2);
      c.text += "\n";
    }
  });
}

}  // namespace hane::gtp
