#pragma once
// What one decision of an agent costs: wall time per move on one thread, over positions
// from random games (docs/ladder.md quotes it for every rung; `azg bench agent`). Each
// position gets a fresh agent, so tree reuse never makes a move look cheaper than it is.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "env/common/random_play.hpp"
#include "play/agents.hpp"

namespace azg::play {

struct AgentCost {
  std::vector<double> ms;  // per decision, in the order measured
  double mean_ms() const {
    double sum = 0;
    for (double m : ms) sum += m;
    return ms.empty() ? 0 : sum / static_cast<double>(ms.size());
  }
  double median_ms() const {
    if (ms.empty()) return 0;
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
};

// `decisions` player decisions, each at a position drawn uniformly from the non-terminal
// player decisions of a random game.
template <Game G>
AgentCost bench_agent(const mcts::AgentSpec& spec, int decisions, std::uint64_t seed) {
  if (decisions < 1) throw Error("--moves must be positive");
  const AgentFactory<G> factory = agent_factory<G>(spec);
  Rng rng(seed);
  AgentCost cost;
  while (static_cast<int>(cost.ms.size()) < decisions) {
    const std::vector<G> positions = random_game_decisions(G::random_setup(rng), rng);
    if (positions.empty()) continue;
    const G& position = positions[rng.below(static_cast<std::uint32_t>(positions.size()))];
    auto agent = factory(rng.next());
    const auto start = std::chrono::steady_clock::now();
    const Action a = agent->act(position);
    cost.ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    ActionListFor<G> legal;
    position.legal_actions(legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end())
      throw Error(agent->name() + " answered an illegal action");
  }
  return cost;
}

}  // namespace azg::play
