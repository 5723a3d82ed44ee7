#pragma once
// Short matches used during and after training: a network agent against another agent,
// colours alternating, games 2j and 2j+1 sharing their chance draws.
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mcts/agent.hpp"
#include "mcts/driver.hpp"
#include "mcts/match.hpp"
#include "nets/nn_evaluator.hpp"

namespace azg::trainer {

struct MatchScore {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.0; }
};

template <Game G>
using AgentFactory = std::function<std::unique_ptr<mcts::Agent<G>>(std::uint64_t seed)>;

// `per_game`, when given, receives the first agent's score in each game (1, 0.5 or 0), in
// game order. Games run on `threads` threads; the result does not depend on their number.
template <Game G>
MatchScore play_matches(const AgentFactory<G>& first, const AgentFactory<G>& second, int games, std::uint64_t seed,
                        std::vector<double>* per_game = nullptr, int threads = 1) {
  std::vector<double> scores(static_cast<std::size_t>(std::max(games, 0)));
  std::atomic<int> next{0};
  mcts::run_on_threads(std::min(threads, std::max(games, 1)), [&](int) {
    for (int i; (i = next++) < games;) {
      auto a = first(seed * 1000 + static_cast<std::uint64_t>(i) * 2);
      auto b = second(seed * 1000 + static_cast<std::uint64_t>(i) * 2 + 1);
      const bool a_first = i % 2 == 0;
      Rng chance(seed + static_cast<std::uint64_t>(i / 2));
      Rng setup(seed + static_cast<std::uint64_t>(i / 2));
      mcts::Agent<G>* players[2] = {a_first ? a.get() : b.get(), a_first ? b.get() : a.get()};
      const GameRecord r = mcts::play_match(G::random_setup(setup), {players[0], players[1]}, chance);
      const float v = outcome_value(r.outcome, a_first ? Player::kP0 : Player::kP1);
      scores[i] = v > 0 ? 1.0 : v < 0 ? 0.0 : 0.5;
    }
  });
  MatchScore s;
  for (double x : scores) (x == 1.0 ? s.wins : x == 0.0 ? s.losses : s.draws)++;
  if (per_game) per_game->insert(per_game->end(), scores.begin(), scores.end());
  return s;
}

template <Game G>
AgentFactory<G> network_agent(std::shared_ptr<nets::InferenceModel> model, int simulations, double rollout_mix = 0) {
  return [model, simulations, rollout_mix](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    mcts::SearchConfig c;
    c.simulations = simulations;
    c.leaves_per_batch = 8;
    std::shared_ptr<mcts::Evaluator<G>> eval = std::make_shared<nets::NnEvaluator<G>>(model);
    if (rollout_mix > 0)
      eval = std::make_shared<mcts::RolloutMixEvaluator<G>>(eval, static_cast<float>(rollout_mix));
    return std::make_unique<mcts::MctsAgent<G>>("az", c, eval, seed);
  };
}

template <Game G>
AgentFactory<G> uct_agent(int simulations) {
  return [simulations](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    mcts::SearchConfig c;
    c.simulations = simulations;
    c.c_puct = 1.5f;
    c.fpu_reduction = 0.0f;
    c.leaves_per_batch = 1;
    return std::make_unique<mcts::MctsAgent<G>>("uct", c, std::make_shared<mcts::RolloutEvaluator<G>>(), seed);
  };
}

template <Game G>
AgentFactory<G> random_agent() {
  return [](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    return std::make_unique<mcts::RandomAgent<G>>(seed);
  };
}

}  // namespace azg::trainer
