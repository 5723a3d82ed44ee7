#include "nets/session.hpp"

#include "core/error.hpp"
#include "nets/checkpoint.hpp"
#include "nets/learner.hpp"
#include "nets/model_identity.hpp"

namespace azg::nets {

struct TrainingSession::Impl {
  std::unique_ptr<Learner> learner;
  ModelMeta meta;
};

TrainingSession::TrainingSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TrainingSession::~TrainingSession() = default;

std::unique_ptr<TrainingSession> TrainingSession::create(const ModelMeta& meta,
                                                         const OptimConfig& optim,
                                                         std::uint64_t seed,
                                                         const std::string& device) {
  auto impl = std::make_unique<Impl>();
  impl->meta = meta;
  impl->learner = std::make_unique<Learner>(build_network(meta.shape, meta.net, seed), meta.net,
                                            optim, torch::Device(resolve_device(device)));
  return std::unique_ptr<TrainingSession>(new TrainingSession(std::move(impl)));
}

std::unique_ptr<TrainingSession> TrainingSession::resume(const std::string& checkpoint,
                                                         const OptimConfig& optim,
                                                         const std::string& device,
                                                         ModelMeta& meta) {
  auto impl = std::make_unique<Impl>();
  impl->learner = load_checkpoint(checkpoint, optim, torch::Device(resolve_device(device)), &meta);
  impl->meta = meta;
  return std::unique_ptr<TrainingSession>(new TrainingSession(std::move(impl)));
}

void TrainingSession::start_from(const std::string& path) {
  ModelMeta model_meta;
  const torch::jit::Module model = load_exported(path, model_meta, torch::kCPU);
  // How a model plays (its symmetry settings) is not part of its weights.
  auto weights_identity = [](const ModelMeta& meta) {
    nlohmann::json j = network_identity(meta);
    j["net"].erase("play_symmetry");
    j["net"].erase("play_symmetry_mean");
    return j;
  };
  const nlohmann::json wanted = weights_identity(impl_->meta);
  const nlohmann::json found = weights_identity(model_meta);
  if (found != wanted) {
    const std::string key = first_difference(wanted, found);
    const auto pointer = nlohmann::json::json_pointer(
        "/" + (key.rfind("net.", 0) == 0 ? "net/" + key.substr(4) : key));
    auto value = [&](const nlohmann::json& j) {
      return j.contains(pointer) ? j.at(pointer).dump() : std::string("none");
    };
    throw Error(path + " is not this run's network: its " + key + " is " + value(found) +
                ", the run's " + value(wanted) + " (set the run's keys to the model's)");
  }
  torch::jit::Module& target = impl_->learner->module();
  std::vector<std::pair<at::Tensor, at::Tensor>> copies;  // checked whole before any is made
  auto collect = [&](const std::string& name, const at::Tensor& into) {
    if (!model.hasattr(name)) throw Error(path + " has no tensor " + quote_input(name));
    const at::Tensor from = model.attr(name).toTensor();
    if (!from.sizes().equals(into.sizes()) || from.scalar_type() != into.scalar_type())
      throw Error(path + ": tensor " + quote_input(name) + " has another shape than this run's");
    copies.emplace_back(into, from);
  };
  for (const auto& p : target.named_parameters()) collect(p.name, p.value);
  for (const auto& b : target.named_buffers()) collect(b.name, b.value);
  torch::NoGradGuard no_grad;
  for (auto& [into, from] : copies) into.copy_(from);
}

Losses TrainingSession::step(const RawBatch& b) {
  const PlaneShape& s = impl_->meta.shape.planes;
  const int a = impl_->meta.shape.policy_size;
  TrainBatch batch;
  batch.planes =
      torch::from_blob(const_cast<float*>(b.planes.data()), {b.n, s.channels, s.height, s.width})
          .clone();
  batch.policy = torch::from_blob(const_cast<float*>(b.policy.data()), {b.n, a}).clone();
  batch.legal = torch::from_blob(const_cast<std::uint8_t*>(b.legal.data()), {b.n, a}, torch::kUInt8)
                    .to(torch::kBool);
  batch.value = torch::from_blob(const_cast<float*>(b.value.data()), {b.n}).clone();
  batch.policy_weight = torch::from_blob(const_cast<float*>(b.policy_weight.data()), {b.n}).clone();
  if (impl_->meta.net.ownership) {
    const int cells = s.height * s.width;
    if (b.ownership.size() != static_cast<std::size_t>(b.n) * cells ||
        b.ownership_weight.size() != static_cast<std::size_t>(b.n))
      throw Error(
          "a training batch without ownership targets for a network with an ownership head");
    batch.ownership =
        torch::from_blob(const_cast<float*>(b.ownership.data()), {b.n, cells}).clone();
    batch.ownership_weight =
        torch::from_blob(const_cast<float*>(b.ownership_weight.data()), {b.n}).clone();
  }
  if (impl_->meta.net.score_head) {
    if (b.score.size() != static_cast<std::size_t>(b.n) ||
        b.score_weight.size() != static_cast<std::size_t>(b.n))
      throw Error("a training batch without score targets for a network with a score head");
    batch.score = torch::from_blob(const_cast<float*>(b.score.data()), {b.n}).clone();
    batch.score_weight = torch::from_blob(const_cast<float*>(b.score_weight.data()), {b.n}).clone();
  }
  return impl_->learner->step(batch);
}

void TrainingSession::set_learning_rate(double lr) {
  impl_->learner->set_learning_rate(lr);
}
void TrainingSession::set_gradient_average(std::function<void(float*, std::size_t)> average) {
  impl_->learner->set_gradient_average(std::move(average));
}
std::int64_t TrainingSession::steps() const {
  return impl_->learner->steps();
}

void TrainingSession::save_checkpoint(const std::string& path, const ModelMeta& meta) {
  nets::save_checkpoint(path, *impl_->learner, meta);
}

void TrainingSession::export_model(const std::string& path, const ModelMeta& meta) {
  ModelMeta m = meta;
  m.step = steps();
  nets::export_model(impl_->learner->module(), m, path);
}

std::shared_ptr<InferenceModel> TrainingSession::make_inference(
    const std::string& device, const std::string& precision) const {
  return InferenceModel::from_module(impl_->learner->module(), impl_->meta, device, precision);
}

void TrainingSession::publish_to(InferenceModel& model) const {
  model.update_weights(impl_->learner->module());
}

}  // namespace azg::nets
