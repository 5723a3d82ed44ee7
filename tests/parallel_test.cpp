// Data-parallel learners (parallel/): the group's sums and shares, its one-line errors, and
// the claim the design rests on: N learners that each step on their own 1/N of a batch,
// with gradients averaged through Gloo, end with the very network one learner gets from
// the whole batch.
#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "env/lignes/lignes.hpp"
#include "nets/learner.hpp"
#include "nets/network.hpp"
#include "parallel/learner_group.hpp"
#include "tests/free_port.hpp"

namespace azg::parallel {
namespace {

GroupOptions options(int rank, int size, int port) {
  GroupOptions o;
  o.rank = rank;
  o.size = size;
  o.rendezvous = "127.0.0.1:" + std::to_string(port);
  o.timeout = std::chrono::seconds(20);
  return o;
}

// Runs `body(group)` on `size` ranks, one thread each, and rethrows the first failure.
void on_ranks(int size, const std::function<void(LearnerGroup&)>& body) {
  const int port = free_port();
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    threads.emplace_back([&, r] {
      try {
        LearnerGroup group(options(r, size, port));
        body(group);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

TEST(LearnerGroup, SumsAveragesAndSharesAcrossRanks) {
  on_ranks(3, [](LearnerGroup& g) {
    double v[] = {1.0, static_cast<double>(g.rank()), g.rank() == 0 ? 0.25 : 0.0};
    g.sum(v, 3);
    EXPECT_EQ(v[0], 3.0);
    EXPECT_EQ(v[1], 0.0 + 1.0 + 2.0);
    EXPECT_EQ(v[2], 0.25);
    float f[] = {static_cast<float>(3 * g.rank()), 6.0f};
    g.average(f, 2);
    EXPECT_FLOAT_EQ(f[0], 3.0f);
    EXPECT_FLOAT_EQ(f[1], 6.0f);
    // Binary bytes, twice (each share is its own round).
    const std::string bytes("rank 0's \0state", 15);
    EXPECT_EQ(g.share(g.rank() == 0 ? bytes : ""), bytes);
    EXPECT_EQ(g.share(g.rank() == 0 ? "second" : "x"), "second");
    g.barrier();
  });
}

TEST(LearnerGroup, BadOptionsAreOneLineErrors) {
  auto error_of = [](GroupOptions o) {
    try {
      LearnerGroup g(o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(options(2, 2, 1234)), "--rank must be in 0..1, got 2");
  GroupOptions o = options(0, 2, 1234);
  o.rendezvous = "127.0.0.1";
  EXPECT_EQ(error_of(o), "--rendezvous must be HOST:PORT, got '127.0.0.1'");
  o.rendezvous = "127.0.0.1:99999";
  EXPECT_EQ(error_of(o), "--rendezvous needs a port in 1..65535, got '127.0.0.1:99999'");
}

TEST(LearnerGroup, AMissingRankIsAnErrorAfterTheTimeout) {
  GroupOptions o = options(0, 2, free_port());
  o.timeout = std::chrono::seconds(2);
  const auto start = std::chrono::steady_clock::now();
  try {
    LearnerGroup g(o);
    FAIL() << "rank 0 started without rank 1";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    EXPECT_NE(text.find("learner group (rank 0 of 2)"), std::string::npos) << text;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(LearnerGroup, ARankThatLeavesMakesTheOthersFailAtOnce) {
  EXPECT_THROW(on_ranks(2,
                        [](LearnerGroup& g) {
                          g.barrier();
                          if (g.rank() == 1) return;  // its group (and connections) close here
                          for (int i = 0; i < 100; ++i) g.barrier();
                        }),
               Error);
}

// A batch of n Lignes-shaped positions with random planes and targets (all policy weights
// 1, so the mean of the two halves' losses is the whole batch's loss).
nets::TrainBatch random_batch(const nets::ModelMeta& meta, int n, std::uint64_t seed) {
  torch::manual_seed(static_cast<std::int64_t>(seed));
  const auto& s = meta.shape.planes;
  const int a = meta.shape.policy_size;
  nets::TrainBatch b;
  b.planes = torch::rand({n, s.channels, s.height, s.width}).round();
  b.legal = torch::rand({n, a}) < 0.3;
  b.policy = torch::rand({n, a}) * b.legal.to(torch::kFloat);
  b.policy = b.policy / b.policy.sum(1, true).clamp_min(1e-6);
  b.value = torch::rand({n}) * 2 - 1;
  b.policy_weight = torch::ones({n});
  return b;
}

nets::TrainBatch rows(const nets::TrainBatch& b, int from, int count) {
  nets::TrainBatch r;
  r.planes = b.planes.narrow(0, from, count);
  r.legal = b.legal.narrow(0, from, count);
  r.policy = b.policy.narrow(0, from, count);
  r.value = b.value.narrow(0, from, count);
  r.policy_weight = b.policy_weight.narrow(0, from, count);
  return r;
}

void copy_parameters(torch::jit::Module& to, torch::jit::Module& from) {
  torch::NoGradGuard no_grad;
  auto source = from.parameters().begin();
  for (auto p : to.parameters()) p.copy_(*source++);
}

float max_difference(torch::jit::Module& a, const std::vector<at::Tensor>& b) {
  float worst = 0;
  std::size_t i = 0;
  for (const auto& p : a.parameters())
    worst = std::max(worst, (p - b.at(i++)).abs().max().item<float>());
  EXPECT_EQ(i, b.size());
  return worst;
}

TEST(DataParallel, TwoLearnersStepAsOneOnTheirMeanGradient) {
  nets::NetConfig net;
  net.blocks = 1;
  net.channels = 8;
  net.value_hidden = 8;
  const nets::ModelMeta meta = nets::meta_for<Lignes>(net);
  nets::OptimConfig optim;  // SGD with momentum and weight decay: its state must agree too
  constexpr int kBatch = 32, kHalf = kBatch / 2, kSteps = 5;
  std::vector<nets::TrainBatch> batches;
  for (int s = 0; s < kSteps; ++s)
    batches.push_back(random_batch(meta, kBatch, 100 + static_cast<std::uint64_t>(s)));

  // The reference, in one thread with no Gloo: before each step a helper copy of the
  // network takes the second half's gradient, and the reference steps on the first half
  // with the mean of the two.
  nets::Learner reference(nets::build_network(meta.shape, meta.net, 7), net, optim, torch::kCPU);
  nets::Learner helper(nets::build_network(meta.shape, meta.net, 7), net, optim, torch::kCPU);
  std::vector<float> second_half;
  helper.set_gradient_average([&](float* v, std::size_t n) { second_half.assign(v, v + n); });
  reference.set_gradient_average([&](float* v, std::size_t n) {
    ASSERT_EQ(n, second_half.size());
    for (std::size_t i = 0; i < n; ++i) v[i] = (v[i] + second_half[i]) / 2;
  });
  std::vector<float> reference_losses;
  for (const auto& b : batches) {
    copy_parameters(helper.module(), reference.module());
    helper.step(rows(b, kHalf, kHalf));
    reference_losses.push_back(reference.step(rows(b, 0, kHalf)).total);
  }
  // One learner on the whole batch: the same up to batch norm, whose statistics the two
  // learners take over their own halves (plain data-parallel training, no synchronised
  // batch norm).
  nets::Learner whole(nets::build_network(meta.shape, meta.net, 7), net, optim, torch::kCPU);
  std::vector<float> whole_losses;
  for (const auto& b : batches) whole_losses.push_back(whole.step(b).total);

  std::vector<std::vector<at::Tensor>> params(2);
  std::vector<std::vector<float>> losses(2);
  on_ranks(2, [&](LearnerGroup& g) {
    nets::Learner learner(nets::build_network(meta.shape, meta.net, 7), net, optim, torch::kCPU);
    learner.set_gradient_average([&g](float* v, std::size_t n) { g.average(v, n); });
    const auto r = static_cast<std::size_t>(g.rank());
    for (const auto& b : batches)
      losses[r].push_back(learner.step(rows(b, g.rank() * kHalf, kHalf)).total);
    for (const auto& p : learner.module().parameters()) params[r].push_back(p.detach().clone());
  });

  for (std::size_t i = 0; i < params[0].size(); ++i)
    EXPECT_TRUE(torch::equal(params[0][i], params[1][i]))
        << "the ranks' networks differ at parameter " << i;
  EXPECT_LT(max_difference(reference.module(), params[0]), 1e-6f);
  const float from_whole = max_difference(whole.module(), params[0]);
  EXPECT_LT(from_whole, 1e-2f);
  for (int s = 0; s < kSteps; ++s) {
    EXPECT_EQ(losses[0][s], losses[1][s]) << "step " << s;  // the group's mean loss, on both ranks
    EXPECT_NEAR(losses[0][s], reference_losses[s], 1e-5) << "step " << s;
    EXPECT_NEAR(losses[0][s], whole_losses[s], 0.01 * whole_losses[s]) << "step " << s;
  }
  std::cout << "two learners vs one on the whole batch after " << kSteps
            << " steps: parameters within " << from_whole << "\n";
}

}  // namespace
}  // namespace azg::parallel
