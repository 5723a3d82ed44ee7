#pragma once
// Exact values of ChancePig positions (expectimax over the whole game), for the rules
// regression test and as the target of the search's chance-node test.
#include <algorithm>
#include <map>

#include "tests/games/chance_pig.hpp"

namespace azg::testgames {

// The value of `g` for `viewer`: expectation over chance, each player maximising his own
// value (zero-sum). `memo` caches positions across calls.
inline double solve_exactly(const ChancePig& g, Player viewer,
                            std::map<std::uint64_t, double>& memo) {
  if (g.is_terminal()) return outcome_value(g.outcome(), viewer);
  const std::uint64_t key = g.hash() * 3 + static_cast<std::uint64_t>(index_of(viewer));
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  double value;
  if (g.to_act() == Player::kChance) {
    FixedList<ChanceOutcome, ChancePig::kMaxActions> outcomes;
    g.chance_outcomes(outcomes);
    value = 0;
    for (const auto& o : outcomes) {
      ChancePig child = g;
      child.apply(o.action);
      value += o.probability * solve_exactly(child, viewer, memo);
    }
  } else {
    FixedList<Action, ChancePig::kMaxActions> actions;
    g.legal_actions(actions);
    const double sign = g.to_act() == viewer ? 1.0 : -1.0;
    value = -2;
    for (const Action a : actions) {
      ChancePig child = g;
      child.apply(a);
      value = std::max(value, sign * solve_exactly(child, viewer, memo));
    }
    value *= sign;
  }
  return memo[key] = value;
}

}  // namespace azg::testgames
