#pragma once
// What a training step is configured with and what it reports, free of LibTorch: the
// trainer (templates over games, no LibTorch headers) and the learner (LibTorch) share one
// definition of each.
#include <string>

namespace azg::nets {

struct OptimConfig {
  std::string optimizer = "sgd";  // sgd (with momentum) or adam
  double learning_rate = 0.02;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  double ownership_weight = 1.0;  // weight of the ownership loss (networks with that head)
  std::string precision =
      "fp32";                 // fp32, or bf16 (mixed-precision forward and backward on the CPU)
  double score_weight = 1.0;  // weight of the score loss (networks with a score head)
};

// One step's losses (the heads a network lacks stay 0).
struct Losses {
  float policy = 0, value = 0, ownership = 0, total = 0, score = 0;
};

}  // namespace azg::nets
