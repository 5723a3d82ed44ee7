#pragma once
// Agent specs on the command line: `random`, `mcts:sims=400`, `az:model=m.pt,sims=100`.
// KIND[:KEY=VALUE[,KEY=VALUE...]]; unknown kinds and keys are errors.
#include <map>
#include <string>
#include <string_view>

#include "env/common/error.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

struct AgentSpec {
  std::string text;  // as written, used as the agent's name
  std::string kind;
  std::map<std::string, std::string> options;

  bool has(const std::string& key) const { return options.count(key) > 0; }
};

inline AgentSpec parse_agent_spec(std::string_view text) {
  AgentSpec spec;
  spec.text = std::string(text);
  const auto colon = text.find(':');
  spec.kind = std::string(text.substr(0, colon));
  if (spec.kind.empty()) throw Error("agent spec '" + spec.text + "' has no kind");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw Error("agent spec '" + spec.text + "': expected KEY=VALUE, got '" + std::string(item) + "'");
    spec.options[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return spec;
}

inline double spec_number(const AgentSpec& spec, const std::string& key, double fallback, double min,
                          double max) {
  const auto it = spec.options.find(key);
  if (it == spec.options.end()) return fallback;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != it->second.size() || v < min || v > max)
    throw Error("agent spec '" + spec.text + "': " + key + " must be a number in [" + std::to_string(min) +
                ", " + std::to_string(max) + "], got '" + it->second + "'");
  return v;
}

// Search settings from a spec's options: sims, cpuct, fpu, batch (leaves per evaluator
// call), vl (virtual loss), gumbel (0/1), gumbel_k, reuse (0/1).
inline SearchConfig search_config_from(const AgentSpec& spec, SearchConfig config) {
  config.simulations = static_cast<int>(spec_number(spec, "sims", config.simulations, 1, 1e7));
  config.c_puct = static_cast<float>(spec_number(spec, "cpuct", config.c_puct, 0, 100));
  config.fpu_reduction = static_cast<float>(spec_number(spec, "fpu", config.fpu_reduction, -10, 10));
  config.leaves_per_batch = static_cast<int>(spec_number(spec, "batch", config.leaves_per_batch, 1, 4096));
  config.virtual_loss = static_cast<float>(spec_number(spec, "vl", config.virtual_loss, 0, 100));
  config.gumbel = spec_number(spec, "gumbel", config.gumbel ? 1 : 0, 0, 1) != 0;
  config.gumbel_actions = static_cast<int>(spec_number(spec, "gumbel_k", config.gumbel_actions, 1, 4096));
  config.reuse_tree = spec_number(spec, "reuse", config.reuse_tree ? 1 : 0, 0, 1) != 0;
  return config;
}

// Throws unless every option of `spec` is one of `allowed`.
inline void check_spec_keys(const AgentSpec& spec, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : spec.options) {
    bool ok = false;
    for (const auto a : allowed) ok = ok || key == a;
    if (!ok) throw Error("agent spec '" + spec.text + "': unknown option '" + key + "'");
  }
}

}  // namespace azg::mcts
