#pragma once
// Every search option an agent takes, declared once: its agent-spec key, its range and its
// help. Agent specs (`mcts:sims=400,cpuct=1.5`), the trainer's selfplay.* and eval.* keys
// (their ranges and help, checked by validate()) and the --help texts all read this table.
// The defaults are SearchConfig's own (mcts/search.hpp) and two named presets: `uct` (the
// rollout baseline) and `az` (a network agent). Root noise is self-play's alone: the
// trainer declares it.
#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

struct SearchOption {
  std::string_view
      spec_key;  // in agent specs; training configs name it in their keys' declarations
  double min, max;
  bool whole;  // an integer (or 0/1 for a switch)
  std::string_view help;
  double (*get)(const SearchConfig&);
  void (*set)(SearchConfig&, double);
};

inline const std::array<SearchOption, 10>& search_options() {
  static const std::array<SearchOption, 10> table = {{
      {"sims", 1, 1e7, true, "simulations per move",
       [](const SearchConfig& c) { return double(c.simulations); },
       [](SearchConfig& c, double v) { c.simulations = int(v); }},
      {"cpuct", 0, 100, false, "PUCT exploration constant",
       [](const SearchConfig& c) { return double(c.c_puct); },
       [](SearchConfig& c, double v) { c.c_puct = float(v); }},
      {"fpu", -10, 10, false,
       "first-play urgency reduction: unvisited children get the parent's value minus this",
       [](const SearchConfig& c) { return double(c.fpu_reduction); },
       [](SearchConfig& c, double v) { c.fpu_reduction = float(v); }},
      {"batch", 1, 4096, true, "leaves one search adds to an evaluator call (virtual loss)",
       [](const SearchConfig& c) { return double(c.leaves_per_batch); },
       [](SearchConfig& c, double v) { c.leaves_per_batch = int(v); }},
      {"vl", 0, 100, false, "virtual loss per pending leaf",
       [](const SearchConfig& c) { return double(c.virtual_loss); },
       [](SearchConfig& c, double v) { c.virtual_loss = float(v); }},
      {"gumbel", 0, 1, true, "Gumbel root with sequential halving (1) or PUCT (0)",
       [](const SearchConfig& c) { return c.gumbel ? 1.0 : 0.0; },
       [](SearchConfig& c, double v) { c.gumbel = v != 0; }},
      {"gumbel_k", 1, 4096, true, "actions a Gumbel root samples",
       [](const SearchConfig& c) { return double(c.gumbel_actions); },
       [](SearchConfig& c, double v) { c.gumbel_actions = int(v); }},
      {"gumbel_scale", 0, 1000, false,
       "c_scale: the weight of the searched values against the prior at a Gumbel root",
       [](const SearchConfig& c) { return double(c.gumbel_c_scale); },
       [](SearchConfig& c, double v) { c.gumbel_c_scale = float(v); }},
      {"gumbel_rescale", 0, 1, true,
       "a Gumbel root's values rescaled to their own min..max (1, mctx's default) or read on [-1, "
       "1] (0)",
       [](const SearchConfig& c) { return c.gumbel_rescale ? 1.0 : 0.0; },
       [](SearchConfig& c, double v) { c.gumbel_rescale = v != 0; }},
      {"reuse", 0, 1, true, "keep the subtree of the move played (1) or start afresh (0)",
       [](const SearchConfig& c) { return c.reuse_tree ? 1.0 : 0.0; },
       [](SearchConfig& c, double v) { c.reuse_tree = v != 0; }},
  }};
  return table;
}

inline const SearchOption* find_search_option(std::string_view spec_key) {
  for (const auto& o : search_options())
    if (o.spec_key == spec_key) return &o;
  return nullptr;
}

// 1, 0.25, 1e+07: a number as a person writes it.
inline std::string short_number(double v) {
  std::ostringstream s;
  s << std::setprecision(10) << v;
  return s.str();
}

// The most simulations any search may be given (the sims option's bound).
inline int max_simulations() {
  return static_cast<int>(find_search_option("sims")->max);
}

// Throws unless `v` is a valid value of `o`; `what` names where it came from.
inline void check_search_value(const SearchOption& o, double v, const std::string& what) {
  const bool whole_ok = !o.whole || v == std::floor(v);
  if (!(v >= o.min && v <= o.max) || !whole_ok)
    throw Error(what + " must be " + (o.whole ? "a whole number" : "a number") + " in [" +
                short_number(o.min) + ", " + short_number(o.max) + "], got " + short_number(v));
}

// The named presets: `uct` (rollout values, plain UCT-like exploration, one leaf at a
// time) and `az` (a network, also one leaf a call: every descent sees the values of the
// leaves before it; against 8 leaves spread by virtual loss it scored 52-76% with each
// game's shipped model and lost none, docs/techniques.md#az.batch). Any other name is an
// error.
inline SearchConfig search_preset(std::string_view name) {
  SearchConfig c;
  if (name == "uct") {
    c.simulations = 400;
    c.c_puct = 1.5f;
    c.fpu_reduction = 0.0f;
    c.leaves_per_batch = 1;
  } else if (name == "az") {
    c.simulations = 100;
    c.leaves_per_batch = 1;
  } else {
    throw Error("unknown search preset " + quote_input(std::string(name)) + " (known: uct, az)");
  }
  return c;
}

// One line per option with its defaults in the two presets: for --help texts.
inline std::string search_options_help() {
  const SearchConfig uct = search_preset("uct"), az = search_preset("az");
  std::string out;
  for (const auto& o : search_options()) {
    std::string key(o.spec_key);
    key.resize(std::max<std::size_t>(key.size(), 9), ' ');
    out += "  " + key + " (uct " + short_number(o.get(uct)) + ", az " + short_number(o.get(az)) +
           ")  " + std::string(o.help) + "\n";
  }
  return out;
}

}  // namespace azg::mcts
