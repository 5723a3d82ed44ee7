#include "trainer/run_precision.hpp"

namespace azg::trainer {

const std::string& RunPrecision::automatic() {
  // Where bfloat16 slows this network's forward it slows its training steps as much
  // (docs/performance.md), so self-play and the learner share one timing.
  if (automatic_.empty()) {
    automatic_ = nets::resolve_precision("auto", config_.device);
    if (automatic_ == "bf16") automatic_ = nets::faster_precision(meta_);
  }
  return automatic_;
}

nets::OptimConfig RunPrecision::optim_config() {
  const TrainConfig& c = config_;
  return {c.optim_optimizer, c.optim_lr, c.optim_momentum, c.optim_weight_decay,
          c.train_ownership_weight,
          // fp16 training would need loss scaling: on a GPU the learner trains in fp32.
          c.train_precision == "auto" ? (automatic() == "fp16" ? "fp32" : automatic())
                                      : nets::resolve_precision(c.train_precision, c.device),
          c.train_score_weight};
}

}  // namespace azg::trainer
