#pragma once
// The policy/value network: a residual tower defined once as TorchScript source inside a
// torch::jit::Module, so training, inference and the exported model share one definition.
//
//   forward(planes[B,C,H,W]) -> (policy_logits[B,A], value[B])   value in [-1, 1] for the
//                                                                 player to act
//   heads(planes) -> (policy_logits[B,A], value_out[B,1] (tanh) or [B,3] (W/D/L logits)
//                     [, ownership_out[B,H*W] before tanh, with net.ownership])
#include <torch/script.h>

#include <cstdint>
#include <string>

#include "env/common/game.hpp"
#include "nets/model_meta.hpp"

namespace azg::nets {


// A fresh network with weights drawn from `seed`; throws azg::Error on a bad config.
torch::jit::Module build_network(const NetShape& shape, const NetConfig& config, std::uint64_t seed);

// The TorchScript source of that network (for tests and documentation).
std::string network_source(const NetConfig& config);

// Runs the module's forward under no-grad; returns (policy_logits[B,A], value[B]).
std::pair<at::Tensor, at::Tensor> run_forward(torch::jit::Module& module, const at::Tensor& planes);

}  // namespace azg::nets
