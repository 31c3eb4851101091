#include "playout/registry.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "playout/gamma.h"
#include "playout/guesser_policy.h"
#include "playout/policy_settings.h"
#include "playout/rules.h"
#include "playout/rules_gamma.h"
#include "playout/softmax.h"
#include "playout/switch.h"
#include "playout/uniform.h"
#include "predict/load.h"

namespace hane {

namespace {

// Refuses settings for `prefix` (e.g. "uniform.") since the policy takes none.
absl::Status no_settings(std::string_view name, const PolicyOptions& options) {
  const std::string prefix = std::string(name) + ".";
  for (const auto& [key, value] : options.settings) {
    if (key.starts_with(prefix)) return absl::InvalidArgumentError("policy " + std::string(name) + " has no setting '" + key + "'");
  }
  return absl::OkStatus();
}

absl::Status check_uniform(const PolicyOptions& options) { return no_settings("uniform", options); }
absl::Status check_guesser(const PolicyOptions& options) { return no_settings("guesser", options); }

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_uniform(std::string_view, const PolicyOptions& options) {
  if (absl::Status s = check_uniform(options); !s.ok()) return s;
  return std::make_unique<UniformPolicy>();
}

// softmax.temperature=T (default 1): every weight is divided by T, so the policy plays with
// probabilities proportional to p^(1/T); T > 1 flattens a model trained for top-1 accuracy
// (Silver & Tesauro 2009 and Huang, Coulom & Lin 2010 on playout policies that predict well but
// balance badly). softmax.moves=N (default 0: every move): the softmax plays the first N moves
// of each playout and the `rules` policy the rest (switch.h).
struct SoftmaxSettings {
  double temperature = 1;
  int moves = 0;
};

absl::StatusOr<SoftmaxSettings> softmax_settings(const PolicyOptions& options) {
  SoftmaxSettings s;
  for (const auto& [key, value] : options.settings) {
    if (!key.starts_with("softmax.")) continue;
    if (key == "softmax.temperature") {
      if (!absl::SimpleAtod(value, &s.temperature) || !(s.temperature >= 0.05 && s.temperature <= 100)) {
        return absl::InvalidArgumentError("policy setting " + key + "=" + value + ": expected a temperature in [0.05, 100]");
      }
    } else if (key == "softmax.moves") {
      if (!absl::SimpleAtoi(value, &s.moves) || s.moves < 0) {
        return absl::InvalidArgumentError("policy setting " + key + "=" + value + ": expected a whole number of moves >= 0");
      }
    } else {
      return absl::InvalidArgumentError("policy softmax has no setting '" + key +
                                        "' (known: softmax.temperature, softmax.moves)");
    }
  }
  return s;
}

absl::Status check_softmax(const PolicyOptions& options) { return softmax_settings(options).status(); }
absl::Status check_gamma(const PolicyOptions& options) { return gamma_head_moves(options).status(); }
absl::Status check_rules(const PolicyOptions& options) { return rules_options(options).status(); }
absl::Status check_rules_gamma(const PolicyOptions& options) { return rules_options(options, "rules-gamma").status(); }

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_softmax(std::string_view model, const PolicyOptions& options) {
  const absl::StatusOr<SoftmaxSettings> settings = softmax_settings(options);
  if (!settings.ok()) return settings.status();
  const std::string path(model);
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  if (const std::string kind = file->header.value("kind", ""); kind != "softmax") {
    return absl::InvalidArgumentError(path + ": the softmax policy needs a softmax model, not '" + kind + "'" +
                                      other_kind_hint(kind, path));
  }
  absl::StatusOr<SoftmaxModel> m = softmax_model_from_file(*file, path);
  if (!m.ok()) return m.status();
  if (m->feature_set == FeatureSet::kStrategic) {
    return absl::InvalidArgumentError(path + ": a strategic softmax needs whole-board maps for every position "
                                      "(about 30 µs on 19x19): a prior or a guesser, not a playout policy");
  }
  if (settings->temperature != 1) {
    const float scale = static_cast<float>(1 / settings->temperature);
    for (float& w : m->fixed) w *= scale;
    for (auto& table : m->patterns) {
      for (auto& [key, w] : table) w *= scale;
    }
  }
  auto softmax = std::make_unique<SoftmaxPolicy>(std::make_shared<const SoftmaxModel>(std::move(*m)));
  if (settings->moves == 0) return softmax;
  return std::make_unique<SwitchPolicy>(std::move(softmax), std::make_unique<RulesPolicy>(), settings->moves);
}

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_guesser(std::string_view model, const PolicyOptions& options) {
  if (absl::Status s = check_guesser(options); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<Guesser>> guesser = load_guesser(std::string(model));
  if (!guesser.ok()) return guesser.status();
  return std::make_unique<GuesserPolicy>(std::move(*guesser));
}

// The registry: one line per policy.
constexpr PolicyKind kPolicies[] = {
    {"uniform", "", "uniformly random legal moves that fill no own eye (light playouts)", make_uniform},
    {"rules", "", "hand-written rules: capture, save from atari, MoGo 3x3 patterns, no big self-atari", make_rules_policy},
    {"softmax", "MODEL", "a softmax model's probabilities, kept up to date incrementally (settings: softmax.temperature, softmax.moves)", make_softmax},
    {"rules-gamma", "MODEL", "the rules with a learned pattern answer: a gamma model's 3x3 weights around the last move", make_rules_gamma_policy},
    {"gamma", "MODEL", "Bradley-Terry gammas of 3x3 patterns and tactical flags, re-rated incrementally (setting: gamma.moves)", make_gamma_policy},
    {"guesser", "MODEL", "any guesser's probabilities, one full-board guess per move (slow)", make_guesser},
};

// Each policy's settings check, by name (policy_settings.h).
using SettingsCheck = absl::Status (*)(const PolicyOptions&);
constexpr std::pair<std::string_view, SettingsCheck> kSettingsChecks[] = {
    {"uniform", check_uniform}, {"rules", check_rules}, {"rules-gamma", check_rules_gamma}, {"softmax", check_softmax}, {"gamma", check_gamma}, {"guesser", check_guesser}};

}  // namespace

absl::StatusOr<PolicySpec> parse_policy_spec(std::string_view spec) {
  const size_t colon = spec.find(':');
  PolicySpec out;
  out.name = std::string(spec.substr(0, colon));
  out.model = colon == std::string_view::npos ? "" : std::string(spec.substr(colon + 1));
  for (const PolicyKind& k : kPolicies) {
    if (k.name == out.name) out.kind = &k;
  }
  if (out.kind == nullptr) {
    return absl::InvalidArgumentError("unknown playout policy '" + std::string(spec) + "' (known: " +
                                      absl::StrJoin(policy_names(), ", ") + ")");
  }
  if (out.kind->argument.empty() && colon != std::string_view::npos) {
    return absl::InvalidArgumentError("playout policy '" + out.name + "' takes no model (got '" + std::string(spec) + "')");
  }
  if (!out.kind->argument.empty() && out.model.empty()) {
    return absl::InvalidArgumentError("playout policy '" + out.name + "' needs a model: " + out.name + ":MODEL");
  }
  return out;
}

absl::StatusOr<PolicyOptions> parse_policy_settings(std::span<const std::string> settings) {
  PolicyOptions o;
  for (const std::string& s : settings) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) return absl::InvalidArgumentError("policy setting '" + s + "': expected KEY=VALUE");
    o.settings[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return o;
}

absl::Status check_policy_settings(std::string_view spec, const PolicyOptions& options) {
  const std::string_view name = spec.substr(0, spec.find(':'));
  for (const auto& [n, check] : kSettingsChecks) {
    if (n == name) return check(options);
  }
  return absl::OkStatus();
}

std::span<const PolicyKind> policy_kinds() { return kPolicies; }

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const PolicyKind& k : kPolicies) names.emplace_back(k.name);
  return names;
}

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_policy(std::string_view spec, const PolicyOptions& options) {
  absl::StatusOr<PolicySpec> parsed = parse_policy_spec(spec);
  if (!parsed.ok()) return parsed.status();
  return parsed->kind->make(parsed->model, options);
}

}  // namespace hane
