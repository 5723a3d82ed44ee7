#pragma once
// What inference_precision=auto and train.precision=auto mean for one run: on a CPU with
// native bfloat16, the faster of fp32 and bf16 for this network, timed once; on a GPU,
// fp16 for self-play and fp32 for the learner.
#include <string>

#include "nets/session.hpp"
#include "trainer/config.hpp"

namespace azg::trainer {

class RunPrecision {
 public:
  RunPrecision(const TrainConfig& config, const nets::ModelMeta& meta)
      : config_(config), meta_(meta) {}
  // inference_precision=auto resolved (timed on the first call).
  const std::string& automatic();
  // The learner's settings from the config, train.precision=auto resolved.
  nets::OptimConfig optim_config();

 private:
  const TrainConfig& config_;
  const nets::ModelMeta& meta_;
  std::string automatic_;  // "" until automatic() first decides
};

}  // namespace azg::trainer
