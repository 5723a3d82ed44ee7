// How many simulations a full self-play search gets at a point of the run.
#pragma once

#include <algorithm>
#include <cmath>

#include "trainer/config.hpp"

namespace azg::trainer {

// selfplay.search.sims throughout, or with selfplay.simulations_start > 0 a count that
// grows linearly from it to selfplay.search.sims over the run's progress (0 to 1, see
// run_progress): a young network gains little from a deep search, so its minutes buy
// more games instead, and the search deepens as the network learns.
inline int full_simulations(const TrainConfig& c, double progress) {
  if (c.selfplay_simulations_start <= 0) return c.selfplay_search.simulations;
  const double t = std::clamp(progress, 0.0, 1.0);
  const double start = c.selfplay_simulations_start, end = c.selfplay_search.simulations;
  return static_cast<int>(std::lround(start + t * (end - start)));
}

// The one place a self-play search's simulation count is decided: a full search's count
// at this point of the run, or selfplay.cheap_simulations (playout cap randomisation).
inline int selfplay_simulations(const TrainConfig& c, double progress, bool full) {
  return full ? full_simulations(c, progress) : c.selfplay_cheap_simulations;
}

}  // namespace azg::trainer
