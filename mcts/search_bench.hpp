#pragma once
// Search speed without a network (`azg bench mcts`): threads each run several searches
// together over a uniform or random-rollout evaluator, from positions of random games,
// for about `seconds`.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "env/common/random_play.hpp"
#include "mcts/driver.hpp"

namespace azg::mcts {

struct SearchBenchOptions {
  std::string evaluator = "uniform";  // or rollout
  int simulations = 800;
  int threads = 1;
  int searches_per_thread = 16;
  int batch = 64;
  double seconds = 3.0;
  std::uint64_t seed = 1;
};

struct SearchBenchResult {
  std::int64_t simulations = 0, nodes = 0;
  double seconds = 0;
};

template <Game G>
SearchBenchResult bench_search(const SearchBenchOptions& o) {
  if (o.evaluator != "uniform" && o.evaluator != "rollout")
    throw Error("--evaluator must be uniform or rollout, got " + quote_input(o.evaluator));
  if (o.simulations < 1 || o.threads < 1 || o.searches_per_thread < 1 || o.batch < 1 ||
      !(o.seconds > 0))
    throw Error("--sims, --threads, --searches, --batch and --seconds must be positive");
  std::shared_ptr<Evaluator<G>> evaluator;
  if (o.evaluator == "uniform")
    evaluator = std::make_shared<UniformEvaluator<G>>();
  else
    evaluator = std::make_shared<RolloutEvaluator<G>>();
  SearchConfig config;
  config.simulations = o.simulations;
  config.reuse_tree = false;
  config.reserve_nodes = static_cast<std::size_t>(o.simulations) * 4 + 64;
  std::vector<std::int64_t> sims(o.threads, 0), nodes(o.threads, 0);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  run_on_threads(o.threads, [&](int t) {
    Rng rng(o.seed * 1000 + static_cast<std::uint64_t>(t));
    std::vector<std::unique_ptr<Search<G>>> owned;
    std::vector<Search<G>*> searches;
    for (int i = 0; i < o.searches_per_thread; ++i) {
      owned.push_back(std::make_unique<Search<G>>(config, rng.next()));
      searches.push_back(owned.back().get());
    }
    EvalBatch<G> batch;
    while (std::chrono::duration<double>(Clock::now() - start).count() < o.seconds) {
      for (auto* s : searches) s->start(random_decision_position<G>(rng), o.simulations);
      run_searches<G>(searches, *evaluator, batch, o.batch);
      for (auto* s : searches) {
        sims[t] += s->simulations_done();
        nodes[t] += static_cast<std::int64_t>(s->tree_size());
      }
    }
  });
  SearchBenchResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (int t = 0; t < o.threads; ++t) r.simulations += sims[t], r.nodes += nodes[t];
  return r;
}

}  // namespace azg::mcts
