#include "nets/inference.hpp"

#include <dlfcn.h>
#include <torch/script.h>
#include <torch/torch.h>

#include <chrono>
#include <mutex>

#include "nets/checkpoint.hpp"
#include "nets/cpu_support.hpp"
#include "nets/network.hpp"

namespace azg::nets {

struct InferenceModel::Impl {
  torch::jit::Module prototype;  // the folded graph; each update makes a copy of it
  std::shared_ptr<const torch::jit::Module> current;
  std::mutex swap_mutex;  // held only to read or replace `current`, never during a forward
  ModelMeta meta;
  torch::Device device{torch::kCPU};
  std::string precision;
  at::ScalarType dtype = at::kFloat;
  std::vector<int> columns;  // policy index -> column of the graph's logits (logit_columns)
  int width = 0;             // columns per row
  bool in_order = true;      // columns are the identity

  std::shared_ptr<const torch::jit::Module> snapshot() {
    std::lock_guard lock(swap_mutex);
    return current;
  }

  void set_weights(const torch::jit::Module& trained) {
    torch::jit::Module next = prototype.copy();  // same compiled graph, its own attribute slots
    fold_for_inference(trained, meta.shape, meta.net, dtype, next);
    next.to(device);
    auto graph = std::make_shared<const torch::jit::Module>(std::move(next));
    std::lock_guard lock(swap_mutex);
    current = std::move(graph);
  }

