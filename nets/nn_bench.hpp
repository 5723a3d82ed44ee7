#pragma once
// Measurements of the NN evaluator for `azg bench nn`: its throughput from several threads
// at once (as self-play calls it), and how far a lower-precision graph strays from float32
// on real positions. No LibTorch in this header.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "nets/nn_evaluator.hpp"

namespace azg::nets {

// Evaluations/s of `threads` threads each evaluating its own batch of `batch` positions
// (taken from `positions`, cycled) for `seconds`: the quantity the trainer reports as
// self-play evals/s, without the search around it.
template <Game G>
double evaluator_rate(const std::shared_ptr<InferenceModel>& model, const std::vector<G>& positions,
                      int batch, int threads, double seconds) {
  NnEvaluator<G> evaluator(model);
  std::vector<mcts::EvalBatch<G>> batches(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < batch; ++i) {
      const G& g = positions[(static_cast<std::size_t>(t) * batch + i) % positions.size()];
      ActionListFor<G> actions;
      g.legal_actions(actions);
      batches[t].add(g, actions, static_cast<std::uint64_t>(i));
    }
  for (auto& b : batches) evaluator.evaluate(b);  // warm up
  using Clock = std::chrono::steady_clock;
  std::vector<std::int64_t> done(static_cast<std::size_t>(threads), 0);
  const auto start = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      do {
        evaluator.evaluate(batches[t]);
        done[t] += batch;
      } while (std::chrono::duration<double>(Clock::now() - start).count() < seconds);
    });
  for (auto& w : workers) w.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::int64_t total = 0;
  for (const auto n : done) total += n;
  return static_cast<double>(total) / elapsed;
}

struct PrecisionError {
  int positions = 0;
  double kl_mean = 0, kl_max = 0;        // KL(reference priors || tested priors), nats
  double value_mean = 0, value_max = 0;  // |reference value - tested value|
  double top_agreement = 0;              // share of positions where both rank the same action first
};

// Priors (over legal actions) and values of `tested` against `reference` on `positions`.
template <Game G>
PrecisionError compare_evaluators(const std::shared_ptr<InferenceModel>& reference,
                                  const std::shared_ptr<InferenceModel>& tested,
                                  const std::vector<G>& positions, int batch) {
  NnEvaluator<G> ref(reference), test(tested);
  PrecisionError e;
  for (std::size_t begin = 0; begin < positions.size(); begin += static_cast<std::size_t>(batch)) {
    mcts::EvalBatch<G> a, b;
    const std::size_t end = std::min(positions.size(), begin + static_cast<std::size_t>(batch));
    for (std::size_t i = begin; i < end; ++i) {
      ActionListFor<G> actions;
      positions[i].legal_actions(actions);
      a.add(positions[i], actions, i);
      b.add(positions[i], actions, i);
    }
    ref.evaluate(a);
    test.evaluate(b);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto p = a.priors(i), q = b.priors(i);
      double kl = 0;
      for (std::size_t k = 0; k < p.size(); ++k)
        if (p[k] > 0) kl += p[k] * std::log(p[k] / std::max(q[k], 1e-30f));
      const double dv = std::abs(static_cast<double>(a.value(i)) - b.value(i));
      e.kl_mean += kl;
      e.kl_max = std::max(e.kl_max, kl);
      e.value_mean += dv;
      e.value_max = std::max(e.value_max, dv);
      e.top_agreement += std::max_element(p.begin(), p.end()) - p.begin() ==
                         std::max_element(q.begin(), q.end()) - q.begin();
      ++e.positions;
    }
  }
  if (e.positions > 0) {
    e.kl_mean /= e.positions;
    e.value_mean /= e.positions;
    e.top_agreement /= e.positions;
  }
  return e;
}

}  // namespace azg::nets
