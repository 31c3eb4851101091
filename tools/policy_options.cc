#include "tools/policy_options.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "playout/policy_settings.h"
#include "tools/cli.h"

namespace hane::tools {
namespace {

// The policy's name, as the registry reads a spec (a spec it refuses: the text before ':').
std::string name_of(const std::string& spec) {
  auto parsed = parse_policy_spec(spec);
  return parsed.ok() ? parsed->name : spec.substr(0, spec.find(':'));
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

PolicyOptions PolicyFlags::options() const {
  auto o = parse_policy_settings(settings);
  if (!o.ok()) throw UsageError("--policy-set: " + std::string(o.status().message()));
  return *o;
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
  auto parsed = parse_policy_spec(spec);
  if (!parsed.ok()) {
    const std::string name = spec.substr(0, spec.find(':'));
    const std::vector<std::string> names = policy_names();
    const bool known = std::find(names.begin(), names.end(), name) != names.end();
    const std::string guess = known ? "" : did_you_mean(name, names);
    throw UsageError("--policy " + spec + ": " + std::string(parsed.status().message()) +
                     (guess.empty() ? "" : "; did you mean " + guess + "?"));
  }
  if (!parsed->model.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(parsed->model, ec)) {
      throw UsageError("--policy " + spec + ": " + parsed->model + ": no such model file");
    }
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
