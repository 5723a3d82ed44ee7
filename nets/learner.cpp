#include "nets/learner.hpp"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include "core/error.hpp"

namespace azg::nets {
namespace {

// LibTorch 2.4 replaced the per-device autocast calls by ones that take the device
// (the old ones warn, then went away); Debian's 1.13 has only the old ones.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool cpu_autocast_enabled() {
  return at::autocast::is_autocast_enabled(at::kCPU);
}
void set_cpu_autocast(bool on) {
  at::autocast::set_autocast_enabled(at::kCPU, on);
}
at::ScalarType cpu_autocast_dtype() {
  return at::autocast::get_autocast_dtype(at::kCPU);
}
void set_cpu_autocast_dtype(at::ScalarType t) {
  at::autocast::set_autocast_dtype(at::kCPU, t);
}
#else
bool cpu_autocast_enabled() {
  return at::autocast::is_cpu_enabled();
}
void set_cpu_autocast(bool on) {
  at::autocast::set_cpu_enabled(on);
}
at::ScalarType cpu_autocast_dtype() {
  return at::autocast::get_autocast_cpu_dtype();
}
void set_cpu_autocast_dtype(at::ScalarType t) {
  at::autocast::set_autocast_cpu_dtype(t);
}
#endif

// Mixed precision for one forward on the CPU: convolutions and matrix products run in
// bfloat16 (oneDNN), weights and the optimizer stay float32, reductions and losses run
// in float32. Restores the thread's autocast state on exit and drops the cast weights
// (they change at every step).
class CpuAutocast {
 public:
  explicit CpuAutocast(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    was_enabled_ = cpu_autocast_enabled();
    was_dtype_ = cpu_autocast_dtype();
    set_cpu_autocast(true);
    set_cpu_autocast_dtype(at::kBFloat16);
    at::autocast::increment_nesting();
  }
  ~CpuAutocast() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set_cpu_autocast(was_enabled_);
    set_cpu_autocast_dtype(was_dtype_);
  }
  CpuAutocast(const CpuAutocast&) = delete;
  CpuAutocast& operator=(const CpuAutocast&) = delete;

 private:
  bool enabled_;
  bool was_enabled_ = false;
  at::ScalarType was_dtype_ = at::kBFloat16;
};

}  // namespace

Learner::Learner(torch::jit::Module module, NetConfig net, OptimConfig optim, torch::Device device)
    : module_(std::move(module)), net_(std::move(net)), optim_(std::move(optim)), device_(device) {
  module_.to(device_);
  module_.train();
  std::vector<at::Tensor> params;
  for (const auto& p : module_.parameters()) params.push_back(p);
  if (optim_.optimizer == "sgd") {
    optimizer_ =
        std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(optim_.learning_rate)
                                                        .momentum(optim_.momentum)
                                                        .weight_decay(optim_.weight_decay));
  } else if (optim_.optimizer == "adam") {
    optimizer_ = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(optim_.learning_rate).weight_decay(optim_.weight_decay));
  } else {
    throw Error("optimizer must be sgd or adam, got " + quote_input(optim_.optimizer));
  }
  if (optim_.precision != "fp32" && optim_.precision != "bf16")
    throw Error("training precision must be fp32 or bf16, got " + quote_input(optim_.precision));
}

