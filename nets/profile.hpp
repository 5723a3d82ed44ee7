#pragma once
// Where a forward's time goes: per-operator self time (LibTorch's profiler) with the
// backend that runs each operator, the network's arithmetic per evaluation, and the
// machine's matrix-multiply peak measured on the same threads, so a rate can be read as a
// share of what the cores can do. For `azg bench nn --profile`.
#include <string>
#include <vector>

#include "nets/inference.hpp"
#include "nets/model_meta.hpp"
#include "nets/session.hpp"

namespace azg::nets {

struct OperatorTime {
  std::string name;     // aten operator, e.g. aten::mkldnn_convolution
  std::string backend;  // oneDNN, BLAS (OpenBLAS), or native (LibTorch's own kernels)
  double self_us = 0;   // per forward, children excluded
  double calls = 0;     // per forward
};

struct ForwardProfile {
  std::vector<OperatorTime> operators;  // largest self time first
  double forward_us = 0;                // wall time per forward while profiled
};

// Profiles `iterations` forwards of the model's current graph on a random batch.
ForwardProfile profile_forward(InferenceModel& model, int batch, int iterations);

// Which backend runs an aten operator on the CPU in a graph of `precision` (fp32 or
// bf16), as LibTorch 1.13 dispatches them.
std::string operator_backend(const std::string& name, const std::string& precision);

// Multiply-adds x 2 per evaluation of the network `meta` describes (convolutions and
// linear layers; element-wise work is not counted).
double flops_per_evaluation(const ModelMeta& meta);

// GFLOP/s of a square matrix product (n x n, float32 or bfloat16) on the calling thread's
// intra-op threads: the machine's practical peak for that precision.
double matmul_peak_gflops(const std::string& precision, double seconds);

// Training steps/s (forward, backward, optimizer) of a fresh network of `meta`'s shape on
// random batches of `batch` positions, in `precision` (fp32 or bf16 mixed precision).
double training_step_rate(const ModelMeta& meta, const std::string& precision, int batch,
                          double seconds);

}  // namespace azg::nets
