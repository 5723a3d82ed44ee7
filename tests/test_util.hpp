#pragma once
// Helpers shared by the tests.
#include <set>
#include <string>

#include "env/common/game.hpp"

namespace azg {

// The legal actions of `g` as their strings.
template <Game G>
std::set<std::string> legal_set(const G& g) {
  ActionListFor<G> actions;
  g.legal_actions(actions);
  std::set<std::string> out;
  for (const Action a : actions) out.insert(g.action_to_string(a));
  return out;
}

}  // namespace azg
