#include "playout/rules_gamma.h"

#include <utility>

#include "features/pattern.h"
#include "playout/gamma.h"
#include "playout/rules.h"

namespace hane {

LocalGammas local_gammas(const GammaModel& model) {
  // neighbour_colours() reads NW N NE W E SW S SE; the pattern points of these (pattern.h).
  constexpr int kPoint[8] = {7, 0, 4, 3, 1, 6, 2, 5};
  LocalGammas g;
  for (auto& t : g.pattern) t.resize(1 << 16);
  for (auto& t : g.pattern_index) t.resize(1 << 16);
  for (uint32_t key = 0; key < (1u << 16); ++key) {
    uint64_t code = 0;  // for Black to move
    for (int k = 0; k < 8; ++k) {
      const uint64_t c = (key >> (2 * k)) & 3;
      const uint64_t state = c == 1 || c == 2 ? (c | (3 << 2)) : c;  // stones at 3+ liberties
      code |= state << (4 * kPoint[k]);
    }
    g.pattern_index[0][key] = model.pattern_index(static_cast<uint32_t>(canonical(code, PatternShape::k3x3)));
    g.pattern_index[1][key] = model.pattern_index(static_cast<uint32_t>(canonical(swap_colors(code), PatternShape::k3x3)));
    g.pattern[0][key] = model.gammas[g.pattern_index[0][key]];
    g.pattern[1][key] = model.gammas[g.pattern_index[1][key]];
  }
  for (int d = 2; d <= 4; ++d) {
    g.distance[d] = model.gammas[model.flag_index(kGammaDistance, d - 1)];
    g.distance2[d] = model.gammas[model.flag_index(kGammaDistance2, d - 1)];
  }
  g.empty = model.gammas[model.pattern_index(0)];
  return g;
}

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_rules_gamma_policy(std::string_view model,
                                                                       const PolicyOptions& options) {
  absl::StatusOr<RulesOptions> r = rules_options(options, "rules-gamma");
  if (!r.ok()) return r.status();
  absl::StatusOr<std::shared_ptr<const GammaModel>> m = load_gamma_policy_model(model, "rules-gamma");
  if (!m.ok()) return m.status();
  auto gammas = std::make_shared<LocalGammas>(local_gammas(**m));
  if (r->gamma_liberties) gammas->model = *m;
  return std::make_unique<RulesPolicy>(*r, std::move(gammas));
}

}  // namespace hane
