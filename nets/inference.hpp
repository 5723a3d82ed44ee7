#pragma once
// A network ready for inference, behind a LibTorch-free interface: float planes in,
// policy logits and values out, one call per batch.
//
// It runs an inference-only graph (network.hpp's folded form: batch norms folded into the
// convolutions, no training-only heads), in float32 or bfloat16. Calls from several
// threads run in parallel, with no lock around the forward: each call takes the current
// graph, and update_weights builds a new one and swaps it in atomically, so a batch never
// sees half-updated weights (the trainer publishes new networks this way).
#include <memory>
#include <string>
#include <vector>

#include "nets/model_meta.hpp"

namespace torch::jit {
struct Module;
}

namespace azg::nets {

// Inference precision: "fp32", "bf16", "fp16" (CUDA only), "auto" (fp16 on CUDA; bf16 on
// CPUs with native bfloat16 arithmetic, see cpu_support.hpp; fp32 on other CPUs), or
// "fastest":
// where auto would answer bf16, a model built with it times itself both ways
// (faster_precision). "auto" is fixed by the CPU, so two processes play the same games;
// "fastest" can differ between runs, and is for self-play, where throughput is the point.
std::string resolve_precision(const std::string& precision, const std::string& device);
// "bf16" when this network's forward runs at least 5% faster in bfloat16 than in float32
// on this CPU, else "fp32" (a few forwards of each; well under a second).
std::string faster_precision(const torch::jit::Module& trained, const ModelMeta& meta);
// The same on fresh weights of meta's shape (the time does not depend on the weights).
std::string faster_precision(const ModelMeta& meta);

class InferenceModel {
 public:
  // From an exported TorchScript file (meta.json inside); device "cpu", "cuda" or "auto".
  static std::shared_ptr<InferenceModel> load(const std::string& path,
                                              const std::string& device = "cpu",
                                              const std::string& precision = "fp32");
  // A fresh network (random weights from `seed`), for benchmarks and tests.
  static std::shared_ptr<InferenceModel> fresh(const ModelMeta& meta, std::uint64_t seed,
                                               const std::string& device = "cpu",
                                               const std::string& precision = "fp32");
  // The inference graph of `module` (the trainer's current weights).
  static std::shared_ptr<InferenceModel> from_module(const torch::jit::Module& module,
                                                     const ModelMeta& meta,
                                                     const std::string& device = "cpu",
                                                     const std::string& precision = "fp32");
  ~InferenceModel();

  const ModelMeta& meta() const;
  // "fp32", "bf16" or "fp16": the precision the graph runs in.
  const std::string& precision() const;
  // planes: batch x C x H x W floats; logits: batch x A in policy-index order; values: batch.
  void run(const float* planes, int batch, float* logits, float* values);
  // The same with the logits as the graph writes them: batch x logit_width(), index i in
  // column logit_columns()[i] (the identity for a dense policy head; a convolutional
  // head's planes and globals otherwise), so a caller reading a few actions skips the
  // gather of every index.
  // `scores`: where given, batch floats for the score head's output (has_score()).
  void run_raw(const float* planes, int batch, float* logits, float* values,
               float* scores = nullptr);
  // The network has a score head (net.score_head): run_raw can fill scores.
  bool has_score() const;
  int logit_width() const;
  const std::vector<int>& logit_columns() const;
  // Replaces the weights with those of `module` (the training form, same architecture).
  void update_weights(const torch::jit::Module& module);
  // The same from an exported model file (an actor taking the learner's new weights);
  // throws when the file is not a model of this one's game and shape. Running forwards
  // finish on the former weights.
  void load_weights(const std::string& path);
  // evaluations/s of the bare graph forward on a random batch (for bench nn).
  double bare_forward_rate(int batch, double seconds);
  // The current graph, for profiling (bench nn --profile).
  torch::jit::Module graph() const;

 private:
  struct Impl;
  explicit InferenceModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The device string to a torch device name, "auto" choosing CUDA when available.
std::string resolve_device(const std::string& device);

// Threads LibTorch uses inside one operation (its intra-op pool) and the BLAS library
// under it, process-wide.
void set_torch_threads(int threads);

// Threads the BLAS library under LibTorch may use per call, when that library is
// OpenBLAS (Debian's libtorch calls whichever libblas.so.3 is installed; the reference
// BLAS has no threads and is several times slower, see tools/setup.sh). azg runs games
// and searches in parallel itself, so it starts with 1. Returns false when the loaded
// BLAS offers no such control.
bool set_blas_threads(int threads);

// Writes the network of a checkpoint as an exported model (TorchScript + meta.json).
// Returns the checkpoint's metadata.
ModelMeta export_checkpoint(const std::string& checkpoint_path, const std::string& out_path);

}  // namespace azg::nets
