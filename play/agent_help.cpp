#include "play/agent_help.hpp"

#include "mcts/search_options.hpp"

namespace azg::play {

std::string agent_spec_help() {
  return "Agent specs: random | mcts[:KEY=VALUE,...] (the UCT baseline: random-rollout values; "
         "also "
         "evaluator=rollout|uniform|heuristic|ept: heuristic scores leaves by the game's static "
         "evaluation, ept by a "
         "random playout cut after playout_turns=K turns (default 4; decisive=0 leaves out taking "
         "wins at once, decisive=2 also avoids handing one over)) | "
         "ab:depth=D|ms=T (alpha-beta on the static evaluation: D decisions deep, or deepening for "
         "T ms a decision) | "
         "az:model=PATH[,KEY=VALUE,...] (a trained network; model=shipped: the game's shipped "
         "one, listed by azg models; also device=cpu|cuda|auto, "
         "precision=fp32|bf16|fp16|auto|fastest, symmetry=0|1|all (1: a random symmetry per "
         "leaf, all: the mean over every symmetry; default: the model's net.play_symmetry), "
         "rollout_mix=L, heuristic_mix=H "
         "(playout_turns=K: an EPT playout's value instead of the static evaluation), "
         "score_utility=U, raw=1: the policy's most likely legal action, no search) | "
         "run:dir=RUN_DIR[,sims=N] (arena and report: every models/step-*.pt of a run).\n"
         "Search keys (defaults of the uct and az presets):\n" +
         mcts::search_options_help();
}

}  // namespace azg::play
