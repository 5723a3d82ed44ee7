// How many simulations a full self-play search gets at a point of the run.
#pragma once

#include <algorithm>
#include <cmath>

#include "trainer/config.hpp"

namespace azg::trainer {

// selfplay.simulations throughout, or with selfplay.simulations_start > 0 a count that
// grows linearly from it to selfplay.simulations over the run's progress (0 to 1, see
// run_progress): a young network gains little from a deep search, so its minutes buy
// more games instead, and the search deepens as the network learns.
inline int full_simulations(const TrainConfig& c, double progress) {
  if (c.selfplay_simulations_start <= 0) return c.selfplay_simulations;
  const double t = std::clamp(progress, 0.0, 1.0);
  const double start = c.selfplay_simulations_start, end = c.selfplay_simulations;
  return static_cast<int>(std::lround(start + t * (end - start)));
}

}  // namespace azg::trainer
