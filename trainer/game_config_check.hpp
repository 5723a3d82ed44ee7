#pragma once
// The training settings a game may refuse, checked before a run (or a learner) starts.
// Kept apart from trainer/selfplay.hpp so that `azg learner` checks a config without
// compiling the self-play templates (docs/performance.md#build-time).
#include <string>

#include "core/error.hpp"
#include "env/common/game_traits.hpp"
#include "trainer/config.hpp"
#include "trainer/schedule.hpp"

namespace azg::trainer {

// Settings that only some games support, checked before a run starts.
template <Game G>
void check_config_for_game(const TrainConfig& config) {
  if (!kDecidedByPoints<G> && config.train_margin_mix > 0)
    throw Error(std::string(G::kName) + " is not decided by points: train.margin_mix must be 0");
  if (!kHasProgress<G> && config.train_draw_progress > 0)
    throw Error(std::string(G::kName) +
                " has no progress() heuristic: train.draw_progress must be 0");
  if (!kHasEvaluation<G> && uses_heuristic_mix(config))
    throw Error(std::string(G::kName) +
                " has no static evaluation: selfplay.heuristic_mix must be 0");
  if (!kHasEvaluation<G> && config.eval_heuristic_mix > 0)
    throw Error(std::string(G::kName) + " has no static evaluation: eval.heuristic_mix must be 0");
  if (!kHasEvaluation<G> && config.train_evaluation_mix > 0)
    throw Error(std::string(G::kName) +
                " has no static evaluation: train.evaluation_mix must be 0");
  if (!kHasTurnCap<G> && config.train_cap_value != "draw")
    throw Error(std::string(G::kName) + " has no turn cap: train.cap_value must be draw");
  if (!kHasEvaluation<G> && config.train_cap_value == "evaluation")
    throw Error(std::string(G::kName) +
                " has no static evaluation: train.cap_value cannot be evaluation");
  if (!kHasOwnership<G> && config.net_ownership)
    throw Error(std::string(G::kName) + " has no ownership targets: net.ownership must be false");
  if (!kDecidedByPoints<G> && config.net_score_head)
    throw Error(std::string(G::kName) + " is not decided by points: net.score_head must be false");
}

}  // namespace azg::trainer
