// The inference graph: folded batch norms and the split stem give the training network's
// outputs; bfloat16 stays close; weights swap atomically under concurrent forwards; the
// profile, FLOP count and precision choice say what they should.
#include "nets/inference.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "env/common/random_play.hpp"
#include "env/connect4/connect4.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "nets/cpu_support.hpp"
#include "nets/learner.hpp"
#include "nets/network.hpp"
#include "nets/profile.hpp"

namespace azg::nets {
namespace {

NetConfig config(std::string value_head = "tanh", bool pooling = true) {
  NetConfig c;
  c.blocks = 2;
  c.channels = 16;
  c.value_hidden = 16;
  c.value_head = std::move(value_head);
  c.global_pooling = pooling;
  return c;
}

// A network whose batch norms hold non-trivial statistics, as after training.
torch::jit::Module trained_network(const ModelMeta& meta, std::uint64_t seed) {
  torch::jit::Module m = build_network(meta.shape, meta.net, seed);
  torch::NoGradGuard no_grad;
  torch::manual_seed(seed);
  for (const auto& p : m.named_parameters())
    if (p.name.size() > 2 && p.name.substr(p.name.size() - 2) == "_w" && p.value.dim() == 1)
      p.value.uniform_(0.5, 1.5);
  for (const auto& b : m.named_buffers()) {
    if (b.name.substr(b.name.size() - 2) == "_m") b.value.uniform_(-0.3, 0.3);
    if (b.name.substr(b.name.size() - 2) == "_v") b.value.uniform_(0.5, 2.0);
  }
  m.eval();
  return m;
}

// Encoded planes of positions from random games.
template <Game G>
std::vector<float> real_planes(int n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> planes;
  std::vector<float> one(static_cast<std::size_t>(G::kPlanes.size()));
  while (static_cast<int>(planes.size()) < n * G::kPlanes.size()) {
    G g = G::random_setup(rng);
    const int plies = static_cast<int>(rng.below(30));
    for (int i = 0; i < plies && !g.is_terminal(); ++i) g.apply(random_action(g, rng));
    if (g.is_terminal() || g.to_act() == Player::kChance) continue;
    g.encode(one);
    planes.insert(planes.end(), one.begin(), one.end());
  }
  return planes;
}

template <Game G>
void expect_folded_equals_training(const NetConfig& net, const std::string& precision,
                                   float tolerance) {
  const ModelMeta meta = meta_for<G>(net);
  torch::jit::Module trained = trained_network(meta, 3);
  auto model = InferenceModel::from_module(trained, meta, "cpu", precision);
  const int n = 12;
  std::vector<float> planes = real_planes<G>(n, 9);
  std::vector<float> logits(static_cast<std::size_t>(n) * G::kPolicySize), values(n);
  model->run(planes.data(), n, logits.data(), values.data());
  const auto input = torch::from_blob(
      planes.data(), {n, G::kPlanes.channels, G::kPlanes.height, G::kPlanes.width});
  const auto [p, v] = run_forward(trained, input);
  const auto got_p = torch::from_blob(logits.data(), {n, G::kPolicySize});
  const auto got_v = torch::from_blob(values.data(), {n});
  EXPECT_LT((got_p - p).abs().max().template item<float>(), tolerance)
      << G::kName << " " << precision;
  EXPECT_LT((got_v - v).abs().max().template item<float>(), tolerance)
      << G::kName << " " << precision;
}

TEST(InferenceGraph, FoldedFloat32GivesTheTrainingNetworksOutputs) {
  // Imbriqua declares constant planes (split stem); Lignes does not.
  ASSERT_FALSE(meta_for<Imbriqua>(config()).shape.constant_planes.empty());
  ASSERT_TRUE(meta_for<Lignes>(config()).shape.constant_planes.empty());
  expect_folded_equals_training<Imbriqua>(config(), "fp32", 2e-4f);
  expect_folded_equals_training<Imbriqua>(config("wdl", false), "fp32", 2e-4f);
  expect_folded_equals_training<Lignes>(config(), "fp32", 2e-4f);
}

NetConfig conv_head(NetConfig c) {
  c.policy_head = "conv";
  return c;
}

TEST(InferenceGraph, TheConvolutionalPolicyHeadFoldsToo) {
  expect_folded_equals_training<Imbriqua>(conv_head(config()), "fp32", 2e-4f);
  expect_folded_equals_training<Lignes>(conv_head(config()), "fp32", 2e-4f);
  expect_folded_equals_training<Intercept>(conv_head(config()), "fp32", 2e-4f);
  expect_folded_equals_training<Truchet>(conv_head(config()), "fp32", 2e-4f);
  // No global logits: the one unused global column is never read.
  expect_folded_equals_training<Imperator>(conv_head(config()), "fp32", 2e-4f);
  if (cpu_has_native_bf16())
    expect_folded_equals_training<Imbriqua>(conv_head(config()), "bf16", 0.15f);
}

TEST(InferenceGraph, ThePairPolicyHeadFoldsToo) {
  NetConfig pairs = config();
  pairs.policy_head = "pairs";
  expect_folded_equals_training<Imperator>(pairs, "fp32", 2e-4f);
  expect_folded_equals_training<Truchet>(pairs, "fp32", 2e-4f);
  if (cpu_has_native_bf16()) expect_folded_equals_training<Imperator>(pairs, "bf16", 0.15f);
}

NetConfig with_score(NetConfig c) {
  c.score_head = true;
  return c;
}

// The score head's output in the inference graph is tanh of the training form's score
// logit; the value and policy are unchanged by the extra head.
TEST(InferenceGraph, TheScoreHeadFoldsAndComesOutBesideTheValue) {
  expect_folded_equals_training<Imbriqua>(conv_head(with_score(config())), "fp32", 2e-4f);
  const ModelMeta meta = meta_for<Imbriqua>(with_score(config()));
  torch::jit::Module trained = trained_network(meta, 5);
  auto model = InferenceModel::from_module(trained, meta, "cpu", "fp32");
  ASSERT_TRUE(model->has_score());
  const int n = 10;
  std::vector<float> planes = real_planes<Imbriqua>(n, 4);
  std::vector<float> logits(static_cast<std::size_t>(n) * model->logit_width()), values(n),
      scores(n, 9.0f);
  model->run_raw(planes.data(), n, logits.data(), values.data(), scores.data());
  const auto input = torch::from_blob(planes.data(), {n, Imbriqua::kPlanes.channels, 8, 8});
  torch::NoGradGuard no_grad;
  const auto heads = trained.get_method("heads")({input}).toTuple();
  ASSERT_EQ(heads->elements().size(), 3u) << "policy, value, score";
  const auto expected = torch::tanh(heads->elements()[2].toTensor().select(1, 0));
  EXPECT_LT((torch::from_blob(scores.data(), {n}) - expected).abs().max().item<float>(), 2e-4f);
  EXPECT_GT(expected.abs().max().item<float>(), 1e-3f) << "a score that is not trivially 0";
  // The exported contract stays (policy, value).
  EXPECT_EQ(trained.forward({input}).toTuple()->elements().size(), 2u);
  // A network without the head says so, and refuses to fill scores.
  auto plain = InferenceModel::fresh(meta_for<Imbriqua>(config()), 1, "cpu", "fp32");
  EXPECT_FALSE(plain->has_score());
  EXPECT_THROW(plain->run_raw(planes.data(), n, logits.data(), values.data(), scores.data()),
               Error);
}

// A convolutional head's logit for a policy index is the logit plane's value at the
// index's cell: set one plane's bias and only that plane's indices move.
TEST(Network, TheConvolutionalHeadReadsEachIndexAtItsSlot) {
  const ModelMeta meta = meta_for<Imbriqua>(conv_head(config()));
  torch::jit::Module net = build_network(meta.shape, meta.net, 4);
  net.eval();
  const auto input = torch::from_blob(real_planes<Imbriqua>(2, 5).data(), {2, 80, 8, 8}).clone();
  const auto before = run_forward(net, input).first;
  {
    torch::NoGradGuard no_grad;
    net.attr("policy_out_b").toTensor()[57] += 5.0;    // removals
    net.attr("policy_global_b").toTensor()[0] += 3.0;  // stop
  }
  const auto moved = run_forward(net, input).first - before;
  for (int i = 0; i < Imbriqua::kPolicySize; ++i) {
    const float expected = i >= Imbriqua::kRemoveIndexBase ? 5.0f
                           : i == Imbriqua::kStopIndex     ? 3.0f
                                                           : 0.0f;
    ASSERT_NEAR(moved[0][i].item<float>(), expected, 1e-4) << "index " << i;
  }
}

// The maps tie each action to the cell a network sees it at: Imbriqua's, Intercept's,
// Truchet's and Imperator's moves to the square of the piece that moves, the placements to
// an empty cell, Truchet's flips to a tile. `check(planes, plane, cell, action)` runs on every
// mapped legal action.
template <Game G, class Check>
int for_mapped_actions(int games, Check check) {
  int checked = 0;
  const PolicyMap map = policy_map<G>();
  const int cells = G::kPlanes.height * G::kPlanes.width;
  std::vector<float> planes(static_cast<std::size_t>(G::kPlanes.size()));
  for (int game = 0; game < games; ++game) {
    Rng rng(70 + game);
    G g = G::random_setup(rng);
    for (int ply = 0; ply < 120 && !g.is_terminal(); ++ply) {
      if (g.to_act() != Player::kChance) {
        g.encode(planes);
        ActionListFor<G> actions;
        g.legal_actions(actions);
        for (const Action a : actions) {
          const int index = g.policy_index(a);
          if (index < 0) continue;
          const int slot = map.slots[static_cast<std::size_t>(index)];
          if (slot < map.planes * cells) check(g, planes, slot / cells, slot % cells, a);
          ++checked;
        }
      }
      g.apply(random_action(g, rng));
    }
  }
  return checked;
}

TEST(PolicyMap, ActionsSitAtTheirCells) {
  const auto at = [](const std::vector<float>& planes, int plane, int cell, int cells) {
    return planes[static_cast<std::size_t>(plane * cells + cell)];
  };
  EXPECT_GT(
      for_mapped_actions<Imbriqua>(
          3,
          [&](const Imbriqua& g, const std::vector<float>& p, int plane, int cell, Action a) {
            if (plane >= 1 && plane <= 56) {
              ASSERT_EQ(at(p, 0, cell, 64), 1.0f) << g.action_to_string(a) << " moves no own pawn";
            }
            if (plane == 0) {
              ASSERT_EQ(at(p, 0, cell, 64) + at(p, 1, cell, 64), 0.0f) << g.action_to_string(a);
            }
          }),
      500);
  EXPECT_GT(
      for_mapped_actions<Intercept>(
          2,
          [&](const Intercept& g, const std::vector<float>& p, int plane, int cell, Action a) {
            const int cells = Intercept::kSquares;
            if (plane < 96) {
              ASSERT_EQ(at(p, 0, cell, cells) + at(p, 1, cell, cells) + at(p, 2, cell, cells) +
                            at(p, 3, cell, cells),
                        1.0f)
                  << g.action_to_string(a) << " moves no own pawn";
            }
          }),
      500);
  EXPECT_GT(for_mapped_actions<Lignes>(
                3,
                [&](const Lignes& g, const std::vector<float>& p, int plane, int cell, Action a) {
                  if (plane == 0) {
                    ASSERT_EQ(at(p, 0, cell, 256) + at(p, 1, cell, 256), 0.0f)
                        << g.action_to_string(a) << " places on a pawn";
                    ASSERT_EQ(at(p, 2, cell, 256), 1.0f) << g.action_to_string(a);
                  }
                }),
            500);
  // Truchet: plane 1 + to holds the river moves to junction `to`, at the moving stack's
  // junction; `to` is one the mover's stacks reach (plane 20).
  EXPECT_GT(for_mapped_actions<Truchet>(
                2,
                [&](const Truchet& g, const std::vector<float>& p, int plane, int cell, Action a) {
                  const float own = at(p, 0, cell, 64) + at(p, 1, cell, 64) + at(p, 2, cell, 64) +
                                    at(p, 3, cell, 64);
                  if (plane == 0) ASSERT_EQ(at(p, 9, cell, 64), 1.0f) << g.action_to_string(a);
                  if (plane >= 1 && plane <= 64) {
                    ASSERT_EQ(own, 1.0f) << g.action_to_string(a) << " moves no own stack";
                    ASSERT_EQ(at(p, 20, plane - 1, 64), 1.0f)
                        << g.action_to_string(a) << " goes where no river reaches";
                  }
                  if (plane >= 65 && plane < 65 + Truchet::kSplitPatterns)
                    ASSERT_EQ(own, 1.0f) << g.action_to_string(a) << " splits no own stack";
                }),
            500);
  // Imperator: plane 0 places on an empty cell of the board, plane 1 + to moves an own
  // piece from its cell.
  const int hex = Imperator::kPlanes.height * Imperator::kPlanes.width;
  EXPECT_GT(
      for_mapped_actions<Imperator>(
          2,
          [&](const Imperator& g, const std::vector<float>& p, int plane, int cell, Action a) {
            if (plane == 0) {
              ASSERT_EQ(at(p, 0, cell, hex) + at(p, 1, cell, hex), 0.0f)
                  << g.action_to_string(a) << " places on a piece";
              ASSERT_EQ(at(p, 2, cell, hex), 1.0f) << g.action_to_string(a);
            } else {
              ASSERT_EQ(at(p, 0, cell, hex), 1.0f)
                  << g.action_to_string(a) << " moves no own piece";
            }
          }),
      500);
}

TEST(Network, AGameWithoutAPolicyMapRefusesTheConvolutionalHead) {
  const ModelMeta meta = meta_for<Connect4>(conv_head(config()));
  EXPECT_TRUE(meta.shape.policy_map.slots.empty());
  try {
    build_network(meta.shape, meta.net, 1);
    FAIL() << "built";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("policy map"), std::string::npos) << e.what();
  }
}

TEST(InferenceGraph, Bfloat16StaysCloseToFloat32) {
  if (!cpu_has_native_bf16()) GTEST_SKIP() << "this CPU has no native bfloat16";
  expect_folded_equals_training<Imbriqua>(config(), "bf16", 0.15f);
  expect_folded_equals_training<Lignes>(config(), "bf16", 0.15f);
}

TEST(InferenceGraph, PrecisionChoice) {
  EXPECT_EQ(resolve_precision("fp32", "cpu"), "fp32");
  EXPECT_EQ(resolve_precision("auto", "cpu"), cpu_has_native_bf16() ? "bf16" : "fp32");
  EXPECT_THROW(resolve_precision("fp16", "cpu"), Error);
  if (cpu_has_native_bf16())
    EXPECT_EQ(resolve_precision("bf16", "cpu"), "bf16");
  else
    EXPECT_THROW(resolve_precision("bf16", "cpu"), Error);
}

TEST(InferenceGraph, FastestPrecisionTimesTheNetworkWhereBfloat16IsNative) {
  const ModelMeta meta = meta_for<Lignes>(config());
  EXPECT_EQ(InferenceModel::fresh(meta, 1, "cpu", "auto")->precision(),
            resolve_precision("auto", "cpu"))
      << "auto is fixed by the CPU, so two processes play the same games";
  const std::string chosen = InferenceModel::fresh(meta, 1, "cpu", "fastest")->precision();
  if (!cpu_has_native_bf16()) {
    EXPECT_EQ(chosen, "fp32") << "nothing to time without native bfloat16";
    return;
  }
  // Which one wins depends on the CPU; either is a real choice, run in that precision.
  EXPECT_TRUE(chosen == "fp32" || chosen == "bf16") << chosen;
  const std::string timed = faster_precision(meta);
  EXPECT_TRUE(timed == "fp32" || timed == "bf16") << timed;
  EXPECT_EQ(InferenceModel::fresh(meta, 1, "cpu", "bf16")->precision(), "bf16")
      << "an explicit choice is kept";
}

TEST(InferenceGraph, WeightsSwapWholeUnderConcurrentForwards) {
  const ModelMeta meta = meta_for<Imbriqua>(config());
  const torch::jit::Module a = trained_network(meta, 1), b = trained_network(meta, 2);
  auto model = InferenceModel::from_module(a, meta, "cpu", "fp32");
  const int n = 4;
  std::vector<float> planes = real_planes<Imbriqua>(n, 5);
  const auto values_of = [&](const torch::jit::Module& m) {
    const auto input = torch::from_blob(planes.data(), {n, Imbriqua::kPlanes.channels, 8, 8});
    torch::jit::Module copy = m;
    return run_forward(copy, input).second.clone();
  };
  const at::Tensor va = values_of(a), vb = values_of(b);
  ASSERT_GT((va - vb).abs().max().template item<float>(), 1e-3f) << "the two networks must differ";
  std::atomic<bool> stop{false};
  std::atomic<int> forwards{0}, mixed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&] {
      std::vector<float> logits(static_cast<std::size_t>(n) * Imbriqua::kPolicySize), values(n);
      while (!stop) {
        model->run(planes.data(), n, logits.data(), values.data());
        const auto v = torch::from_blob(values.data(), {n});
        const bool is_a = (v - va).abs().max().template item<float>() < 1e-4f;
        const bool is_b = (v - vb).abs().max().template item<float>() < 1e-4f;
        if (!is_a && !is_b) ++mixed;
        ++forwards;
      }
    });
  for (int i = 0; i < 60; ++i) model->update_weights(i % 2 == 0 ? b : a);
  while (forwards < 50) std::this_thread::yield();
  stop = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(mixed.load(), 0) << "a forward saw a mix of two weight sets";
}

