// The schedules over a run: the learning rate, the heuristic's share of self-play leaves.
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
  return c.optim_lr_final +
         0.5 * (c.optim_lr - c.optim_lr_final) * (1.0 + std::cos(M_PI * progress));
}

// selfplay.heuristic_mix's weight: from its start value to heuristic_mix_final, linear in
// the run's progress.
inline double heuristic_mix_weight(const TrainConfig& c, double progress) {
  return c.selfplay_heuristic_mix + (c.selfplay_heuristic_mix_final - c.selfplay_heuristic_mix) *
                                        std::clamp(progress, 0.0, 1.0);
}

inline bool uses_heuristic_mix(const TrainConfig& c) {
  return c.selfplay_heuristic_mix > 0 || c.selfplay_heuristic_mix_final > 0;
}

}  // namespace azg::trainer
