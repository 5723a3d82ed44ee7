#pragma once
// What a training run hands back to its command: the final model and its final evaluation.
#include <string>

#include "play/score.hpp"

namespace azg::trainer {

struct TrainReport {
  std::string final_model;
  play::Score vs_random, vs_uct;
  bool trained = false;
};

}  // namespace azg::trainer