TEST(InferenceGraph, NotAnAzgNetworkIsAClearError) {
  const ModelMeta meta = meta_for<Lignes>(config());
  torch::jit::Module other("Other");
  other.register_parameter("stem", torch::zeros({1}), false);
  EXPECT_THROW(InferenceModel::from_module(other, meta, "cpu", "fp32"), Error);
}

TEST(Profile, OperatorsBackendsAndFlops) {
  NetConfig net = config();
  net.global_pooling = false;
  const ModelMeta meta = meta_for<Lignes>(net);
  // stem 3x3 + 2 blocks x 2 convs 3x3 + policy (1x1, linear) + value (1x1, two linears).
  const double cells = meta.shape.planes.height * meta.shape.planes.width;
  const double c = 16, in = meta.shape.planes.channels;
  const double macs = cells * in * c * 9 + 4 * cells * c * c * 9 + cells * c * 2 +
                      2 * cells * meta.shape.policy_size + cells * c + (cells + c) * 16 + 16;
  EXPECT_DOUBLE_EQ(flops_per_evaluation(meta), 2 * macs);
  // The plane heads replace the dense layer: 1x1 to c planes, 1x1 to the logit planes and
  // the globals; the pair head adds q and k and their products on every plane.
  const double dense_macs = cells * c * 2 + 2 * cells * meta.shape.policy_size;
  const double planes = meta.shape.policy_map.planes, globals = meta.shape.policy_map.globals;
  const double conv_macs = cells * c * (c + planes) + c * globals;
  const ModelMeta lignes_conv = meta_for<Lignes>(conv_head(net));
  EXPECT_DOUBLE_EQ(flops_per_evaluation(lignes_conv), 2 * (macs - dense_macs + conv_macs));
  NetConfig pairs_net = net;
  pairs_net.policy_head = "pairs";
  const ModelMeta pairs = meta_for<Truchet>(pairs_net);
  const ModelMeta truchet_conv = meta_for<Truchet>(conv_head(net));
  const double t_cells = 64, t_planes = Truchet::kPolicyPlanes;
  EXPECT_DOUBLE_EQ(flops_per_evaluation(pairs) - flops_per_evaluation(truchet_conv),
                   2 * (t_cells * c * 2 * c + t_planes * t_cells * c));
  auto model = InferenceModel::fresh(meta, 4, "cpu", "fp32");
  const ForwardProfile p = profile_forward(*model, 8, 3);
  ASSERT_FALSE(p.operators.empty());
  EXPECT_GT(p.forward_us, 0);
  bool conv = false;
  for (const auto& op : p.operators) {
    EXPECT_EQ(op.name.rfind("aten::", 0), 0u) << op.name;
    if (op.name.find("conv") != std::string::npos && op.calls >= 5) conv = true;
  }
  EXPECT_TRUE(conv) << "the five convolutions appear in the profile";
  EXPECT_EQ(operator_backend("aten::mkldnn_convolution", "fp32"), "oneDNN");
  EXPECT_EQ(operator_backend("aten::addmm", "fp32"), "BLAS");
  EXPECT_GT(matmul_peak_gflops("fp32", 0.05), 0.1);
}

