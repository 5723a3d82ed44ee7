#pragma once
// The batch-level boundary between search and evaluation. A search collects leaves into
// an EvalBatch; an Evaluator fills priors over each leaf's legal actions and a value for
// the player to act there, once per batch (the only virtual call on that path).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "env/common/game.hpp"
#include "env/common/random_play.hpp"

namespace azg::mcts {

template <Game G>
class EvalBatch {
 public:
  void clear() {
    states_.clear();
    offsets_.assign(1, 0);
    actions_.clear();
    priors_.clear();
    values_.clear();
    seeds_.clear();
  }

  // Adds a leaf; returns its index in the batch.
  std::size_t add(const G& state, const ActionListFor<G>& actions, std::uint64_t seed) {
    if (offsets_.empty()) offsets_.push_back(0);
    states_.push_back(state);
    actions_.insert(actions_.end(), actions.begin(), actions.end());
    offsets_.push_back(actions_.size());
    priors_.resize(actions_.size());
    values_.push_back(0.0f);
    seeds_.push_back(seed);
    return states_.size() - 1;
  }

  std::size_t size() const { return states_.size(); }
  const G& state(std::size_t i) const { return states_[i]; }
  std::span<const Action> actions(std::size_t i) const {
    return {actions_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]};
  }
  // Output: the prior of each legal action, in the order of actions(i); sums to 1.
  std::span<float> priors(std::size_t i) {
    return {priors_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]};
  }
  std::span<const float> priors(std::size_t i) const {
    return {priors_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]};
  }
  // Output: the value in [-1, 1] for the player to act at state(i).
  float& value(std::size_t i) { return values_[i]; }
  float value(std::size_t i) const { return values_[i]; }
  // A per-leaf seed for evaluators that draw random numbers (rollouts, symmetries), so a
  // shared evaluator needs no mutable random state and a seeded search replays exactly.
  std::uint64_t seed(std::size_t i) const { return seeds_[i]; }

 private:
  std::vector<G> states_;
  std::vector<std::size_t> offsets_{0};
  std::vector<Action> actions_;
  std::vector<float> priors_;
  std::vector<float> values_;
  std::vector<std::uint64_t> seeds_;
};

// Thread-safe by contract: several search threads may call evaluate() at once.
template <Game G>
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual void evaluate(EvalBatch<G>& batch) = 0;
};

template <Game G>
void set_uniform_priors(EvalBatch<G>& batch, std::size_t i) {
  const auto priors = batch.priors(i);
  const float p = 1.0f / static_cast<float>(priors.size());
  for (float& x : priors) x = p;
}

// Equal priors, value 0: measures the search itself.
template <Game G>
class UniformEvaluator final : public Evaluator<G> {
 public:
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      set_uniform_priors(batch, i);
      batch.value(i) = 0.0f;
    }
  }
};

// The result of one uniformly random playout from `state`, for the player to act there.
template <Game G>
float rollout_value(G state, std::uint64_t seed) {
  Rng rng(seed);
  const Player me = state.to_act();
  while (!state.is_terminal()) state.apply(random_action(state, rng));
  return outcome_value(state.outcome(), me);
}

// Equal priors, value from one uniformly random playout: with them MCTS is the classic
// UCT baseline agent.
template <Game G>
class RolloutEvaluator final : public Evaluator<G> {
 public:
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      set_uniform_priors(batch, i);
      batch.value(i) = rollout_value(batch.state(i), batch.seed(i));
    }
  }
};

// AlphaGo's mixed leaf evaluation: the inner evaluator's priors, and a value of
// (1 - lambda) x its value + lambda x the result of one random playout. A playout is
// cheap next to a network call in short games, and it sees wins and losses a young
// value head cannot.
template <Game G>
class RolloutMixEvaluator final : public Evaluator<G> {
 public:
  RolloutMixEvaluator(Evaluator<G>& inner, float lambda) : inner_(inner), lambda_(lambda) {}
  // Owning form, for agents that keep their evaluator.
  RolloutMixEvaluator(std::shared_ptr<Evaluator<G>> inner, float lambda)
      : owner_(std::move(inner)), inner_(*owner_), lambda_(lambda) {}
  void evaluate(EvalBatch<G>& batch) override {
    inner_.evaluate(batch);
    for (std::size_t i = 0; i < batch.size(); ++i)
      batch.value(i) = (1.0f - lambda_) * batch.value(i) +
                       lambda_ * rollout_value(batch.state(i), batch.seed(i) ^ 0x5bd1e995u);
  }

 private:
  std::shared_ptr<Evaluator<G>> owner_;
  Evaluator<G>& inner_;
  float lambda_;
};

}  // namespace azg::mcts
