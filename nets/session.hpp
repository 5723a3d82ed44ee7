#pragma once
// Training behind a LibTorch-free interface, so the trainer's templates over games do not
// compile LibTorch headers: a network with its optimizer, fed plain float batches.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nets/inference.hpp"
#include "nets/model_meta.hpp"
#include "nets/training_settings.hpp"

namespace azg::nets {

// A training batch as plain arrays (row-major), for n positions.
struct RawBatch {
  int n = 0;
  std::vector<float> planes;            // n x C x H x W
  std::vector<float> policy;            // n x A, the target (0 off the legal actions)
  std::vector<std::uint8_t> legal;      // n x A, 1 where an action is legal and has an index
  std::vector<float> value;             // n, the result for the player to act
  std::vector<float> policy_weight;     // n, 1 for full searches, 0 for cheap ones
  std::vector<float> ownership;         // n x H x W: the game's ownership() at its end, or empty
  std::vector<float> ownership_weight;  // n: 1 where that target is known, or empty
  std::vector<float> score;         // n: tanh(final margin / scale) for the player to act, or empty
  std::vector<float> score_weight;  // n: 1 where that target is known, or empty
};

class TrainingSession {
 public:
  static std::unique_ptr<TrainingSession> create(const ModelMeta& meta, const OptimConfig& optim,
                                                 std::uint64_t seed, const std::string& device);
  // Restores weights, optimizer state and step from a checkpoint; throws azg::Error.
  static std::unique_ptr<TrainingSession> resume(const std::string& checkpoint,
                                                 const OptimConfig& optim,
                                                 const std::string& device, ModelMeta& meta);
  ~TrainingSession();
  // Replaces the new network's weights by those of the exported model at `path`, which
  // must be this network (game, encoding, net.*; its play settings may differ): a run
  // that goes on training a model. Throws azg::Error, naming what differs, and changes
  // nothing on a missing, damaged or other network.
  void start_from(const std::string& path);

  Losses step(const RawBatch& batch);
  void set_learning_rate(double lr);
  // Data-parallel training: after each backward pass, `average` replaces the gradients
  // and losses (one float array) by their mean over the learners (nets::Learner).
  void set_gradient_average(std::function<void(float* values, std::size_t n)> average);
  std::int64_t steps() const;
  void save_checkpoint(const std::string& path, const ModelMeta& meta);
  void export_model(const std::string& path, const ModelMeta& meta);
  std::shared_ptr<InferenceModel> make_inference(const std::string& device,
                                                 const std::string& precision) const;
  void publish_to(InferenceModel& model) const;

 private:
  struct Impl;
  explicit TrainingSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace azg::nets
