#pragma once
// Agents that play games: uniform random, and MCTS with a given evaluator (the UCT
// baseline uses the rollout evaluator). One virtual call per move, never per node.
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "env/common/random_play.hpp"
#include "mcts/driver.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

template <Game G>
class Agent {
 public:
  virtual ~Agent() = default;
  // The action to play at `state` (a decision of the agent's player).
  virtual Action act(const G& state) = 0;
  // Every action applied to the game, by anyone (chance included), in order.
  virtual void observe(Action) {}
  virtual std::string name() const = 0;
};

template <Game G>
class RandomAgent final : public Agent<G> {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  Action act(const G& state) override { return random_action(state, rng_); }
  std::string name() const override { return "random"; }

 private:
  Rng rng_;
};

// Picks an action from a search result: the best at temperature 0, else visits^(1/t).
inline Action choose_by_visits(const SearchResult& r, float temperature, Rng& rng) {
  if (temperature <= 0.0f || r.actions.size() == 1) return r.best;
  std::vector<double> weights(r.visits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i)
    sum += (weights[i] = std::pow(static_cast<double>(r.visits[i]), 1.0 / temperature));
  if (sum <= 0.0) return r.best;
  double x = rng.uniform() * sum;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if ((x -= weights[i]) < 0.0) return r.actions[i];
  return r.actions.back();
}

template <Game G>
class MctsAgent final : public Agent<G> {
 public:
  MctsAgent(std::string name, const SearchConfig& config, std::shared_ptr<Evaluator<G>> evaluator,
            std::uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), search_(config, seed) {}

  Action act(const G& state) override {
    search_.start(state, search_.config().simulations);
    Search<G>* searches[] = {&search_};
    run_searches<G>(searches, *evaluator_, batch_, search_.config().leaves_per_batch);
    last_ = search_.result();
    return last_.best;
  }
  void observe(Action a) override { search_.advance(a); }
  std::string name() const override { return name_; }
  const SearchResult& last_result() const { return last_; }

 private:
  std::string name_;
  std::shared_ptr<Evaluator<G>> evaluator_;
  Search<G> search_;
  EvalBatch<G> batch_;
  SearchResult last_;
};

}  // namespace azg::mcts
