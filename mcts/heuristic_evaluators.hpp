#pragma once
// Leaf evaluators built on a game's hand-written static evaluation (evaluate(), see
// env/common/game_traits.hpp and docs/heuristics.md), with equal priors like the UCT
// baseline:
// - HeuristicEvaluator: the evaluation of the leaf itself, no playout;
// - EptEvaluator: early playout termination (Lorentz 2015): a random playout cut after
//   `turns` changes of the player to act and scored by the evaluation. Inside the playout
//   a player takes an action that wins at once when one exists (Teytaud and Teytaud's
//   decisive moves), so wins one action away are not left to chance; at level 2 it also
//   avoids, where it can, an action that hands the opponent such a win (anti-decisive);
// - HeuristicMixEvaluator: another evaluator mixed with the heuristic one (priors and
//   values) by a weight that may change while it runs (self-play's annealed warm start).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "env/common/game_traits.hpp"
#include "env/common/random_play.hpp"
#include "mcts/evaluator.hpp"

namespace azg::mcts {

// An action that ends the game at once in a win for the player to act at `state`, if any.
template <Game G>
bool find_decisive_action(const G& state, const ActionListFor<G>& actions, Action& out) {
  const Player me = state.to_act();
  for (const Action a : actions) {
    G next = state;
    next.apply(a);
    if (next.is_terminal() && outcome_value(next.outcome(), me) > 0) {
      out = a;
      return true;
    }
  }
  return false;
}

// True when `a` at `state` loses at once or gives the opponent, then to act, an action
// that wins at once. An action after which the same player acts again, or chance does,
// is not judged (the threat is further than one action away).
template <Game G>
bool hands_over_a_win(const G& state, Action a, ActionListFor<G>& scratch) {
  const Player me = state.to_act();
  G next = state;
  next.apply(a);
  if (next.is_terminal()) return outcome_value(next.outcome(), me) < 0;
  if (next.to_act() == me || next.to_act() == Player::kChance) return false;
  next.legal_actions(scratch);
  Action unused = 0;
  return find_decisive_action(next, scratch, unused);
}

// A uniformly drawn action, or with `block` the first from a random start that does not
// hand the opponent a win at once (the drawn one when every action does).
template <Game G>
Action playout_action(const G& state, const ActionListFor<G>& actions, bool block, Rng& rng) {
  const auto n = static_cast<std::uint32_t>(actions.size());
  const std::uint32_t start = rng.below(n);
  if (!block) return actions[start];
  ActionListFor<G> scratch;
  for (std::uint32_t k = 0; k < n; ++k) {
    const Action a = actions[(start + k) % n];
    if (!hands_over_a_win(state, a, scratch)) return a;
  }
  return actions[start];
}

// The value for the player to act at `state` of one playout cut after `turns` turns
// (changes of the deciding player; chance does not count) and scored by the evaluation.
// `turns` 0 scores the state itself. `decisive`: 0 plays at random, 1 takes a win one
// action away, 2 also avoids handing one to the opponent.
template <Game G>
requires kHasEvaluation<G>
float ept_value(G state, int turns, int decisive, std::uint64_t seed) {
  Rng rng(seed);
  const Player me = state.to_act();
  Player deciding = me;
  int changes = 0;
  ActionListFor<G> actions;
  while (!state.is_terminal()) {
    const Player p = state.to_act();
    if (p == Player::kChance) {
      state.apply(sample_chance(state, rng));
      continue;
    }
    if (p != deciding) {
      deciding = p;
      ++changes;
    }
    if (changes >= turns) break;
    state.legal_actions(actions);
    Action a = 0;
    if (decisive == 0 || !find_decisive_action(state, actions, a))
      a = playout_action(state, actions, decisive >= 2, rng);
    state.apply(a);
  }
  return evaluation(state, me);
}

// A static evaluation gives many sibling leaves the same value, and a search with equal
// priors then breaks the ties by the order of the legal actions, which favours one
// direction of travel (and so one colour) in every game. A small jitter drawn from the
// leaf's seed breaks them at random instead.
constexpr float kTieJitter = 0.01f;
inline float tie_jitter(std::uint64_t seed) {
  Rng rng(seed ^ 0x9e3779b97f4a7c15ull);
  return kTieJitter * static_cast<float>(2.0 * rng.uniform() - 1.0);
}

// Near-equal priors, each drawn around 1/n from the leaf's seed: with exactly equal ones
// a search visits (and, its values being close, plays) the first legal actions first.
template <Game G>
void set_jittered_priors(EvalBatch<G>& batch, std::size_t i) {
  const auto priors = batch.priors(i);
  Rng rng(batch.seed(i) ^ 0x632be59bd9b4e019ull);
  float sum = 0;
  for (float& p : priors) sum += (p = 1.0f + 0.1f * static_cast<float>(rng.uniform()));
  for (float& p : priors) p /= sum;
}

// The heuristic agent's value of a leaf for its player to act: the evaluation, ties
// broken by the leaf's seed (a terminal leaf's exact result stays exact).
template <Game G>
requires kHasEvaluation<G>
float heuristic_leaf_value(const G& g, std::uint64_t seed) {
  const float v = evaluation(g, g.to_act());
  return g.is_terminal() ? v : std::clamp(v + tie_jitter(seed), -1.0f, 1.0f);
}

template <Game G>
requires kHasEvaluation<G>
class HeuristicEvaluator final : public Evaluator<G> {
 public:
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      set_jittered_priors(batch, i);
      batch.value(i) = heuristic_leaf_value(batch.state(i), batch.seed(i));
    }
  }
};

