// The learning-rate schedule over a run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "trainer/config.hpp"

namespace azg::trainer {

// How far the run is towards its end, 0 to 1: by steps or by wall-clock, whichever is
// further, so that a run stopped by run.minutes on a slower machine still ends annealed.
inline double run_progress(const TrainConfig& c, std::int64_t step, double elapsed_s) {
  double t = static_cast<double>(step) / std::max(1, c.run_steps);
  if (c.run_minutes > 0) t = std::max(t, elapsed_s / (c.run_minutes * 60.0));
  return std::clamp(t, 0.0, 1.0);
}

// Cosine decay from optim.lr to optim.lr_final over the run's progress.
inline double learning_rate(const TrainConfig& c, double progress) {
  return c.optim_lr_final + 0.5 * (c.optim_lr - c.optim_lr_final) * (1.0 + std::cos(M_PI * progress));
}

}  // namespace azg::trainer
