#pragma once
// One game's matches for a training run's evaluations: network agents on exported models
// with the run's evaluation search (eval.search.*, eval.rollout_mix, eval.heuristic_mix),
// the UCT baseline and random.
#include "play/agents.hpp"
#include "play/paired_games.hpp"
#include "play/sprt_match.hpp"
#include "trainer/config.hpp"
#include "trainer/model_matches.hpp"

namespace azg::trainer {

template <Game G>
class GameMatches final : public ModelMatches {
 public:
  explicit GameMatches(const TrainConfig& config) : config_(config) {}

  play::Score match(Model a, Model b, int simulations, int games, std::uint64_t seed) override {
    return play::match_score<G>(agent(a, simulations), agent(b, simulations), games, 1, seed,
                                config_.eval_opening_plies);
  }
  play::SprtMatch sprt(Model a, Model b, int simulations, play::Sprt& sprt, int max_games,
                       std::uint64_t seed) override {
    return play::run_sprt<G>(agent(a, simulations), agent(b, simulations), sprt, max_games, 1, seed,
                             nullptr, config_.eval_opening_plies);
  }
  play::Score vs_uct(Model m, int simulations, int games, int threads,
                     std::uint64_t seed) override {
    return play::match_score<G>(
        agent(m, simulations),
        play::uct_agent<G>(play::uct_search(config_.eval_baseline_simulations)), games, threads,
        seed);
  }
  play::Score vs_random(Model m, int simulations, int games, int threads,
                        std::uint64_t seed) override {
    return play::match_score<G>(agent(m, simulations), play::random_agent<G>(), games, threads,
                                seed);
  }

 private:
  play::AgentFactory<G> agent(Model model, int simulations) const {
    mcts::SearchConfig search = config_.eval_search;
    search.simulations = simulations;
    return play::network_agent<G>(
        std::move(model), search,
        play::LeafMix{config_.eval_rollout_mix, config_.eval_heuristic_mix});
  }

  const TrainConfig& config_;
};

}  // namespace azg::trainer
