#pragma once
// The raw policy: an agent that plays its evaluator's most likely legal action with no
// search at all. It is how a network's policy alone is measured (az:...,raw=1; the
// accuracy of Connect Four's test set at the raw policy, docs/connect4.md). MCTS with one
// simulation is not that: its single visit goes to the first child PUCT tries.
#include <memory>
#include <string>
#include <utility>

#include "mcts/agent.hpp"
#include "mcts/evaluator.hpp"

namespace azg::mcts {

template <Game G>
class PolicyAgent final : public Agent<G> {
 public:
  PolicyAgent(std::string name, std::shared_ptr<Evaluator<G>> evaluator, std::uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), rng_(seed) {}

  Action act(const G& state) override {
    if (state.to_act() == Player::kChance) return sample_chance(state, rng_);
    ActionListFor<G> actions;
    state.legal_actions(actions);
    batch_.clear();
    batch_.add(state, actions, rng_.next());
    evaluator_->evaluate(batch_);
    const auto priors = batch_.priors(0);
    std::size_t best = 0;  // ties: the first in the game's order of legal actions
    for (std::size_t i = 1; i < priors.size(); ++i)
      if (priors[i] > priors[best]) best = i;
    return actions[best];
  }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  std::shared_ptr<Evaluator<G>> evaluator_;
  Rng rng_;
  EvalBatch<G> batch_;
};

}  // namespace azg::mcts
