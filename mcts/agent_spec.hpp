#pragma once
// Agent specs on the command line: `random`, `mcts:sims=400`, `az:model=m.pt,sims=100`.
// KIND[:KEY=VALUE[,KEY=VALUE...]]; unknown kinds and keys are errors.
#include <cmath>
#include <map>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "mcts/search_options.hpp"

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
  if (spec.kind.empty()) throw Error("agent spec " + quote_input(spec.text) + " has no kind");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw Error("agent spec " + quote_input(spec.text) + ": expected KEY=VALUE, got " +
                  quote_input(std::string(item)));
    spec.options[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return spec;
}

inline double spec_number(const AgentSpec& spec, const std::string& key, double fallback,
                          double min, double max) {
  const auto it = spec.options.find(key);
  if (it == spec.options.end()) return fallback;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != it->second.size() || !(v >= min && v <= max))  // NaN fails too
    throw Error("agent spec " + quote_input(spec.text) + ": " + key + " must be a number in [" +
                short_number(min) + ", " + short_number(max) + "], got " + quote_input(it->second));
  return v;
}

// The same for an option that counts something: a fractional value is refused too.
inline int spec_whole(const AgentSpec& spec, const std::string& key, int fallback, int min,
                      int max) {
  const double v = spec_number(spec, key, fallback, min, max);
  if (v != std::floor(v))
    throw Error("agent spec " + quote_input(spec.text) + ": " + key + " must be a whole number");
  return static_cast<int>(v);
}

// Search settings from a spec's options (mcts/search_options.hpp: every key, range and
// help), over `config` (a preset).
inline SearchConfig search_config_from(const AgentSpec& spec, SearchConfig config) {
  for (const auto& o : search_options()) {
    const std::string key(o.spec_key);
    if (!spec.has(key)) continue;
    const double v = spec_number(spec, key, 0, o.min, o.max);
    check_search_value(o, v, "agent spec " + quote_input(spec.text) + ": " + key);
    o.set(config, v);
  }
  return config;
}

// Throws unless every option of `spec` is one of `allowed`, or a search option when
// `search` is true.
inline void check_spec_keys(const AgentSpec& spec, std::initializer_list<std::string_view> allowed,
                            bool search = false) {
  for (const auto& [key, value] : spec.options) {
    bool ok = search && find_search_option(key) != nullptr;
    for (const auto a : allowed) ok = ok || key == a;
    if (!ok)
      throw Error("agent spec " + quote_input(spec.text) + ": unknown option " + quote_input(key));
  }
}

}  // namespace azg::mcts
