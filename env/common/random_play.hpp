#pragma once
// Uniformly random play: the baseline agent, the environment benchmark and the
// conformance suite's game generator. Chance nodes follow their probabilities.
#include <cassert>
#include <string>
#include <vector>

#include "env/common/game.hpp"

namespace azg {

// Draws a chance outcome according to its probability.
template <Game G>
Action sample_chance(const G& state, Rng& rng) {
  ChanceListFor<G> outcomes;
  state.chance_outcomes(outcomes);
  assert(!outcomes.empty());
  double r = rng.uniform();
  Action chosen = 0;
  for (const auto& o : outcomes) {
    chosen = o.action;  // the last one absorbs any rounding sliver
    if (r < o.probability) break;
    r -= o.probability;
  }
  return chosen;
}

// A uniformly random legal action for a player, or a sampled outcome at chance nodes.
template <Game G>
Action random_action(const G& state, Rng& rng) {
  if (state.to_act() == Player::kChance) return sample_chance(state, rng);
  ActionListFor<G> actions;
  state.legal_actions(actions);
  return actions[rng.below(static_cast<std::uint32_t>(actions.size()))];
}

struct GameRecord {
  std::string setup;
  std::vector<std::string> actions;
  Outcome outcome = Outcome::kDraw;
};

// Plays one random game from `start`, recording every action string.
template <Game G>
GameRecord play_random_game(G state, Rng& rng) {
  GameRecord record;
  record.setup = state.setup_string();
  while (!state.is_terminal()) {
    const Action a = random_action(state, rng);
    record.actions.push_back(state.action_to_string(a));
    state.apply(a);
  }
  record.outcome = state.outcome();
  return record;
}

// The positions of one random game from `start` where a player decides (chance nodes
// and the end left out): what the evaluation and agent benchmarks sample from.
template <Game G>
std::vector<G> random_game_decisions(G state, Rng& rng) {
  std::vector<G> positions;
  while (!state.is_terminal()) {
    if (state.to_act() != Player::kChance) positions.push_back(state);
    state.apply(random_action(state, rng));
  }
  return positions;
}

// A decision position up to 39 random actions into a game from a random setup (the
// positions the search and network benchmarks time).
template <Game G>
G random_decision_position(Rng& rng) {
  for (;;) {
    G g = G::random_setup(rng);
    const int plies = static_cast<int>(rng.below(40));
    for (int i = 0; i < plies && !g.is_terminal(); ++i) g.apply(random_action(g, rng));
    while (!g.is_terminal() && g.to_act() == Player::kChance) g.apply(random_action(g, rng));
    if (!g.is_terminal()) return g;
  }
}

}  // namespace azg