TEST(Learner, MixedPrecisionLearns) {
  if (!cpu_has_native_bf16()) GTEST_SKIP() << "this CPU has no native bfloat16";
  const ModelMeta meta = meta_for<Lignes>(config());
  OptimConfig optim;
  optim.precision = "bf16";
  Learner learner(build_network(meta.shape, meta.net, 5), meta.net, optim, torch::kCPU);
  const int n = 16, a = meta.shape.policy_size;
  TrainBatch batch;
  std::vector<float> planes = real_planes<Lignes>(n, 3);
  batch.planes =
      torch::from_blob(planes.data(), {n, meta.shape.planes.channels, meta.shape.planes.height,
                                       meta.shape.planes.width})
          .clone();
  batch.legal = torch::ones({n, a}, torch::kBool);
  batch.policy = torch::zeros({n, a});
  batch.policy.index_put_({torch::indexing::Slice(), 0}, 1.0f);
  batch.value = torch::ones({n}) * 0.5f;
  batch.policy_weight = torch::ones({n});
  const float before = learner.step(batch).total;
  float after = before;
  for (int i = 0; i < 30; ++i) after = learner.step(batch).total;
  EXPECT_LT(after, 0.5f * before);
  for (const auto& p : learner.module().parameters())
    EXPECT_EQ(p.scalar_type(), at::kFloat) << "weights stay fp32";
  OptimConfig bad;
  bad.precision = "fp8";
  EXPECT_THROW(Learner(build_network(meta.shape, meta.net, 5), meta.net, bad, torch::kCPU), Error);
}

