// Networks: shapes, masking, learning, checkpoints, export, the NN evaluator.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "mcts/agent.hpp"
#include "nets/checkpoint.hpp"
#include "nets/inference.hpp"
#include "nets/learner.hpp"
#include "nets/model_average.hpp"
#include "nets/model_settings.hpp"
#include "nets/network.hpp"
#include "nets/nn_evaluator.hpp"
#include "nets/session.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::nets {
namespace {

using testgames::TicTacToe;

NetConfig small(std::string value_head = "tanh") {
  NetConfig c;
  c.blocks = 1;
  c.channels = 8;
  c.value_hidden = 16;
  c.value_head = std::move(value_head);
  return c;
}

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("azg_nets_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(Network, ForwardShapesForBothValueHeads) {
  for (const std::string head : {"tanh", "wdl"}) {
    const ModelMeta meta = meta_for<Imbriqua>(small(head));
    auto net = build_network(meta.shape, meta.net, 1);
    net.eval();
    const auto [policy, value] =
        run_forward(net, torch::rand({5, Imbriqua::kPlanes.channels, 8, 8}));
    EXPECT_EQ(policy.sizes(), (std::vector<int64_t>{5, Imbriqua::kPolicySize}));
    EXPECT_EQ(value.sizes(), (std::vector<int64_t>{5}));
    EXPECT_LE(value.abs().max().item<float>(), 1.0f);
  }
  EXPECT_THROW(build_network(meta_for<Imbriqua>(small()).shape, small("bogus"), 1), Error);
}

// A batch of tic-tac-toe positions with random legal-action targets.
TrainBatch tictactoe_batch(int n, std::uint64_t seed) {
  Rng rng(seed);
  auto planes = torch::zeros({n, 2, 3, 3});
  auto policy = torch::zeros({n, 9});
  auto legal = torch::zeros({n, 9}, torch::kBool);
  auto value = torch::zeros({n});
  for (int i = 0; i < n; ++i) {
    TicTacToe g;
    const int plies = static_cast<int>(rng.below(5));
    for (int k = 0; k < plies; ++k) g.apply(random_action(g, rng));
    g.encode(std::span<float>(planes[i].data_ptr<float>(), 18));
    FixedList<Action, 9> actions;
    g.legal_actions(actions);
    const Action target = actions[rng.below(static_cast<std::uint32_t>(actions.size()))];
    for (const Action a : actions) legal[i][g.policy_index(a)] = true;
    policy[i][g.policy_index(target)] = 1.0f;
    value[i] = static_cast<float>(rng.below(3)) - 1.0f;
  }
  return {planes,       policy,       legal,        value,       torch::ones({n}),
          at::Tensor{}, at::Tensor{}, at::Tensor{}, at::Tensor{}};
}

// Adam without weight decay: a tiny batch is learnt within a few hundred steps.
OptimConfig fast_adam() {
  OptimConfig optim;
  optim.optimizer = "adam";
  optim.learning_rate = 0.01;
  optim.weight_decay = 0;
  return optim;
}

TEST(Learner, IllegalActionsAreMaskedBeforeTheSoftmax) {
  const ModelMeta meta = meta_for<TicTacToe>(small());
  Learner learner(build_network(meta.shape, meta.net, 2), meta.net, OptimConfig{}, torch::kCPU);
  TrainBatch batch = tictactoe_batch(6, 3);
  // The loss computed by hand over legal actions only must equal the learner's.
  learner.module().eval();
  const auto out = learner.module().get_method("heads")({batch.planes}).toTuple();
  const auto logits = out->elements()[0].toTensor();
  double expected = 0;
  for (int i = 0; i < 6; ++i) {
    double norm = 0;
    for (int a = 0; a < 9; ++a)
      if (batch.legal[i][a].item<bool>()) norm += std::exp(logits[i][a].item<double>());
    for (int a = 0; a < 9; ++a)
      if (batch.policy[i][a].item<float>() > 0)
        expected -= logits[i][a].item<double>() - std::log(norm);
  }
  EXPECT_NEAR(learner.measure(batch).policy, expected / 6, 1e-4);
}

TEST(Learner, OverfitsATinyBatch) {
  for (const std::string head : {"tanh", "wdl"}) {
    const ModelMeta meta = meta_for<TicTacToe>(small(head));
    const OptimConfig optim = fast_adam();
    Learner learner(build_network(meta.shape, meta.net, 4), meta.net, optim, torch::kCPU);
    const TrainBatch batch = tictactoe_batch(16, 5);
    const Losses before = learner.measure(batch);
    for (int i = 0; i < 300; ++i) learner.step(batch);
    const Losses after = learner.measure(batch);
    EXPECT_LT(after.total, 0.3f * before.total)
        << head << ": " << before.total << " -> " << after.total;
    EXPECT_EQ(learner.steps(), 300);
  }
}

// Trains a network with an auxiliary head on a tiny batch whose row 3 is marked unknown
// (weight 0) and then given another target: the head's loss falls tenfold, row 3 never
// counts, and forward keeps the exported (policy, value) contract.
void expect_head_learns_where_known(const NetConfig& net, float Losses::*head,
                                    const std::function<void(TrainBatch&)>& set_targets,
                                    const std::function<void(TrainBatch&)>& change_row_3) {
  const ModelMeta meta = meta_for<TicTacToe>(net);
  Learner learner(build_network(meta.shape, meta.net, 4), meta.net, fast_adam(), torch::kCPU);
  TrainBatch batch = tictactoe_batch(16, 5);
  set_targets(batch);
  const TrainBatch known = batch;
  change_row_3(batch);
  const Losses before = learner.measure(batch);
  EXPECT_GT(before.*head, 0.02f);
  for (int i = 0; i < 300; ++i) learner.step(batch);
  const Losses after = learner.measure(batch);
  EXPECT_LT(after.*head, 0.1f * before.*head) << before.*head << " -> " << after.*head;
  EXPECT_FLOAT_EQ(learner.measure(known).*head, after.*head) << "row 3 is ignored";
  const auto [policy, value] = run_forward(learner.module(), batch.planes);
  EXPECT_EQ(policy.sizes(), (std::vector<std::int64_t>{16, 9}));
  EXPECT_EQ(value.sizes(), (std::vector<std::int64_t>{16}));
}

TEST(Learner, OwnershipHeadLearnsItsTargetWhereItIsKnown) {
  NetConfig net = small();
  net.ownership = true;
  expect_head_learns_where_known(
      net, &Losses::ownership,
      [](TrainBatch& b) {
        // A target the position determines: 0.8 on own marks, -0.8 on the opponent's.
        b.ownership = (b.planes.select(1, 0) - b.planes.select(1, 1)).reshape({16, 9}) * 0.8;
        b.ownership_weight = torch::ones({16});
        b.ownership_weight[3] = 0.0f;
      },
      [](TrainBatch& b) { b.ownership[3] = torch::full({9}, 0.9f); });
}

// The score target of a position: tanh of 0.2 per own mark less the opponent's, + 0.3.
void set_score_targets(TrainBatch& b) {
  b.score = torch::tanh((b.planes.select(1, 0) - b.planes.select(1, 1)).sum({1, 2}) * 0.2 + 0.3);
  b.score_weight = torch::ones({b.planes.size(0)});
  b.score_weight[3] = 0.0f;
}

TEST(Learner, ScoreHeadLearnsItsTargetWhereItIsKnown) {
  NetConfig net = small();
  net.score_head = true;
  expect_head_learns_where_known(net, &Losses::score, set_score_targets,
                                 [](TrainBatch& b) { b.score[3] = -0.9f; });
  // With both auxiliary heads, the score is the fourth output and still learns.
  net.ownership = true;
  const ModelMeta meta = meta_for<TicTacToe>(net);
  Learner both(build_network(meta.shape, net, 4), net, fast_adam(), torch::kCPU);
  TrainBatch batch = tictactoe_batch(16, 5);
  set_score_targets(batch);
  batch.ownership = torch::zeros({16, 9});
  batch.ownership_weight = torch::zeros({16});
  const float first = both.measure(batch).score;
  for (int i = 0; i < 300; ++i) both.step(batch);
  EXPECT_LT(both.measure(batch).score, 0.1f * first);
}

void expect_same_weights(torch::jit::Module& a, torch::jit::Module& b) {
  auto pa = a.named_parameters(), pb = b.named_parameters();
  auto ib = pb.begin();
  for (auto ia = pa.begin(); ia != pa.end(); ++ia, ++ib)
    EXPECT_TRUE(torch::equal((*ia).value, (*ib).value))
        << (*ia).name << " " << ((*ia).value - (*ib).value).abs().max().item<float>();
  auto ba = a.named_buffers(), bb = b.named_buffers();
  auto jb = bb.begin();
  for (auto ja = ba.begin(); ja != ba.end(); ++ja, ++jb)
    EXPECT_TRUE(torch::equal((*ja).value, (*jb).value)) << (*ja).name;
}

// meta.json says how to read a model: its policy layout for every game, the variant for
// Imperator's sides, through the one set of game traits.
TEST(ModelMeta, NamesThePolicyLayoutAndTheVariant) {
  const NetConfig net;
  for (const auto& m : {meta_for<Imbriqua>(net), meta_for<Truchet>(net), meta_for<Imperator>(net),
                        meta_for<Lignes>(net), meta_for<Intercept>(net)}) {
    EXPECT_FALSE(m.policy_layout.empty()) << m.game;
    EXPECT_EQ(m.to_json()["policy_layout"], m.policy_layout);
  }
  EXPECT_EQ(meta_for<Imperator>(net).variant["side"], "4");
  EXPECT_EQ(meta_for<Imperator5>(net).variant["side"], "5");
  EXPECT_TRUE(meta_for<Lignes>(net).variant.empty());
  EXPECT_EQ(meta_for<Truchet>(net).encoding_version, 2);
  const ModelMeta back = ModelMeta::from_json(meta_for<Imperator3>(net).to_json(), "test");
  EXPECT_EQ(back.variant["side"], "3");
  EXPECT_EQ(back.policy_layout, meta_for<Imperator3>(net).policy_layout);
}

TEST(ModelMeta, AnotherEncodingVersionOrAMissingOwnershipKeyIsHandled) {
  ModelMeta meta = meta_for<Imbriqua>(small());
  EXPECT_EQ(meta.encoding_version, Imbriqua::kEncodingVersion);
  EXPECT_NO_THROW(meta.check_game<Imbriqua>("m.pt"));
  meta.encoding_version = 1;  // a model from before the frame planes
  EXPECT_THROW(meta.check_game<Imbriqua>("m.pt"), Error);
  // Metadata written before the ownership head existed reads as a network without it.
  nlohmann::json j = meta_for<Imbriqua>(small()).to_json();
  j["net"].erase("ownership");
  EXPECT_FALSE(ModelMeta::from_json(j, "m.pt").net.ownership);
  j["net"]["ownership"] = true;
  EXPECT_TRUE(ModelMeta::from_json(j, "m.pt").net.ownership);
  // The same for the score head and its utility; a utility without the head is refused.
  j["net"].erase("score_head");
  j["net"].erase("score_utility");
  EXPECT_FALSE(ModelMeta::from_json(j, "m.pt").net.score_head);
  EXPECT_EQ(ModelMeta::from_json(j, "m.pt").net.score_utility, 0.0);
  j["net"]["score_utility"] = 0.2;
  EXPECT_THROW(ModelMeta::from_json(j, "m.pt"), Error);
  j["net"]["score_head"] = true;
  EXPECT_EQ(ModelMeta::from_json(j, "m.pt").net.score_utility, 0.2);
  j["net"]["score_utility"] = 1.5;
  EXPECT_THROW(ModelMeta::from_json(j, "m.pt"), Error);
  // Models from before net.play_symmetry play without it; the key round-trips.
  j["net"]["score_utility"] = 0.2;
  j["net"].erase("play_symmetry");
  EXPECT_FALSE(ModelMeta::from_json(j, "m.pt").net.play_symmetry);
  NetConfig symmetric = small();
  symmetric.play_symmetry = true;
  EXPECT_TRUE(
      ModelMeta::from_json(meta_for<Imbriqua>(symmetric).to_json(), "m.pt").net.play_symmetry);
  // And net.play_symmetry_mean, from 2026-12-07 on.
  EXPECT_FALSE(ModelMeta::from_json(j, "m.pt").net.play_symmetry_mean);
  symmetric.play_symmetry_mean = true;
  EXPECT_TRUE(
      ModelMeta::from_json(meta_for<Imbriqua>(symmetric).to_json(), "m.pt").net.play_symmetry_mean);
}

// The names 0, 1 and all map to the two fields and back; anything else is refused.
TEST(PlaySymmetry, EachNameSetsItsFieldsAndIsReadBack) {
  for (const std::string name : {"0", "1", "all"}) {
    const auto setting = PlaySymmetry::from_name(name);
    ASSERT_TRUE(setting.has_value()) << name;
    NetConfig net = small();
    net.set_play_symmetry(*setting);
    EXPECT_EQ(net.play_symmetry, name == "1") << name;
    EXPECT_EQ(net.play_symmetry_mean, name == "all") << name;
    EXPECT_EQ(net.play_symmetry_setting().name(), name);
  }
  // The mean overrides the random symmetry, as the evaluator reads them.
  EXPECT_EQ((PlaySymmetry{true, true}).name(), "all");
  for (const std::string bad : {"", "2", "ALL", "true"})
    EXPECT_FALSE(PlaySymmetry::from_name(bad).has_value()) << bad;
}

TEST(Checkpoint, RoundTripIsBitExactIncludingTheOptimizer) {
  const std::string dir = temp_dir("checkpoint");
  const ModelMeta meta = meta_for<TicTacToe>(small());
  OptimConfig optim;
  Learner learner(build_network(meta.shape, meta.net, 6), meta.net, optim, torch::kCPU);
  const TrainBatch batch = tictactoe_batch(8, 7);
  for (int i = 0; i < 3; ++i) learner.step(batch);
  save_checkpoint(dir + "/c.ckpt", learner, meta);
  ModelMeta loaded_meta;
  auto loaded = load_checkpoint(dir + "/c.ckpt", optim, torch::kCPU, &loaded_meta);
  EXPECT_EQ(loaded->steps(), 3);
  EXPECT_EQ(loaded_meta.game, "tictactoe");
  {
    SCOPED_TRACE("after loading");
    expect_same_weights(learner.module(), loaded->module());
  }
  ASSERT_EQ(learner.optimizer().state().size(), loaded->optimizer().state().size());
  // Same momentum buffers: one more step keeps the weights together (to float rounding:
  // CPU backward kernels are not bit-reproducible; a lost momentum would differ by ~1e-3).
  learner.step(batch);
  loaded->step(batch);
  auto pa = learner.module().named_parameters(), pb = loaded->module().named_parameters();
  auto ib = pb.begin();
  for (auto ia = pa.begin(); ia != pa.end(); ++ia, ++ib)
    EXPECT_TRUE(torch::allclose((*ia).value, (*ib).value, 0, 1e-6)) << (*ia).name;
}

TEST(Checkpoint, WrongGameAndDamagedFilesAreClearErrors) {
  const std::string dir = temp_dir("damaged");
  const ModelMeta meta = meta_for<TicTacToe>(small());
  Learner learner(build_network(meta.shape, meta.net, 8), meta.net, OptimConfig{}, torch::kCPU);
  save_checkpoint(dir + "/c.ckpt", learner, meta);
  EXPECT_THROW(read_checkpoint_meta(dir + "/c.ckpt").check_game<Imbriqua>("c.ckpt"), Error);
  EXPECT_NO_THROW(read_checkpoint_meta(dir + "/c.ckpt").check_game<TicTacToe>("c.ckpt"));
  // Truncated and garbage files.
  const auto size = std::filesystem::file_size(dir + "/c.ckpt");
  std::filesystem::copy_file(dir + "/c.ckpt", dir + "/t.ckpt");
  std::filesystem::resize_file(dir + "/t.ckpt", size / 2);
  EXPECT_THROW(load_checkpoint(dir + "/t.ckpt", OptimConfig{}, torch::kCPU), Error);
  std::ofstream(dir + "/g.ckpt") << "not a checkpoint";
  EXPECT_THROW(load_checkpoint(dir + "/g.ckpt", OptimConfig{}, torch::kCPU), Error);
  EXPECT_THROW(load_checkpoint(dir + "/missing.ckpt", OptimConfig{}, torch::kCPU), Error);
  EXPECT_THROW(InferenceModel::load(dir + "/g.ckpt"), Error);
  // A changed byte inside an entry is caught by the zip checksums before LibTorch reads
  // it (LibTorch 1.13 trusts them: fuzzing crashed its parser and its allocator that way).
  std::string bytes;
  {
    std::ifstream in(dir + "/c.ckpt", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bytes[bytes.size() / 3] ^= 0x10;
  std::ofstream(dir + "/f.ckpt", std::ios::binary) << bytes;
  try {
    load_checkpoint(dir + "/f.ckpt", OptimConfig{}, torch::kCPU);
    ADD_FAILURE() << "a flipped byte was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f.ckpt is damaged: entry '"), std::string::npos)
        << e.what();
  }
}

// A fresh network of `meta`, in eval mode, exported to `path`; returns the network.
torch::jit::Module export_fresh(const ModelMeta& meta, std::uint64_t seed,
                                const std::string& path) {
  auto net = build_network(meta.shape, meta.net, seed);
  net.eval();
  export_model(net, meta, path);
  return net;
}

TEST(Export, SameOutputsBeforeAndAfterExport) {
  const std::string dir = temp_dir("export");
  const ModelMeta meta = meta_for<Lignes>(small());
  auto net = export_fresh(meta, 9, dir + "/m.pt");
  ModelMeta read;
  auto loaded = load_exported(dir + "/m.pt", read, torch::kCPU);
  EXPECT_EQ(read.game, "lignes");
  EXPECT_EQ(read.shape.policy_size, Lignes::kPolicySize);
  const auto input = torch::rand({4, Lignes::kPlanes.channels, Lignes::kView, Lignes::kView});
  const auto [p1, v1] = run_forward(net, input);
  const auto [p2, v2] = run_forward(loaded, input);
  EXPECT_TRUE(torch::allclose(p1, p2));
  EXPECT_TRUE(torch::allclose(v1, v2));
}

// Saves a fresh network of `net` for G as a checkpoint, reads it back, exports it, and
// checks that the exported model's inference graph gives the network's outputs; returns
// the meta read back and the exported file.
template <Game G>
std::pair<ModelMeta, std::string> checkpoint_and_export(const NetConfig& net,
                                                        const std::string& name) {
  const std::string dir = temp_dir(name);
  const ModelMeta meta = meta_for<G>(net);
  Learner learner(build_network(meta.shape, meta.net, 12), meta.net, OptimConfig{}, torch::kCPU);
  save_checkpoint(dir + "/c.ckpt", learner, meta);
  ModelMeta read;
  auto loaded = load_checkpoint(dir + "/c.ckpt", OptimConfig{}, torch::kCPU, &read);
  EXPECT_NO_THROW(read.check_game<G>("c.ckpt"));
  export_checkpoint(dir + "/c.ckpt", dir + "/m.pt");
  auto model = InferenceModel::load(dir + "/m.pt", "cpu", "fp32");
  const auto& shape = G::kPlanes;
  const auto input =
      (torch::rand({3, shape.channels, shape.height, shape.width}) > 0.6).to(torch::kFloat);
  torch::jit::Module original = learner.module().clone();
  original.eval();
  const auto [p, v] = run_forward(original, input);
  std::vector<float> logits(3 * G::kPolicySize), values(3);
  const at::Tensor contiguous = input.contiguous();
  model->run(contiguous.data_ptr<float>(), 3, logits.data(), values.data());
  EXPECT_TRUE(torch::allclose(torch::from_blob(logits.data(), {3, G::kPolicySize}), p, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(torch::from_blob(values.data(), {3}), v, 1e-4, 1e-4));
  return {read, dir + "/m.pt"};
}

// A conv-head model's meta.json holds only the map's shape; its slots travel as a buffer
// through checkpoints and exported models, and the inference graph reads them from there.
TEST(Export, TheConvolutionalHeadSurvivesCheckpointAndExport) {
  NetConfig net = small();
  net.policy_head = "conv";
  const ModelMeta read = checkpoint_and_export<Imbriqua>(net, "conv-head").first;
  EXPECT_EQ(read.net.policy_head, "conv");
  EXPECT_EQ(read.shape.policy_map.planes, Imbriqua::kPolicyPlanes);
  // A dense-head model of the same game is still a dense-head model.
  nlohmann::json j = read.to_json();
  j["net"].erase("policy_head");
  EXPECT_EQ(ModelMeta::from_json(j, "old.pt").net.policy_head, "fc");
  j["net"]["policy_head"] = "attention";
  EXPECT_THROW(ModelMeta::from_json(j, "m.pt"), Error);
}

// Weight averaging: every weight and every batch-norm statistic of the written model is
// the mean of the models' own; the conv head's index table is kept; models of another
// shape, a lone model and a missing file are refused before anything is written.
TEST(ModelAverage, EveryWeightAndStatisticIsTheMeanAndMismatchesAreRefused) {
  const std::string dir = temp_dir("average");
  NetConfig net = small();
  net.policy_head = "conv";
  ModelMeta meta = meta_for<Imbriqua>(net);
  std::vector<torch::jit::Module> nets;
  std::vector<std::string> paths;
  for (int i = 0; i < 3; ++i) {
    auto m = build_network(meta.shape, meta.net, 20 + i);
    {
      torch::NoGradGuard no_grad;  // running statistics unlike the fresh 0 and 1
      m.attr("stem_bn_m").toTensor().uniform_(-1, 1);
      m.attr("stem_bn_v").toTensor().uniform_(0.5, 2);
    }
    m.eval();
    meta.step = 1000 * (i + 1);
    paths.push_back(dir + "/m" + std::to_string(i) + ".pt");
    export_model(m, meta, paths.back());
    nets.push_back(m);
  }
  const ModelMeta written = average_models(paths, dir + "/mean.pt");
  EXPECT_EQ(written.step, 3000);
  ModelMeta read;
  const auto mean = load_exported(dir + "/mean.pt", read, torch::kCPU);
  EXPECT_EQ(read.net.policy_head, "conv");
  int checked = 0;
  for (const auto& p : mean.named_parameters()) {
    at::Tensor expected = torch::zeros_like(p.value);
    for (const auto& m : nets) expected += m.attr(p.name).toTensor() / 3.0;
    EXPECT_TRUE(torch::allclose(p.value, expected, 1e-5, 1e-6)) << p.name;
    ++checked;
  }
  for (const std::string name : {"stem_bn_m", "stem_bn_v"}) {
    at::Tensor expected = torch::zeros_like(mean.attr(name).toTensor());
    for (const auto& m : nets) expected += m.attr(name).toTensor() / 3.0;
    EXPECT_TRUE(torch::allclose(mean.attr(name).toTensor(), expected, 1e-5, 1e-6)) << name;
  }
  EXPECT_GT(checked, 10);
  EXPECT_TRUE(
      torch::equal(mean.attr("policy_slots").toTensor(), nets[0].attr("policy_slots").toTensor()));
  // The mean is not any one of the models.
  EXPECT_FALSE(torch::allclose(mean.attr("stem").toTensor(), nets[0].attr("stem").toTensor()));

  NetConfig deeper = net;
  deeper.blocks = 2;
  export_fresh(meta_for<Imbriqua>(deeper), 5, dir + "/deeper.pt");
  const std::string out = dir + "/refused.pt";
  try {
    average_models({paths[0], dir + "/deeper.pt"}, out);
    ADD_FAILURE() << "models of two shapes were averaged";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("differ in net.blocks"), std::string::npos) << e.what();
  }
  EXPECT_THROW(average_models({paths[0]}, out), Error);
  EXPECT_THROW(average_models({paths[0], dir + "/missing.pt"}, out), Error);
  EXPECT_FALSE(std::filesystem::exists(out));
}

// A run that goes on training a model starts from its weights and batch-norm statistics
// (its play settings aside); a model of another network, a missing file and another
// game are refused with a line naming the difference, and the run's weights stay its own.
TEST(TrainingSession, StartsFromAModelsWeightsAndRefusesAnotherNetwork) {
  const std::string dir = temp_dir("start_from");
  NetConfig net = small();
  net.policy_head = "conv";
  ModelMeta meta = meta_for<Imbriqua>(net);
  auto trained = build_network(meta.shape, meta.net, 41);
  {
    torch::NoGradGuard no_grad;  // statistics unlike a fresh network's 0 and 1
    trained.attr("stem_bn_m").toTensor().uniform_(-1, 1);
  }
  ModelMeta played = meta;
  played.net.play_symmetry_mean = true;
  played.step = 5000;
  export_model(trained, played, dir + "/trained.pt");

  auto session = TrainingSession::create(meta, OptimConfig{}, 7, "cpu");
  session->start_from(dir + "/trained.pt");
  session->export_model(dir + "/started.pt", meta);
  ModelMeta read;
  const auto started = load_exported(dir + "/started.pt", read, torch::kCPU);
  int checked = 0;
  for (const auto& p : started.named_parameters()) {
    EXPECT_TRUE(torch::equal(p.value, trained.attr(p.name).toTensor())) << p.name;
    ++checked;
  }
  EXPECT_GT(checked, 10);
  EXPECT_TRUE(
      torch::equal(started.attr("stem_bn_m").toTensor(), trained.attr("stem_bn_m").toTensor()));

  NetConfig wider = net;
  wider.channels = 16;
  auto other = TrainingSession::create(meta_for<Imbriqua>(wider), OptimConfig{}, 7, "cpu");
  other->export_model(dir + "/before.pt", meta_for<Imbriqua>(wider));
  try {
    other->start_from(dir + "/trained.pt");
    ADD_FAILURE() << "a model of 8 channels started a network of 16";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("its net.channels is 8, the run's 16"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(other->start_from(dir + "/missing.pt"), Error);
  auto lignes = TrainingSession::create(meta_for<Lignes>(net), OptimConfig{}, 7, "cpu");
  EXPECT_THROW(lignes->start_from(dir + "/trained.pt"), Error);
  other->export_model(dir + "/after.pt", meta_for<Imbriqua>(wider));
  ModelMeta m1, m2;
  const auto before = load_exported(dir + "/before.pt", m1, torch::kCPU);
  const auto after = load_exported(dir + "/after.pt", m2, torch::kCPU);
  for (const auto& p : after.named_parameters())
    EXPECT_TRUE(torch::equal(p.value, before.attr(p.name).toTensor())) << p.name;
}

// A model's play symmetry is rewritten in place, its weights kept; other values are refused
// and leave the file as it was.
TEST(ModelSettings, ThePlaySymmetryIsRewrittenAndTheWeightsKept) {
  const std::string dir = temp_dir("settings");
  const ModelMeta meta = meta_for<Imbriqua>(small());
  const auto net = export_fresh(meta, 31, dir + "/m.pt");
  for (const std::string symmetry : {"all", "1", "0"}) {
    const ModelMeta written = set_play_symmetry(dir + "/m.pt", dir + "/m.pt", symmetry);
    ModelMeta read;
    const auto loaded = load_exported(dir + "/m.pt", read, torch::kCPU);
    EXPECT_EQ(read.net.play_symmetry, symmetry == "1") << symmetry;
    EXPECT_EQ(read.net.play_symmetry_mean, symmetry == "all") << symmetry;
    EXPECT_EQ(written.net.play_symmetry_mean, read.net.play_symmetry_mean);
    for (const auto& p : loaded.named_parameters())
      EXPECT_TRUE(torch::equal(p.value, net.attr(p.name).toTensor())) << p.name;
  }
  set_play_symmetry(dir + "/m.pt", dir + "/m.pt", "all");
  EXPECT_THROW(set_play_symmetry(dir + "/m.pt", dir + "/m.pt", "2"), Error);
  ModelMeta read;
  load_exported(dir + "/m.pt", read, torch::kCPU);
  EXPECT_TRUE(read.net.play_symmetry_mean) << "a refused value leaves the model as it was";
}

// The pair head's targets: plane 1 + to of Imperator is read at a move's from-cell and
// targets cell `to`, which is where the placement on `to` sits in plane 0; Truchet's river
// plane 1 + t targets junction t, where a river move from t is read.
TEST(PairHead, TheGamesNameEachDestinationPlanesCell) {
  const PolicyMap imperator = policy_map<Imperator>();
  ASSERT_EQ(static_cast<int>(imperator.targets.size()), Imperator::kPolicyPlanes);
  EXPECT_EQ(imperator.targets[0], -1);
  for (int to = 0; to < Imperator::kCells; ++to)
    EXPECT_EQ(imperator.targets[static_cast<std::size_t>(1 + to)], Imperator::policy_slot(to));
  const PolicyMap truchet = policy_map<Truchet>();
  ASSERT_EQ(static_cast<int>(truchet.targets.size()), Truchet::kPolicyPlanes);
  const int cells = Truchet::kPlanes.height * Truchet::kPlanes.width;
  for (int p = 0; p < Truchet::kPolicyPlanes; ++p) {
    const int t = truchet.targets[static_cast<std::size_t>(p)];
    if (p >= 1 && p <= 64) {
      // A river move out of junction t (policy index 49 + 64 * from + to) sits at t.
      EXPECT_EQ(Truchet::policy_slot(49 + 64 * t + (t + 1) % 64) % cells, t);
    } else {
      EXPECT_EQ(t, -1) << "plane " << p;
    }
  }
  EXPECT_TRUE(policy_map<Imbriqua>().targets.empty());
}

// The pair term reaches the move logits: with the rest of the head silenced, a move's
// logit is its from-cell's q against its to-cell's k, so two moves out of one cell differ,
// and the head refuses games without destination planes.
TEST(PairHead, MovesOutOfOneCellAreScoredByTheirDestinations) {
  NetConfig net = small();
  net.policy_head = "pairs";
  const ModelMeta meta = meta_for<Imperator>(net);
  torch::jit::Module m = build_network(meta.shape, meta.net, 3);
  m.eval();
  {
    torch::NoGradGuard no_grad;
    m.attr("policy_out_w").toTensor().zero_();
    m.attr("policy_out_b").toTensor().zero_();
  }
  const auto& shape = Imperator::kPlanes;
  torch::manual_seed(5);
  const auto input =
      (torch::rand({1, shape.channels, shape.height, shape.width}) > 0.6).to(torch::kFloat);
  const auto [logits, value] = run_forward(m, input);
  const int k = Imperator::kCells;
  // Placements (plane 0, no target) get the silenced planes' zero; moves do not.
  EXPECT_EQ(logits[0][0].item<float>(), 0.0f);
  const float a = logits[0][k + 0 * k + 1].item<float>(),
              b = logits[0][k + 0 * k + 50].item<float>();
  EXPECT_NE(a, 0.0f);
  EXPECT_NE(a, b);
  NetConfig imbriqua = net;
  EXPECT_THROW(build_network(meta_for<Imbriqua>(imbriqua).shape, imbriqua, 1), Error);
}

// A pair-head model keeps its targets as a buffer, through checkpoint and export, and is a
// small file where Imperator's dense head is megabytes.
TEST(Export, ThePairHeadSurvivesCheckpointAndExport) {
  NetConfig net = small();
  net.policy_head = "pairs";
  const auto [read, exported] = checkpoint_and_export<Imperator>(net, "pair-head");
  EXPECT_EQ(read.net.policy_head, "pairs");
  EXPECT_LT(std::filesystem::file_size(exported), 1u << 20);
}

TEST(ModelMeta, ShapesBeyondAnyRealModelAreRefusedBeforeANetworkIsBuilt) {
  const nlohmann::json good = meta_for<Imbriqua>(small()).to_json();
  EXPECT_NO_THROW(ModelMeta::from_json(good, "m.pt"));
  auto refused = [&](const std::function<void(nlohmann::json&)>& damage) {
    nlohmann::json j = good;
    damage(j);
    try {
      ModelMeta::from_json(j, "m.pt");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused([](auto& j) { j["net"]["channels"] = 1000000; }),
            "m.pt: channels must be a whole number in [1, 4096]");
  EXPECT_NE(refused([](auto& j) { j["planes"][0] = -3; }).find("planes must be"),
            std::string::npos);
  EXPECT_NE(refused([](auto& j) { j["policy_size"] = 2000000000; }).find("policy size"),
            std::string::npos);
  // Found by fuzz/model_meta_fuzz: get<int>() on 1.5e49 was undefined behaviour.
  EXPECT_NE(refused([](auto& j) { j["net"]["blocks"] = 1.53e49; }).find("blocks must be"),
            std::string::npos);
  EXPECT_NE(refused([](auto& j) { j["net"]["blocks"] = 2.5; }).find("blocks must be"),
            std::string::npos);
  EXPECT_NE(refused([](auto& j) {
              j["net"]["blocks"] = 40;
              j["net"]["channels"] = 4096;
            }).find("blocks x channels^2"),
            std::string::npos);
  EXPECT_NE(refused([](auto& j) { j["net"]["blocks"] = "many"; }).find("blocks must be"),
            std::string::npos);
}

TEST(NnEvaluator, PriorsCoverLegalActionsAndSumToOne) {
  auto model = InferenceModel::fresh(meta_for<Imbriqua>(small()), 10);
  for (const bool symmetry : {false, true}) {
    NnEvaluatorOptions options;
    options.random_symmetry = symmetry;
    options.cache_entries = symmetry ? 0 : 64;
    NnEvaluator<Imbriqua> evaluator(model, options);
    mcts::EvalBatch<Imbriqua> batch;
    Rng rng(11);
    for (int i = 0; i < 8; ++i) {
      Imbriqua g;
      for (int k = 0; k < 12 + i; ++k) g.apply(random_action(g, rng));
      if (g.to_act() == Player::kChance) g.apply(random_action(g, rng));
      FixedList<Action, Imbriqua::kMaxActions> actions;
      g.legal_actions(actions);
      batch.add(g, actions, rng.next());
    }
    evaluator.evaluate(batch);
    evaluator.evaluate(batch);  // second time from the cache when enabled
    for (std::size_t i = 0; i < batch.size(); ++i) {
      double sum = 0;
      for (const float p : batch.priors(i)) {
        EXPECT_GT(p, 0.0f);
        sum += p;
      }
      EXPECT_NEAR(sum, 1.0, 1e-4);
      EXPECT_LE(std::abs(batch.value(i)), 1.0f);
    }
  }
  auto other = InferenceModel::fresh(meta_for<Lignes>(small()), 10);
  EXPECT_THROW(NnEvaluator<Imbriqua>{other}, Error) << "a Lignes network cannot evaluate Imbriqua";
}

// `n` leaves for a search batch: Imbriqua positions after up to `plies` random actions,
// each undecided with a player to act.
mcts::EvalBatch<Imbriqua> random_leaves(std::size_t n, int plies, std::uint64_t seed) {
  mcts::EvalBatch<Imbriqua> batch;
  Rng rng(seed);
  while (batch.size() < n) {
    Imbriqua g;
    for (int k = 0; k < plies && !g.is_terminal(); ++k) g.apply(random_action(g, rng));
    if (g.is_terminal() || g.to_act() == Player::kChance) continue;
    FixedList<Action, Imbriqua::kMaxActions> actions;
    g.legal_actions(actions);
    batch.add(g, actions, rng.next());
  }
  return batch;
}

// With a score utility u the leaf value is (1 - u) x value + u x score: the model's own
// net.score_utility unless the options set another.
TEST(NnEvaluator, ScoreUtilityMixesTheScoreIntoTheLeafValue) {
  NetConfig net = small();
  net.score_head = true;
  net.score_utility = 0.25;
  auto model = InferenceModel::fresh(meta_for<Imbriqua>(net), 10);
  mcts::EvalBatch<Imbriqua> batch = random_leaves(6, 20, 3);
  const int n = static_cast<int>(batch.size()), size = Imbriqua::kPlanes.size();
  std::vector<float> planes(static_cast<std::size_t>(n) * size);
  for (int i = 0; i < n; ++i)
    batch.state(i).encode(std::span<float>(planes.data() + i * size, size));
  std::vector<float> logits(static_cast<std::size_t>(n) * model->logit_width()), values(n),
      scores(n);
  model->run_raw(planes.data(), n, logits.data(), values.data(), scores.data());
  double apart = 0;
  for (int i = 0; i < n; ++i)
    apart = std::max(apart, std::abs(static_cast<double>(values[i] - scores[i])));
  ASSERT_GT(apart, 1e-3) << "value and score must differ for the mix to show";
  for (const double u : {-1.0, 0.0, 1.0}) {  // -1: the model's own (0.25)
    NnEvaluatorOptions options;
    if (u >= 0) options.score_utility = u;
    NnEvaluator<Imbriqua>(model, options).evaluate(batch);
    const float w = u >= 0 ? static_cast<float>(u) : 0.25f;
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(batch.value(i), (1 - w) * values[i] + w * scores[i], 1e-5) << u << " " << i;
  }
  // A network without a score head cannot weigh one in.
  auto plain = InferenceModel::fresh(meta_for<Imbriqua>(small()), 10);
  NnEvaluatorOptions options;
  options.score_utility = 0.1;
  EXPECT_THROW((NnEvaluator<Imbriqua>{plain, options}), Error);
  options.score_utility = 0.0;
  EXPECT_NO_THROW((NnEvaluator<Imbriqua>{plain, options}));
}

// An evaluator without a symmetry option reads leaves as the model's net.play_symmetry says:
// under the leaf's random symmetry for a model that declares it, as they stand otherwise.
TEST(NnEvaluator, PlaySymmetryIsTheModelsOwnUnlessTheOptionsSayOtherwise) {
  mcts::EvalBatch<Imbriqua> batch = random_leaves(16, 14, 5);
  auto values = [&](std::shared_ptr<InferenceModel> model, std::optional<bool> symmetry) {
    NnEvaluatorOptions options;
    options.random_symmetry = symmetry;
    NnEvaluator<Imbriqua>(std::move(model), options).evaluate(batch);
    std::vector<float> out;
    for (std::size_t i = 0; i < batch.size(); ++i) out.push_back(batch.value(i));
    return out;
  };
  NetConfig net = small();
  net.play_symmetry = true;
  auto symmetric = InferenceModel::fresh(meta_for<Imbriqua>(net), 10);
  const std::vector<float> plain = values(symmetric, false), own = values(symmetric, {});
  EXPECT_EQ(own, values(symmetric, true)) << "the model's own setting is its symmetry";
  EXPECT_NE(own, plain) << "an untrained network is not invariant, so the symmetries show";
  net.play_symmetry = false;
  auto asymmetric = InferenceModel::fresh(meta_for<Imbriqua>(net), 10);
  EXPECT_EQ(values(asymmetric, {}), values(asymmetric, false));
  EXPECT_NE(values(asymmetric, true), values(asymmetric, false));
}

// Averaged over every symmetry, a leaf reads the same as each of its images: the same value,
// and each action's prior is its image's in the transformed position. One symmetry alone
// (an untrained network is not invariant) does not.
TEST(NnEvaluator, TheMeanOverEverySymmetryReadsEveryImageAlike) {
  auto model = InferenceModel::fresh(meta_for<Imbriqua>(small()), 10);
  const mcts::EvalBatch<Imbriqua> leaves = random_leaves(4, 14, 9);
  for (const bool average : {true, false}) {
    NnEvaluatorOptions options = NnEvaluatorOptions::without_symmetry();
    options.average_symmetries = average;
    NnEvaluator<Imbriqua> evaluator(model, options);
    double value_gap = 0, prior_gap = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const Imbriqua& g = leaves.state(i);
      mcts::EvalBatch<Imbriqua> batch;
      FixedList<Action, Imbriqua::kMaxActions> actions;
      g.legal_actions(actions);
      batch.add(g, actions, 1);
      for (int s = 1; s < Imbriqua::kNumSymmetries; ++s) {
        const Imbriqua image = g.symmetric(s);
        FixedList<Action, Imbriqua::kMaxActions> mapped;
        for (const Action a : actions) mapped.push_back(g.symmetric_action(s, a));
        batch.add(image, mapped, 1);
      }
      evaluator.evaluate(batch);
      double sum = 0;
      for (const float p : batch.priors(0)) sum += p;
      EXPECT_NEAR(sum, 1.0, 1e-4);
      for (std::size_t b = 1; b < batch.size(); ++b) {
        value_gap = std::max(value_gap, std::abs(double(batch.value(b) - batch.value(0))));
        for (std::size_t a = 0; a < actions.size(); ++a)
          prior_gap =
              std::max(prior_gap, std::abs(double(batch.priors(b)[a] - batch.priors(0)[a])));
      }
    }
    if (average) {
      EXPECT_LT(value_gap, 1e-4);
      EXPECT_LT(prior_gap, 1e-4);
    } else {
      EXPECT_GT(value_gap + prior_gap, 1e-3)
          << "one reading is not invariant, so the test can fail";
    }
  }
}

TEST(NnEvaluator, AzAgentPlaysLegalMoves) {
  auto model = InferenceModel::fresh(meta_for<TicTacToe>(small()), 12);
  mcts::SearchConfig config;
  config.simulations = 32;
  mcts::MctsAgent<TicTacToe> agent("az", config, std::make_shared<NnEvaluator<TicTacToe>>(model),
                                   1);
  TicTacToe g;
  while (!g.is_terminal()) {
    const Action a = agent.act(g);
    FixedList<Action, 9> actions;
    g.legal_actions(actions);
    ASSERT_NE(std::find(actions.begin(), actions.end(), a), actions.end());
    agent.observe(a);
    g.apply(a);
  }
}

}  // namespace
}  // namespace azg::nets
