#pragma once
// Checkpoints (weights + optimizer state + step + metadata, one file, written atomically)
// and exported models (one TorchScript file with meta.json, runnable without azg).
#include <memory>
#include <string>

#include "nets/learner.hpp"
#include "nets/model_meta.hpp"
#include "nets/untrained_model.hpp"  // export_untrained_model

namespace azg::nets {

void save_checkpoint(const std::string& path, Learner& learner, const ModelMeta& meta);

// The metadata of a checkpoint, without loading its tensors. Throws azg::Error on a file
// that is missing, truncated or not a checkpoint.
ModelMeta read_checkpoint_meta(const std::string& path);

// Rebuilds the network from the checkpoint's metadata, restores weights, optimizer state
// and step. `expected`, when given, must match the checkpoint's game and shapes.
std::unique_ptr<Learner> load_checkpoint(const std::string& path, const OptimConfig& optim,
                                         torch::Device device, ModelMeta* meta_out = nullptr);

// Writes `module` (in eval mode) as a TorchScript file carrying meta.json.
void export_model(torch::jit::Module module, const ModelMeta& meta, const std::string& path);

// Loads an exported model and its metadata; throws azg::Error on a bad file.
torch::jit::Module load_exported(const std::string& path, ModelMeta& meta, torch::Device device);

}  // namespace azg::nets
