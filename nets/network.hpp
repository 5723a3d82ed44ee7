#pragma once
// The policy/value network: a residual tower defined once as TorchScript source inside a
// torch::jit::Module, so training, inference and the exported model share one definition.
//
//   forward(planes[B,C,H,W]) -> (policy_logits[B,A], value[B])   value in [-1, 1] for the
//                                                                 player to act
//   heads(planes) -> (policy_logits[B,A], value_out[B,1] (tanh) or [B,3] (W/D/L logits)
//                     [, ownership_out[B,H*W] before tanh, with net.ownership]
//                     [, score_out[B,1] before tanh, with net.score_head])
#include <torch/script.h>

#include <cstdint>
#include <string>
#include <vector>

#include "env/common/game.hpp"
#include "nets/model_meta.hpp"

namespace azg::nets {

// A fresh network with weights drawn from `seed`; throws azg::Error on a bad config.
torch::jit::Module build_network(const NetShape& shape, const NetConfig& config,
                                 std::uint64_t seed);

// The two forms of one network's TorchScript source. kTraining has batch norms (and the
// ownership head); kFolded is the inference graph: every batch norm folded into the
// convolution before it, no auxiliary heads, run in the dtype of its weights (float32 or
// bfloat16) with float32 outputs. Same forward contract, except that a convolutional
// policy head's logits come out in logit_columns' order, and that with a score head it
// returns a third output, score[B] in [-1, 1] for the player to act.
enum class NetForm { kTraining, kFolded };
// When the shape names constant planes (NetShape::constant_planes), both forms read them
// as a vector: the stem's convolution runs over the other planes only, and the constant
// planes add one matrix product that gives exactly the convolution's result, border cells
// included (the parameters are the same either way).
std::string network_source(const NetShape& shape, const NetConfig& config,
                           NetForm form = NetForm::kTraining);

// An inference graph with placeholder weights (fold_for_inference fills them); its stem is
// split when the shape names constant planes.
torch::jit::Module folded_network(const NetShape& shape, const NetConfig& config);

// Sets `folded`'s weights (a module from folded_network, or a copy of one) from a trained
// network's, with batch norm (in eval mode: running statistics) folded in, cast to
// `dtype`. Throws azg::Error when `trained` lacks a parameter of that shape's network.
void fold_for_inference(const torch::jit::Module& trained, const NetShape& shape,
                        const NetConfig& config, at::ScalarType dtype, torch::jit::Module& folded);

// The folded form's policy output has logit_width() columns; policy index i reads column
// logit_columns()[i]. A dense head writes the indices in order (the identity); a
// convolutional head writes its logit planes and global logits side by side, and the
// columns come from the trained network's policy_slots. Throws azg::Error on slots that
// do not fit.
std::vector<int> logit_columns(const torch::jit::Module& trained, const NetShape& shape,
                               const NetConfig& config);
int logit_width(const NetShape& shape, const NetConfig& config);

// Runs the module's forward under no-grad; returns (policy_logits[B,A], value[B]).
std::pair<at::Tensor, at::Tensor> run_forward(torch::jit::Module& module, const at::Tensor& planes);

}  // namespace azg::nets
