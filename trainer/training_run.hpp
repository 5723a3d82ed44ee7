#pragma once
// One training run (trainer/train.hpp's TrainingRun<G>) behind a plain function, compiled
// once per game in trainer/training_run_instance.cpp. `azg train` and `azg learner` call
// it without including the run's templates, which cost each of them over a minute of
// compile time for the eight games (docs/performance.md#build-time).
#include <memory>
#include <ostream>
#include <string>

#include "games/games.hpp"
#include "trainer/config.hpp"
#include "trainer/train_report.hpp"

namespace azg::parallel {
class LearnerGroup;
}

namespace azg::trainer {

template <Game G>
class GameFeed;

// Trains `config` in `run_dir` with the run's own self-play workers, resuming a killed run.
template <Game G>
TrainReport run_training(const TrainConfig& config, const std::string& run_dir, std::ostream& out);

// The same fed by `feed` (games from actors) instead of self-play; `group`: this process
// is one rank of data-parallel learners, or null.
template <Game G>
TrainReport run_fed_training(const TrainConfig& config, const std::string& run_dir,
                             std::ostream& out, std::unique_ptr<GameFeed<G>> feed,
                             parallel::LearnerGroup* group);

#define AZG_EXTERN_TRAINING_RUN(G)                                                             \
  extern template TrainReport run_training<G>(const TrainConfig&, const std::string&,          \
                                              std::ostream&);                                  \
  extern template TrainReport run_fed_training<G>(const TrainConfig&, const std::string&,      \
                                                  std::ostream&, std::unique_ptr<GameFeed<G>>, \
                                                  parallel::LearnerGroup*);
AZG_FOR_EACH_GAME(AZG_EXTERN_TRAINING_RUN)
#undef AZG_EXTERN_TRAINING_RUN

}  // namespace azg::trainer
