#include "nets/inference.hpp"

#include <torch/script.h>
#include <torch/torch.h>

#include <dlfcn.h>

#include <chrono>
#include <mutex>

#include "nets/checkpoint.hpp"
#include "nets/network.hpp"

namespace azg::nets {

struct InferenceModel::Impl {
  torch::jit::Module module;
  ModelMeta meta;
  torch::Device device{torch::kCPU};
  std::mutex mutex;
};

std::string resolve_device(const std::string& device) {
  if (device == "auto") return torch::cuda::is_available() ? "cuda" : "cpu";
  if (device == "cpu") return device;
  if (device == "cuda") {
    if (!torch::cuda::is_available())
      throw Error("device cuda requested but this LibTorch has no CUDA device (build with a CUDA LibTorch)");
    return device;
  }
  throw Error("device must be cpu, cuda or auto, got '" + device + "'");
}

void set_torch_threads(int threads) {
  if (threads < 1) return;
  at::set_num_threads(threads);
  set_blas_threads(threads);
}

bool set_blas_threads(int threads) {
  // Looked up at run time: azg does not link OpenBLAS itself, it gets whichever BLAS the
  // system's libblas.so.3 alternative points to.
  using SetThreads = void (*)(int);
  const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set == nullptr || threads < 1) return false;
  set(threads);
  return true;
}

InferenceModel::InferenceModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
InferenceModel::~InferenceModel() = default;

std::shared_ptr<InferenceModel> InferenceModel::load(const std::string& path, const std::string& device) {
  auto impl = std::make_unique<Impl>();
  impl->device = torch::Device(resolve_device(device));
  impl->module = load_exported(path, impl->meta, impl->device);
  return std::shared_ptr<InferenceModel>(new InferenceModel(std::move(impl)));
}

std::shared_ptr<InferenceModel> InferenceModel::fresh(const ModelMeta& meta, std::uint64_t seed,
                                                      const std::string& device) {
  return from_module(build_network(meta.shape, meta.net, seed), meta, device);
}

std::shared_ptr<InferenceModel> InferenceModel::from_module(const torch::jit::Module& module, const ModelMeta& meta,
                                                            const std::string& device) {
  auto impl = std::make_unique<Impl>();
  impl->device = torch::Device(resolve_device(device));
  impl->module = module.clone();
  impl->module.eval();
  impl->module.to(impl->device);
  impl->meta = meta;
  return std::shared_ptr<InferenceModel>(new InferenceModel(std::move(impl)));
}

const ModelMeta& InferenceModel::meta() const { return impl_->meta; }

void InferenceModel::run(const float* planes, int batch, float* logits, float* values) {
  const PlaneShape& s = impl_->meta.shape.planes;
  const int policy = impl_->meta.shape.policy_size;
  c10::InferenceMode inference;
  const at::Tensor input =
      torch::from_blob(const_cast<float*>(planes), {batch, s.channels, s.height, s.width}, torch::kFloat32)
          .to(impl_->device);
  std::lock_guard lock(impl_->mutex);
  const auto out = impl_->module.forward({input}).toTuple();
  const at::Tensor l = out->elements()[0].toTensor().to(torch::kCPU).contiguous();
  const at::Tensor v = out->elements()[1].toTensor().to(torch::kCPU).contiguous();
  std::memcpy(logits, l.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch) * policy);
  std::memcpy(values, v.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch));
}

void InferenceModel::update_weights(const torch::jit::Module& module) {
  torch::NoGradGuard no_grad;
  std::lock_guard lock(impl_->mutex);
  auto src = module.named_parameters();
  auto dst = impl_->module.named_parameters();
  auto s = src.begin();
  for (auto d = dst.begin(); d != dst.end() && s != src.end(); ++d, ++s) (*d).value.copy_((*s).value);
  auto src_b = module.named_buffers();
  auto dst_b = impl_->module.named_buffers();
  auto sb = src_b.begin();
  for (auto d = dst_b.begin(); d != dst_b.end() && sb != src_b.end(); ++d, ++sb) (*d).value.copy_((*sb).value);
}

double InferenceModel::bare_forward_rate(int batch, double seconds) {
  const PlaneShape& s = impl_->meta.shape.planes;
  c10::InferenceMode inference;
  const at::Tensor input = torch::rand({batch, s.channels, s.height, s.width}).to(impl_->device);
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 3; ++i) impl_->module.forward({input});  // warm up
  const auto start = Clock::now();
  std::int64_t n = 0;
  double elapsed = 0;
  do {
    const auto out = impl_->module.forward({input}).toTuple();
    (void)out->elements()[0].toTensor().to(torch::kCPU);
    n += batch;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(n) / elapsed;
}

}  // namespace azg::nets
