#pragma once
// The evaluation gate, one role of a training run (compiled once): at eval.every steps it
// exports the network, plays it against the previous export (eval.gate: a fixed match or
// an SPRT) and against the UCT baseline, and promotes it to models/best.pt when it holds
// its own; at the end it exports models/final.pt and plays the final evaluation. Each
// writes one metrics line. The matches come from the caller (the game's ModelMatches).
#include <ostream>
#include <string>

#include "nets/session.hpp"
#include "trainer/config.hpp"
#include "trainer/model_matches.hpp"
#include "trainer/run_state.hpp"
#include "trainer/train_report.hpp"

namespace azg::trainer {

class EvaluationGate {
 public:
  EvaluationGate(const TrainConfig& config, const RunDir& dir, std::ostream& out)
      : config_(config), dir_(dir), out_(out) {}

  // The network at counters.step; counters.previous_model and best_model move on.
  void evaluate(nets::TrainingSession& session, const nets::ModelMeta& meta, RunCounters& counters,
                ModelMatches& matches);
  // models/final.pt, and the final evaluation when eval.final_games > 0. `nn_share`: the
  // share of self-play time spent in the network, for the final line.
  TrainReport finish(nets::TrainingSession& session, const nets::ModelMeta& meta, std::int64_t step,
                     double nn_share, ModelMatches& matches);

 private:
  const TrainConfig& config_;
  const RunDir& dir_;
  std::ostream& out_;
};

}  // namespace azg::trainer
