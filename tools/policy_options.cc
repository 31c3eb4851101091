#include "tools/policy_options.h"

#include <stdexcept>

#include "tools/cli.h"

namespace hane::tools {

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
  auto policy = make_policy(spec, options());
  if (!policy.ok()) throw std::runtime_error(std::string(policy.status().message()));
  return std::move(*policy);
}

void add_policy_flags(CLI::App* cmd, PolicyFlags& flags, bool repeatable) {
  std::string help = "Playout policy NAME[:MODEL]";
  help += repeatable ? " (repeatable). Known:" : ". Known:";
  for (const PolicyKind& k : policy_kinds()) {
    help += "\n  " + std::string(k.name) + (k.argument.empty() ? "" : ":" + std::string(k.argument)) + "  " +
            std::string(k.help);
  }
  CLI::Option* opt = cmd->add_option("--policy", flags.specs, help);
  if (!repeatable) opt->expected(1);
  cmd->add_option("--policy-set", flags.settings,
                  "A policy's own setting KEY=VALUE, keys prefixed by the policy's name (e.g. rules.capture=0.9); "
                  "repeatable");
}

}  // namespace hane::tools