TEST(ModelMeta, ConstantPlanesTravelAndAreChecked) {
  ModelMeta meta = meta_for<Imbriqua>(config());
  const ModelMeta back = ModelMeta::from_json(meta.to_json(), "m");
  EXPECT_EQ(back.shape.constant_planes, meta.shape.constant_planes);
  meta.shape.constant_planes = {4, 5};
  EXPECT_THROW(meta.check_game<Imbriqua>("m"), Error);
  nlohmann::json j = meta_for<Imbriqua>(config()).to_json();
  j["constant_planes"] = {400};
  EXPECT_THROW(ModelMeta::from_json(j, "m"), Error);
  j.erase("constant_planes");
  EXPECT_TRUE(ModelMeta::from_json(j, "m").shape.constant_planes.empty())
      << "older models still load";
}

}  // namespace
}  // namespace azg::nets

namespace azg::nets {
namespace {

// The training network reads constant planes as a vector: the same outputs and the same
// stem gradient as the plain convolution over every plane.
TEST(Network, SplitStemIsThePlainConvolution) {
  const NetConfig net = config();
  NetShape split = meta_for<Imbriqua>(net).shape, plain = split;
  plain.constant_planes.clear();
  torch::jit::Module a = build_network(split, net, 7), b = build_network(plain, net, 7);
  std::vector<float> planes = real_planes<Imbriqua>(6, 2);
  const auto input = torch::from_blob(planes.data(), {6, Imbriqua::kPlanes.channels, 8, 8}).clone();
  a.train();
  b.train();
  const auto out_a = a.get_method("heads")({input}).toTuple();
  const auto out_b = b.get_method("heads")({input}).toTuple();
  const at::Tensor pa = out_a->elements()[0].toTensor(), pb = out_b->elements()[0].toTensor();
  EXPECT_LT((pa - pb).abs().max().template item<float>(), 1e-4f);
  (pa.square().sum() + out_a->elements()[1].toTensor().sum()).backward();
  (pb.square().sum() + out_b->elements()[1].toTensor().sum()).backward();
  const at::Tensor ga = a.attr("stem").toTensor().grad(), gb = b.attr("stem").toTensor().grad();
  ASSERT_TRUE(ga.defined() && gb.defined());
  EXPECT_LT((ga - gb).abs().max().template item<float>(),
            1e-3f * std::max(1.0f, gb.abs().max().template item<float>()));
}

}  // namespace
}  // namespace azg::nets

namespace azg::nets {
namespace {

// The BLAS restart is silent (errors stay one line); the restarted process can still say why.
TEST(CpuSupport, TheBlasRestartNoteNamesTheKernelsBeforeAndAfter) {
  const char* had = std::getenv("OPENBLAS_CORETYPE");
  const std::string kept = had != nullptr ? had : "";
  ::unsetenv("AZG_BLAS_RESTARTED_FROM");
  EXPECT_EQ(openblas_restart_note(), "");  // not restarted
  ::setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  ::setenv("AZG_BLAS_RESTARTED_FROM", "Prescott", 1);
  EXPECT_EQ(openblas_restart_note(),
            "azg restarted with OPENBLAS_CORETYPE=Haswell: OpenBLAS did not recognise this CPU and "
            "chose Prescott "
            "(SSE3) kernels");
  ::unsetenv("AZG_BLAS_RESTARTED_FROM");
  if (had != nullptr) {
    ::setenv("OPENBLAS_CORETYPE", kept.c_str(), 1);
  } else {
    ::unsetenv("OPENBLAS_CORETYPE");
  }
}

}  // namespace
}  // namespace azg::nets
