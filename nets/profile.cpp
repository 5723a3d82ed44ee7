#include "nets/profile.hpp"

#include "core/error.hpp"

// The legacy profiler gives each operator's own time on the CPU in one call; a LibTorch
// that dropped it keeps everything else, and --profile then says so.
#if __has_include(<torch/csrc/autograd/profiler_legacy.h>)
#include <torch/csrc/autograd/profiler_legacy.h>
#define AZG_HAS_LEGACY_PROFILER 1
#endif
#include <torch/script.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <map>

namespace azg::nets {
namespace {

// Calls of `call` per second over `seconds`, after two warm-up calls.
template <class Call>
double calls_per_second(double seconds, Call call) {
  for (int i = 0; i < 2; ++i) call();
  const auto start = std::chrono::steady_clock::now();
  std::int64_t calls = 0;
  double elapsed = 0;
  do {
    call();
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(calls) / elapsed;
}

}  // namespace

std::string operator_backend(const std::string& name, const std::string& precision) {
  if (name.find("mkldnn") != std::string::npos) return "oneDNN";
  // Float32 matrix products go to the system BLAS (OpenBLAS after tools/setup.sh); in
  // bfloat16 LibTorch 1.13 sends them to oneDNN's matmul instead.
  if (name == "aten::addmm" || name == "aten::mm" || name == "aten::bmm" || name == "aten::matmul")
    return precision == "bf16" ? "oneDNN (bf16 matmul)" : "BLAS";
  if (name.find("slow_conv") != std::string::npos || name.find("thnn") != std::string::npos)
    return "native (im2col + BLAS)";
  if (name.find("xnnpack") != std::string::npos) return "XNNPACK";
  return "native";
}

ForwardProfile profile_forward(InferenceModel& model, int batch, int iterations) {
#ifndef AZG_HAS_LEGACY_PROFILER
  (void)model, (void)batch, (void)iterations;
  throw Error("--profile needs LibTorch's legacy profiler, which this LibTorch does not have");
#else
  namespace prof = torch::autograd::profiler;
  const PlaneShape& s = model.meta().shape.planes;
  torch::jit::Module graph = model.graph();
  c10::InferenceMode inference;
  const at::Tensor input = torch::rand({batch, s.channels, s.height, s.width});
  for (int i = 0; i < 3; ++i) graph.forward({input});  // warm up (oneDNN builds its primitives)
  prof::enableProfilerLegacy(
      torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) graph.forward({input});
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  const prof::thread_event_lists lists = prof::disableProfilerLegacy();

  // Self time: each range's length minus its children's, matched push/pop per thread.
  struct Totals {
    double self_us = 0;
    std::int64_t calls = 0;
  };
  std::map<std::string, Totals> totals;
  for (const auto& events : lists) {
    struct Open {
      const prof::LegacyEvent* push;
      double children_us;
    };
    std::vector<Open> stack;
    for (const auto& e : events) {
      if (e.kind() == prof::EventKind::PushRange) {
        stack.push_back({&e, 0.0});
      } else if (e.kind() == prof::EventKind::PopRange && !stack.empty()) {
        const Open open = stack.back();
        stack.pop_back();
        const double total = open.push->cpuElapsedUs(e);
        const std::string name = open.push->name();
        if (!stack.empty()) stack.back().children_us += total;
        // Only operators: the profiler also records the TorchScript function ranges.
        if (name.rfind("aten::", 0) != 0) continue;
        Totals& t = totals[name];
        t.self_us += total - open.children_us;
        ++t.calls;
      }
    }
  }
  ForwardProfile p;
  p.forward_us = wall_us / iterations;
  for (const auto& [name, t] : totals)
    p.operators.push_back({name, operator_backend(name, model.precision()), t.self_us / iterations,
                           static_cast<double>(t.calls) / iterations});
  std::sort(p.operators.begin(), p.operators.end(),
            [](const OperatorTime& a, const OperatorTime& b) { return a.self_us > b.self_us; });
  return p;
#endif
}

double flops_per_evaluation(const ModelMeta& meta) {
  const double cells = static_cast<double>(meta.shape.planes.height) * meta.shape.planes.width;
  const double c = meta.net.channels, in = meta.shape.planes.channels;
  double macs = cells * in * c * 9;                 // stem, 3x3
  macs += meta.net.blocks * 2 * cells * c * c * 9;  // two 3x3 convolutions per block
  if (meta.net.global_pooling) macs += meta.net.blocks * c * c;
  if (meta.net.plane_policy()) {  // 1x1 to c planes, 1x1 to the logit planes, globals
    macs += cells * c * (c + meta.shape.policy_map.planes) + c * meta.shape.policy_map.globals;
    if (meta.net.policy_head == "pairs")  // 1x1 to q and k, q . k for every plane and cell
      macs += cells * c * 2 * c + meta.shape.policy_map.planes * cells * c;
  } else {  // 1x1 to 2 planes, linear
    macs += cells * c * 2 + 2 * cells * meta.shape.policy_size;
  }
  macs += cells * c +
          (cells + c) * meta.net.value_hidden +  // value head: 1x1 to 1 plane, two linears
          meta.net.value_hidden * (meta.net.value_head == "wdl" ? 3 : 1);
  return 2 * macs;
}

double matmul_peak_gflops(const std::string& precision, double seconds) {
  c10::InferenceMode inference;
  const int n = 1024;
  const auto dtype = precision == "bf16" ? at::kBFloat16 : at::kFloat;
  const at::Tensor a = torch::rand({n, n}).to(dtype), b = torch::rand({n, n}).to(dtype);
  return 2.0 * n * n * n * calls_per_second(seconds, [&] { (void)torch::mm(a, b); }) * 1e-9;
}

double training_step_rate(const ModelMeta& meta, const std::string& precision, int batch,
                          double seconds) {
  OptimConfig optim;
  optim.precision = precision;
  auto session = TrainingSession::create(meta, optim, 1, "cpu");
  const PlaneShape& s = meta.shape.planes;
  const int a = meta.shape.policy_size, cells = s.height * s.width;
  RawBatch b;
  b.n = batch;
  const at::Tensor planes =
      (torch::rand({batch, s.channels * cells}) > 0.7).to(at::kFloat).contiguous();
  b.planes.assign(planes.data_ptr<float>(), planes.data_ptr<float>() + planes.numel());
  b.policy.assign(static_cast<std::size_t>(batch) * a, 1.0f / a);
  b.legal.assign(static_cast<std::size_t>(batch) * a, 1);
  b.value.assign(static_cast<std::size_t>(batch), 0.5f);
  b.policy_weight.assign(static_cast<std::size_t>(batch), 1.0f);
  if (meta.net.ownership) {
    b.ownership.assign(static_cast<std::size_t>(batch) * cells, 0.0f);
    b.ownership_weight.assign(static_cast<std::size_t>(batch), 1.0f);
  }
  if (meta.net.score_head) {
    b.score.assign(static_cast<std::size_t>(batch), 0.25f);
    b.score_weight.assign(static_cast<std::size_t>(batch), 1.0f);
  }
  return calls_per_second(seconds, [&] { session->step(b); });
}

}  // namespace azg::nets
