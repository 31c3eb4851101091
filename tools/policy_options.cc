#include "tools/policy_options.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "playout/policy_settings.h"
#include "tools/cli.h"

namespace hane::tools {
namespace {

std::string name_of(const std::string& spec) { return spec.substr(0, spec.find(':')); }

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

PolicyOptions PolicyFlags::options() const {
  PolicyOptions o;
  for (const std::string& s : settings) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--policy-set " + s + ": expected KEY=VALUE");
    o.settings[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return o;
}

std::unique_ptr<PlayoutPolicy> PolicyFlags::make(const std::string& spec) const {
  const PolicyOptions o = options();
  check_policy_spec(spec, o);
  auto policy = make_policy(spec, o);
  if (!policy.ok()) throw std::runtime_error(std::string(policy.status().message()));
  return std::move(*policy);
}

std::string policy_help() {
  std::string help = "Playout policy NAME[:MODEL]. Known:";
  for (const PolicyKind& k : policy_kinds()) {
    help += "\n  " + std::string(k.name) + (k.argument.empty() ? "" : ":" + std::string(k.argument)) + "  " +
            std::string(k.help);
  }
  return help;
}

void add_policy_flags(CLI::App* cmd, PolicyFlags& flags, bool repeatable) {
  if (repeatable) {
    add_repeatable(cmd, "--policy", flags.specs, "NAME[:MODEL]", policy_help(), Repeats::kDistinct);
  } else {
    cmd->add_option("--policy", flags.specs, policy_help())->expected(1)->type_name("NAME[:MODEL]");
  }
  add_repeatable(cmd, "--policy-set", flags.settings, "KEY=VALUE",
                 "A policy's own setting, keys prefixed by the policy's name (e.g. rules.capture=0.9); each key once",
                 Repeats::kDistinctKeys);
}

void check_policy_spec(const std::string& spec, const PolicyOptions& options) {
  const std::string name = name_of(spec);
  const std::vector<std::string> names = policy_names();
  bool known = false;
  std::string argument;
  for (const PolicyKind& k : policy_kinds()) {
    if (k.name == name) known = true, argument = std::string(k.argument);
  }
  if (!known) {
    const std::string guess = did_you_mean(name, names);
    throw UsageError("--policy " + spec + ": unknown playout policy" + (guess.empty() ? "" : "; did you mean " + guess + "?") +
                     " (known: " + joined(names) + ")");
  }
  const size_t colon = spec.find(':');
  if (argument.empty() && colon != std::string::npos) throw UsageError("--policy " + spec + ": " + name + " takes no model");
  if (!argument.empty()) {
    const std::string model = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (model.empty()) throw UsageError("--policy " + spec + ": " + name + " needs a model: " + name + ":MODEL");
    std::error_code ec;
    if (!std::filesystem::exists(model, ec)) throw UsageError("--policy " + spec + ": " + model + ": no such model file");
  }
  if (absl::Status s = check_policy_settings(spec, options); !s.ok()) throw UsageError("--policy-set: " + std::string(s.message()));
}

std::string setting_hint(const std::string& key, const std::string& value, const std::vector<std::string>& specs) {
  const std::string field = key.substr(key.find('.') == std::string::npos ? 0 : key.find('.') + 1);
  for (const std::string& spec : specs) {
    const std::string candidate = name_of(spec) + "." + field;
    if (candidate == key) continue;
    PolicyOptions o;
    o.settings[candidate] = value;
    if (check_policy_settings(spec, o).ok()) return "did you mean " + candidate + "?";
  }
  return "";
}

void check_settings_used(const PolicyOptions& options, const std::vector<std::string>& specs) {
  std::vector<std::string> in_use;
  for (const std::string& s : specs) in_use.push_back(name_of(s));
  for (const auto& [key, value] : options.settings) {
    const std::string prefix = key.substr(0, key.find('.'));
    bool read = key.find('.') != std::string::npos;
    read = read && std::find(in_use.begin(), in_use.end(), prefix) != in_use.end();
    if (!read) {
      const std::string hint = setting_hint(key, value, specs);
      throw UsageError("--policy-set " + key + "=" + value + ": no playout policy in use reads " + key +
                       " (policies in use: " + joined(in_use) + "; keys are prefixed by the policy's name" +
                       (hint.empty() ? "" : "; " + hint) + ")");
    }
  }
}

}  // namespace hane::tools
