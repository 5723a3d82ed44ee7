#pragma once
// perft(state, d): the number of action sequences of length exactly d (chance outcomes
// are branches of weight 1; a terminal state before depth d contributes 0).
#include <cstdint>
#include <utility>
#include <vector>

#include "env/common/game.hpp"

namespace azg {

template <Game G>
std::uint64_t perft(const G& state, int depth) {
  if (depth == 0) return 1;
  if (state.is_terminal()) return 0;
  ActionListFor<G> actions;
  state.legal_actions(actions);
  std::uint64_t total = 0;
  for (const Action a : actions) {
    G child = state;
    child.apply(a);
    // Bulk count at the last ply, except that a child may itself be terminal, which
    // still counts as one sequence of length d.
    total += depth == 1 ? 1 : perft(child, depth - 1);
  }
  return total;
}

// perft(child, depth - 1) for every legal action: the breakdown behind perft(state, depth).
template <Game G>
std::vector<std::pair<Action, std::uint64_t>> perft_divide(const G& state, int depth) {
  std::vector<std::pair<Action, std::uint64_t>> out;
  if (depth < 1 || state.is_terminal()) return out;
  ActionListFor<G> actions;
  state.legal_actions(actions);
  for (const Action a : actions) {
    G child = state;
    child.apply(a);
    out.emplace_back(a, perft(child, depth - 1));
  }
  return out;
}

}  // namespace azg