template <Game G>
requires kHasEvaluation<G>
class EptEvaluator final : public Evaluator<G> {
 public:
  EptEvaluator(int turns, int decisive) : turns_(turns), decisive_(decisive) {}
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      set_jittered_priors(batch, i);
      batch.value(i) = ept_value(batch.state(i), turns_, decisive_, batch.seed(i));
    }
  }

 private:
  int turns_;
  int decisive_;
};

// Warm-start mixing (Wang, Preuss and Plaat 2020): a mix of the inner evaluator and the
// heuristic agent (HeuristicEvaluator: near-equal priors, the static evaluation) by a
// weight w: value (1 - w) x the inner value + w x the evaluation, priors likewise. The
// priors are mixed too because the evaluation's values differ by a few hundredths from
// one move to the next: under an untrained network's priors PUCT follows the priors, and
// Intercept's self-play with the values alone ended every game at the turn cap. The
// weight is atomic so the owner can anneal it while searches run. With `playout_turns`
// K > 0 the mixed value is the EPT agent's instead (a random playout cut after K turns,
// scored by the evaluation; wins taken at once, and with `decisive` 2 wins handed over
// avoided where possible): Truchet's stronger teacher.
template <Game G>
requires kHasEvaluation<G>
class HeuristicMixEvaluator final : public Evaluator<G> {
 public:
  HeuristicMixEvaluator(Evaluator<G>& inner, float weight, int playout_turns = 0, int decisive = 1)
      : inner_(inner), weight_(weight), playout_turns_(playout_turns), decisive_(decisive) {}
  // Owning form, for agents that keep their evaluator (az:...,heuristic_mix=H).
  HeuristicMixEvaluator(std::shared_ptr<Evaluator<G>> inner, float weight, int playout_turns = 0,
                        int decisive = 1)
      : owner_(std::move(inner)),
        inner_(*owner_),
        weight_(weight),
        playout_turns_(playout_turns),
        decisive_(decisive) {}
  void set_weight(float w) { weight_.store(w, std::memory_order_relaxed); }
  float weight() const { return weight_.load(std::memory_order_relaxed); }
  void evaluate(EvalBatch<G>& batch) override {
    inner_.evaluate(batch);
    const float w = weight();
    if (w <= 0) return;
    std::array<float, G::kMaxActions> inner;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const G& g = batch.state(i);
      if (g.is_terminal()) continue;
      const float h = playout_turns_ > 0 ? ept_value(g, playout_turns_, decisive_, batch.seed(i))
                                         : heuristic_leaf_value(g, batch.seed(i));
      batch.value(i) = (1.0f - w) * batch.value(i) + w * h;
      const auto priors = batch.priors(i);
      std::copy(priors.begin(), priors.end(), inner.begin());
      set_jittered_priors(batch, i);  // the heuristic agent's, mixed with the inner ones below
      for (std::size_t k = 0; k < priors.size(); ++k)
        priors[k] = (1.0f - w) * inner[k] + w * priors[k];
    }
  }

 private:
  std::shared_ptr<Evaluator<G>> owner_;
  Evaluator<G>& inner_;
  std::atomic<float> weight_;
  int playout_turns_;
  int decisive_;
};

}  // namespace azg::mcts
