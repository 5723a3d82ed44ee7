#pragma once
// Plays one game between two agents; chance outcomes are drawn from their probabilities
// with a separate generator, so two games with the same chance seed see the same draws
// as long as the same chance decisions come up (Imbriqua: the same card order).
#include <array>

#include "env/common/random_play.hpp"
#include "mcts/agent.hpp"

namespace azg::mcts {

template <Game G>
GameRecord play_match(G state, std::array<Agent<G>*, 2> agents, Rng& chance_rng) {
  GameRecord record;
  record.setup = state.setup_string();
  while (!state.is_terminal()) {
    const Player p = state.to_act();
    const Action a = p == Player::kChance ? sample_chance(state, chance_rng) : agents[index_of(p)]->act(state);
    record.actions.push_back(state.action_to_string(a));
    for (Agent<G>* agent : agents) agent->observe(a);
    state.apply(a);
  }
  record.outcome = state.outcome();
  return record;
}

}  // namespace azg::mcts
