#include "tools/tune_keys.h"

#include "engine_process/gtp_client.h"
#include "playout/registry.h"
#include "tools/cli.h"
#include "tools/engine_options.h"

namespace hane::tools {
namespace {

// `hane gtp` parses ARGS (the engine options, --size, --komi) into `flags`; "" or the error.
std::string parse_gtp_args(const std::vector<std::string>& args, EngineFlags& flags) {
  CLI::App app{"gtp"};
  add_engine_options(&app, flags);
  int size = 19;
  double komi = 7.5;
  app.add_option("--size", size);
  app.add_option("--komi", komi);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

std::vector<bool> check_hane_keys(const std::string& engine_args, const std::vector<SpsaParam>& params) {
  auto args = split_command_line(engine_args);
  if (!args.ok()) throw UsageError("--engine: " + std::string(args.status().message()));
  EngineFlags flags;
  if (const std::string e = parse_gtp_args(*args, flags); !e.empty())
    throw UsageError("--engine: hane gtp refuses its arguments: " + e);
  const std::string policy = flags.options.search.policy;
  // The engine's own --policy-set settings (make_player reads them so too).
  auto own_settings = parse_policy_settings(flags.policy_settings);
  if (!own_settings.ok()) throw UsageError("--engine: " + std::string(own_settings.status().message()));
  std::vector<bool> integer;
  for (const SpsaParam& p : params) {
    const std::string where = "--param " + p.key;
    auto value_text = [&](double v, bool whole) { return engine_value(v, whole); };
    if (p.key.find('.') != std::string::npos) {
      // A --policy-set key: the prefix names the engine's policy, which must accept the values.
      const std::string prefix = p.key.substr(0, p.key.find('.'));
      auto spec = parse_policy_spec(policy);
      if (!spec.ok()) throw UsageError("--engine: " + std::string(spec.status().message()));
      const std::string policy_name = spec->name;
      if (prefix != policy_name)
        throw UsageError(where + ": the engine plays with policy " + policy + ", which reads no " + prefix + ".* settings");
      if (own_settings->settings.contains(p.key))
        throw UsageError(where + ": the engine's arguments set it already (--policy-set " + p.key + ")");
      auto accepts = [&](const std::string& v) -> std::string {
        PolicyOptions o = *own_settings;
        o.settings[p.key] = v;
        auto made = make_policy(policy, o);
        return made.ok() ? "" : std::string(made.status().message());
      };
      // Whole numbers only when a value between the bounds is refused and its rounding is not.
      const double probe = p.min + (p.max - p.min) * 0.4142;
      const bool whole = !accepts(value_text(probe, false)).empty() && accepts(value_text(probe, true)).empty();
      for (double v : {p.start, p.min, p.max}) {
        if (const std::string e = accepts(value_text(v, whole)); !e.empty()) throw UsageError(where + ": " + e);
      }
      integer.push_back(whole);
      continue;
    }
    // An engine option.
    EngineFlags scratch;
    CLI::App app{"gtp"};
    add_engine_options(&app, scratch);
    const CLI::Option* opt = app.get_option_no_throw("--" + p.key);
    if (!opt || p.key.size() < 2) {
      std::vector<std::string> names;
      for (const CLI::Option* o : app.get_options()) {
        if (!o->get_lnames().empty()) names.push_back(o->get_lnames()[0]);
      }
      const std::string near = did_you_mean(p.key, names);
      throw UsageError(where + ": not an option of hane gtp nor a --policy-set key (KEY or POLICY.KEY)" +
                       (near.empty() ? "" : "; did you mean " + near + "?"));
    }
    const std::string type = opt->get_type_name();
    if (opt->get_type_size() == 0 || !(type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT")))
      throw UsageError(where + ": --" + p.key + " takes no number");
    if (p.key == "seed") throw UsageError(where + ": the seed is set per game by the runner");
    for (const std::string& a : *args) {
      if (a == "--" + p.key || a.starts_with("--" + p.key + "="))
        throw UsageError(where + ": the engine's arguments set it already (" + a + ")");
    }
    const bool whole = !type.starts_with("FLOAT");
    for (double v : {p.start, p.min, p.max}) {
      std::vector<std::string> with = *args;
      with.push_back("--" + p.key);
      with.push_back(value_text(v, whole));
      EngineFlags f;
      if (const std::string e = parse_gtp_args(with, f); !e.empty()) throw UsageError(where + ": " + e);
    }
    integer.push_back(whole);
  }
  return integer;
}


}  // namespace hane::tools
