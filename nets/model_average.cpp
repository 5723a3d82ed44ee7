#include "nets/model_average.hpp"

#include <torch/script.h>

#include "nets/checkpoint.hpp"
#include "nets/model_identity.hpp"

namespace azg::nets {

ModelMeta average_models(const std::vector<std::string>& paths, const std::string& out_path) {
  if (paths.size() < 2)
    throw Error("averaging needs at least two models, got " + std::to_string(paths.size()));
  ModelMeta meta;
  torch::jit::Module mean = load_exported(paths.front(), meta, torch::kCPU);
  const nlohmann::json identity = network_identity(meta);
  // Sums in double, so that the mean of many models keeps fp32's precision.
  std::vector<std::pair<std::string, at::Tensor>> sums;
  for (const auto& p : mean.named_parameters()) sums.emplace_back(p.name, p.value.to(at::kDouble));
  for (const auto& b : mean.named_buffers())
    if (b.value.is_floating_point()) sums.emplace_back(b.name, b.value.to(at::kDouble));

  for (std::size_t i = 1; i < paths.size(); ++i) {
    ModelMeta other_meta;
    const torch::jit::Module other = load_exported(paths[i], other_meta, torch::kCPU);
    const nlohmann::json other_identity = network_identity(other_meta);
    if (other_identity != identity)
      throw Error(paths[i] + " is not the same network as " + paths.front() + " (they differ in " +
                  first_difference(identity, other_identity) + ")");
    for (auto& [name, sum] : sums) {
      if (!other.hasattr(name)) throw Error(paths[i] + " has no tensor " + quote_input(name));
      const at::Tensor t = other.attr(name).toTensor();
      if (!t.sizes().equals(sum.sizes()))
        throw Error(paths[i] + ": tensor " + quote_input(name) + " has another shape than in " +
                    paths.front());
      sum += t.to(at::kDouble);
    }
    // Integer buffers (the policy head's index tables) are the shape's, not learned: the
    // same in every model of one network.
    for (const auto& b : mean.named_buffers())
      if (!b.value.is_floating_point() &&
          (!other.hasattr(b.name) || !at::equal(other.attr(b.name).toTensor(), b.value)))
        throw Error(paths[i] + ": index table " + quote_input(b.name) + " differs from " +
                    paths.front() + "'s");
    meta.step = other_meta.step;
  }
  torch::NoGradGuard no_grad;
  const double n = static_cast<double>(paths.size());
  for (const auto& [name, sum] : sums) {
    at::Tensor target = mean.attr(name).toTensor();
    target.copy_((sum / n).to(target.scalar_type()));
  }
  export_model(mean, meta, out_path);
  return meta;
}

}  // namespace azg::nets