std::pair<at::Tensor, Losses> Learner::loss(const TrainBatch& batch) {
  c10::intrusive_ptr<c10::ivalue::Tuple> out;
  {
    CpuAutocast autocast(optim_.precision == "bf16" && device_.is_cpu());
    out = module_.get_method("heads")({batch.planes.to(device_)}).toTuple();
  }
  const at::Tensor logits = out->elements()[0].toTensor().to(at::kFloat);
  const at::Tensor value_out = out->elements()[1].toTensor().to(at::kFloat);
  const at::Tensor legal = batch.legal.to(device_);
  const at::Tensor target = batch.policy.to(device_);
  const at::Tensor weight = batch.policy_weight.to(device_);
  const at::Tensor z = batch.value.to(device_);
  // Illegal actions are masked before the softmax.
  const at::Tensor log_p = torch::log_softmax(logits.masked_fill(legal.logical_not(), -1e9), 1);
  const at::Tensor policy_loss =
      (-(target * log_p).sum(1) * weight).sum() / torch::clamp_min(weight.sum(), 1.0);
  at::Tensor value_loss;
  if (net_.value_head == "wdl") {
    // Classes: 0 win, 1 draw, 2 loss for the player to act.
    const at::Tensor cls =
        torch::where(z > 0.5, torch::zeros_like(z),
                     torch::where(z < -0.5, torch::full_like(z, 2), torch::ones_like(z)))
            .to(torch::kLong);
    value_loss = torch::nll_loss(torch::log_softmax(value_out, 1), cls);
  } else {
    value_loss = torch::mse_loss(torch::tanh(value_out.select(1, 0)), z);
  }
  at::Tensor total = policy_loss + value_loss;
  float ownership_loss = 0.0f;
  if (net_.ownership) {
    // Mean squared error per cell, averaged over the positions whose target is known.
    const at::Tensor own = torch::tanh(out->elements()[2].toTensor().to(at::kFloat));
    const at::Tensor known = batch.ownership_weight.to(device_);
    const at::Tensor per_position = (own - batch.ownership.to(device_)).pow(2).mean(1);
    const at::Tensor loss = (per_position * known).sum() / torch::clamp_min(known.sum(), 1.0);
    total = total + optim_.ownership_weight * loss;
    ownership_loss = loss.item<float>();
  }
  float score_loss = 0.0f;
  if (net_.score_head) {
    // Squared error of tanh(score) against tanh(final margin / scale), over the positions
    // whose game end is known.
    const at::Tensor score =
        torch::tanh(out->elements()[net_.ownership ? 3 : 2].toTensor().to(at::kFloat).select(1, 0));
    const at::Tensor known = batch.score_weight.to(device_);
    const at::Tensor loss = ((score - batch.score.to(device_)).pow(2) * known).sum() /
                            torch::clamp_min(known.sum(), 1.0);
    total = total + optim_.score_weight * loss;
    score_loss = loss.item<float>();
  }
  return {total, Losses{policy_loss.item<float>(), value_loss.item<float>(), ownership_loss,
                        total.item<float>(), score_loss}};
}

Losses Learner::step(const TrainBatch& batch) {
  module_.train();
  auto [total, losses] = loss(batch);
  optimizer_->zero_grad();
  total.backward();
  if (average_) average_gradients(losses);
  optimizer_->step();
  ++steps_;
  return losses;
}

// One array for one collective call: each gradient flattened (zeros for a parameter the
// loss did not reach, e.g. a head this config leaves out: every rank has the same graph),
// then the five losses, so the logged losses are the whole group's too.
void Learner::average_gradients(Losses& losses) {
  std::vector<at::Tensor> parts;
  std::vector<at::Tensor> params;
  for (const auto& p : module_.parameters()) {
    params.push_back(p);
    parts.push_back(p.grad().defined()
                        ? p.grad().detach().to(torch::kCPU, torch::kFloat).reshape({-1})
                        : torch::zeros({p.numel()}, torch::kFloat));
  }
  parts.push_back(torch::tensor(
      {losses.policy, losses.value, losses.ownership, losses.total, losses.score}, torch::kFloat));
  at::Tensor flat = torch::cat(parts).contiguous();
  average_(flat.data_ptr<float>(), static_cast<std::size_t>(flat.numel()));
  std::int64_t offset = 0;
  for (auto& p : params) {
    const std::int64_t n = p.numel();
    if (p.grad().defined()) p.mutable_grad().copy_(flat.narrow(0, offset, n).view(p.sizes()));
    offset += n;
  }
  const float* l = flat.data_ptr<float>() + offset;
  losses = Losses{l[0], l[1], l[2], l[3], l[4]};
}

Losses Learner::measure(const TrainBatch& batch) {
  torch::NoGradGuard no_grad;
  module_.eval();
  const Losses losses = loss(batch).second;
  module_.train();
  return losses;
}

void Learner::set_learning_rate(double lr) {
  for (auto& group : optimizer_->param_groups()) {
    if (optim_.optimizer == "sgd")
      static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
    else
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
  }
}

}  // namespace azg::nets
