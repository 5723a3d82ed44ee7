#pragma once
// Training on batches: the loss (masked policy cross-entropy + value loss; weight decay in
// the optimizer) and one optimizer step per call.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "nets/network.hpp"
#include "nets/training_settings.hpp"

namespace azg::nets {

// One training batch, on the CPU.
struct TrainBatch {
  at::Tensor planes;            // [B,C,H,W] float
  at::Tensor policy;            // [B,A] float: the search's policy target, 0 on illegal actions
  at::Tensor legal;             // [B,A] bool: legal actions that have a policy index
  at::Tensor value;             // [B] float: the game's result for the player to act, in [-1,1]
  at::Tensor policy_weight;     // [B] float: 1 for full searches, 0 for cheap ones
  at::Tensor ownership;         // [B,H*W] float in [-1,1] (networks with an ownership head)
  at::Tensor ownership_weight;  // [B] float: 1 where the ownership target is known
  at::Tensor score;             // [B] float in [-1,1] (networks with a score head)
  at::Tensor score_weight;      // [B] float: 1 where the score target is known
};

class Learner {
 public:
  Learner(torch::jit::Module module, NetConfig net, OptimConfig optim, torch::Device device);

  Losses step(const TrainBatch& batch);     // one optimizer step
  Losses measure(const TrainBatch& batch);  // the same losses, no update
  void set_learning_rate(double lr);
  // Data-parallel training: called after each backward pass with every gradient and the
  // step's losses in one float array, which it replaces in place by their mean over the
  // learners (parallel::LearnerGroup::average). Each rank then applies the same step.
  using GradientAverage = std::function<void(float* values, std::size_t n)>;
  void set_gradient_average(GradientAverage average) { average_ = std::move(average); }

  torch::jit::Module& module() { return module_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  const NetConfig& net_config() const { return net_; }
  const OptimConfig& optim_config() const { return optim_; }
  std::int64_t steps() const { return steps_; }
  void set_steps(std::int64_t steps) { steps_ = steps; }

 private:
  std::pair<at::Tensor, Losses> loss(const TrainBatch& batch);
  void average_gradients(Losses& losses);

  torch::jit::Module module_;
  NetConfig net_;
  OptimConfig optim_;
  torch::Device device_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::int64_t steps_ = 0;
  GradientAverage average_;
};

}  // namespace azg::nets
