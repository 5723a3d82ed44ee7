#pragma once
// Learning curves on the ladder: a run's exported models (models/step-*.pt) placed on the
// UCT ladder, against the training minutes and self-play games it took to make them.
#include <string>
#include <vector>

#include "play/ladder.hpp"

namespace azg::play {

struct RunModel {
  std::string path, name;  // models/step-00001000.pt, step-00001000
  long step = 0;
  double minutes = 0;  // training wall-clock when the step was made (metrics.jsonl)
  long games = 0;      // self-play games finished by then
};

// The run's step-*.pt models with their minutes and games, at most `max_models` of them
// evenly spaced (the last one always kept). Throws azg::Error when there are none.
std::vector<RunModel> run_models_on_clock(const std::string& run_dir, int max_models);

// ladder-curve.csv (model, step, minutes, games, elo, interval95) and ladder-curve.svg
// (Elo against minutes), plus the ladder's own files, in `dir`.
void write_ladder_curve(const LadderResult& result, const std::vector<RunModel>& models,
                        const std::string& dir);

}  // namespace azg::play