  static std::unique_ptr<Impl> make(const torch::jit::Module& trained, const ModelMeta& meta,
                                    const std::string& device, const std::string& precision) {
    auto impl = std::make_unique<Impl>();
    impl->device = torch::Device(resolve_device(device));
    impl->precision = resolve_precision(precision, device);
    impl->meta = meta;
    impl->prototype = folded_network(meta.shape, meta.net);
    if (precision == "fastest" && impl->precision == "bf16" && !impl->device.is_cuda())
      impl->precision = faster_precision(trained, meta);
    impl->dtype = impl->precision == "bf16"   ? at::kBFloat16
                  : impl->precision == "fp16" ? at::kHalf
                                              : at::kFloat;
    impl->columns = nets::logit_columns(trained, meta.shape, meta.net);
    impl->width = nets::logit_width(meta.shape, meta.net);
    for (std::size_t i = 0; i < impl->columns.size(); ++i)
      impl->in_order &= impl->columns[i] == static_cast<int>(i);
    impl->set_weights(trained);
    return impl;
  }
};

namespace {

// Seconds of the fastest of a few forwards of a batch of 64 random positions (after a
// warm-up), one thread as self-play runs them.
double forward_seconds(const torch::jit::Module& graph, const PlaneShape& s) {
  c10::InferenceMode inference;
  const at::Tensor input = torch::rand({64, s.channels, s.height, s.width});
  torch::jit::Module module = graph;
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 2; ++i) module.forward({input});
  double best = 1e30;
  for (int i = 0; i < 5; ++i) {
    const auto start = Clock::now();
    (void)module.forward({input}).toTuple()->elements()[0].toTensor().sum().item<float>();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

}  // namespace

std::string faster_precision(const torch::jit::Module& trained, const ModelMeta& meta) {
  // Native bfloat16 doubles the rate on some CPUs (AMD Zen 4) and costs a third on others
  // (an Intel Xeon with AVX512_BF16: docs/performance.md), and small networks lose the
  // most to the conversions, so "fastest" times this network both ways; bf16 must win by 5%.
  double seconds[2];
  for (const at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
    torch::jit::Module graph = folded_network(meta.shape, meta.net);
    fold_for_inference(trained, meta.shape, meta.net, dtype, graph);
    seconds[dtype == at::kBFloat16] = forward_seconds(graph, meta.shape.planes);
  }
  return seconds[1] < 0.95 * seconds[0] ? "bf16" : "fp32";
}

std::string faster_precision(const ModelMeta& meta) {
  return faster_precision(build_network(meta.shape, meta.net, 1), meta);
}

std::string resolve_precision(const std::string& precision, const std::string& device) {
  const bool cpu = resolve_device(device) == "cpu";
  if (precision == "fp32") return precision;
  if (precision == "bf16") {
    if (cpu && !cpu_has_native_bf16())
      throw Error(
          "bf16 inference needs a CPU with AVX512_BF16 or AMX-BF16 (this one has neither); use "
          "fp32 or auto");
    return precision;
  }
  if (precision == "fp16") {
    // Half precision is a GPU format: LibTorch's CPU kernels for it are slow or missing.
    if (cpu) throw Error("fp16 inference needs device cuda; on the CPU use fp32, bf16 or auto");
    return precision;
  }
  if (precision == "auto" || precision == "fastest") {
    // On an H100, fp16 beat fp32 at every batch and agreed with it best (KL 1.5e-5, the
    // same top action everywhere; bf16: 1e-3, 99%), see docs/performance.md#gpu
    if (!cpu) return "fp16";
    return cpu_has_native_bf16() ? "bf16" : "fp32";
  }
  throw Error("precision must be fp32, bf16, fp16, auto or fastest, got " + quote_input(precision));
}

std::string resolve_device(const std::string& device) {
  if (device == "auto") return torch::cuda::is_available() ? "cuda" : "cpu";
  if (device == "cpu") return device;
  if (device == "cuda") {
    if (!torch::cuda::is_available())
      throw Error(
          "device cuda requested but this LibTorch has no CUDA device (build with a CUDA "
          "LibTorch)");
    return device;
  }
  throw Error("device must be cpu, cuda or auto, got " + quote_input(device));
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

std::shared_ptr<InferenceModel> InferenceModel::load(const std::string& path,
                                                     const std::string& device,
                                                     const std::string& precision) {
  ModelMeta meta;
  const torch::jit::Module module = load_exported(path, meta, torch::kCPU);
  try {
    return std::shared_ptr<InferenceModel>(
        new InferenceModel(Impl::make(module, meta, device, precision)));
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  } catch (const std::exception&) {  // c10::Error, and the std exceptions of LibTorch's parsers
    throw Error(path + ": its tensors do not fit the network its meta.json describes");
  }
}

std::shared_ptr<InferenceModel> InferenceModel::fresh(const ModelMeta& meta, std::uint64_t seed,
                                                      const std::string& device,
                                                      const std::string& precision) {
  return from_module(build_network(meta.shape, meta.net, seed), meta, device, precision);
}

std::shared_ptr<InferenceModel> InferenceModel::from_module(const torch::jit::Module& module,
                                                            const ModelMeta& meta,
                                                            const std::string& device,
                                                            const std::string& precision) {
  return std::shared_ptr<InferenceModel>(
      new InferenceModel(Impl::make(module, meta, device, precision)));
}

const ModelMeta& InferenceModel::meta() const {
  return impl_->meta;
}
const std::string& InferenceModel::precision() const {
  return impl_->precision;
}
torch::jit::Module InferenceModel::graph() const {
  return *impl_->snapshot();
}

int InferenceModel::logit_width() const {
  return impl_->width;
}
const std::vector<int>& InferenceModel::logit_columns() const {
  return impl_->columns;
}

void InferenceModel::run(const float* planes, int batch, float* logits, float* values) {
  if (impl_->in_order) return run_raw(planes, batch, logits, values);
  const std::size_t policy = impl_->columns.size(), width = static_cast<std::size_t>(impl_->width);
  std::vector<float> raw(static_cast<std::size_t>(batch) * width);
  run_raw(planes, batch, raw.data(), values);
  for (std::size_t b = 0; b < static_cast<std::size_t>(batch); ++b)
    for (std::size_t i = 0; i < policy; ++i)
      logits[b * policy + i] = raw[b * width + static_cast<std::size_t>(impl_->columns[i])];
}

bool InferenceModel::has_score() const {
  return impl_->meta.net.score_head;
}

void InferenceModel::run_raw(const float* planes, int batch, float* logits, float* values,
                             float* scores) {
  const PlaneShape& s = impl_->meta.shape.planes;
  const int width = impl_->width;
  c10::InferenceMode inference;
  const at::Tensor input = torch::from_blob(const_cast<float*>(planes),
                                            {batch, s.channels, s.height, s.width}, torch::kFloat32)
                               .to(impl_->device);
  // A copy of the graph handle: a concurrent update swaps in a new graph without waiting
  // for this forward, which keeps running on the weights it started with.
  torch::jit::Module graph = *impl_->snapshot();  // a handle: shares the weights
  const auto out = graph.forward({input}).toTuple();
  const at::Tensor l = out->elements()[0].toTensor().to(torch::kCPU).contiguous();
  const at::Tensor v = out->elements()[1].toTensor().to(torch::kCPU).contiguous();
  std::memcpy(logits, l.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch) * width);
  std::memcpy(values, v.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch));
  if (scores != nullptr) {
    if (out->elements().size() < 3) throw Error("the network has no score head (net.score_head)");
    const at::Tensor sc = out->elements()[2].toTensor().to(torch::kCPU).contiguous();
    std::memcpy(scores, sc.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch));
  }
}

void InferenceModel::update_weights(const torch::jit::Module& module) {
  impl_->set_weights(module);
}

void InferenceModel::load_weights(const std::string& path) {
  ModelMeta meta;
  const torch::jit::Module module = load_exported(path, meta, torch::kCPU);
  meta.check_matches(impl_->meta, path);  // game, encoding, planes, policy
  if (meta.to_json()["net"] != impl_->meta.to_json()["net"])
    throw Error(path + " is a " + meta.game + " network of another shape than the one running");
  try {
    impl_->set_weights(module);
  } catch (const std::exception&) {  // c10::Error: tensors that do not fit
    throw Error(path + ": its tensors do not fit the network its meta.json describes");
  }
}

double InferenceModel::bare_forward_rate(int batch, double seconds) {
  const PlaneShape& s = impl_->meta.shape.planes;
  c10::InferenceMode inference;
  const at::Tensor input = torch::rand({batch, s.channels, s.height, s.width}).to(impl_->device);
  torch::jit::Module module = *impl_->snapshot();
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 3; ++i) module.forward({input});  // warm up
  const auto start = Clock::now();
  std::int64_t n = 0;
  double elapsed = 0;
  do {
    const auto out = module.forward({input}).toTuple();
    (void)out->elements()[0].toTensor().to(torch::kCPU);
    n += batch;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(n) / elapsed;
}

}  // namespace azg::nets
