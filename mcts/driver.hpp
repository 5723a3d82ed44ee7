#pragma once
// Runs many searches together so that each evaluator call gets one batch of leaves from
// all of them, and spreads groups of searches over worker threads.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <functional>
#include <span>

#include "mcts/evaluator.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

// Drives `searches` (already started) to completion: each round gathers leaves from
// every unfinished search, up to `batch_size` in all, and makes one evaluator call.
// `stop_early()` is asked between rounds, when no leaf is pending: true ends every search
// where it stands (a time budget, a `stop` from another thread).
template <Game G, class StopEarly>
void run_searches(std::span<Search<G>* const> searches, Evaluator<G>& evaluator, EvalBatch<G>& batch,
                  int batch_size, StopEarly&& stop_early) {
  for (;;) {
    if (stop_early()) return;
    batch.clear();
    bool any_running = false;
    for (Search<G>* s : searches) {
      if (s->done()) continue;
      any_running = true;
      const int room = batch_size - static_cast<int>(batch.size());
      if (room <= 0) continue;
      s->collect(batch, std::min(room, s->config().leaves_per_batch));
    }
    if (!any_running) return;
    if (batch.size() > 0) evaluator.evaluate(batch);
    for (Search<G>* s : searches) s->absorb(batch);
  }
}

template <Game G>
void run_searches(std::span<Search<G>* const> searches, Evaluator<G>& evaluator, EvalBatch<G>& batch,
                  int batch_size) {
  run_searches<G>(searches, evaluator, batch, batch_size, [] { return false; });
}

// Runs body(thread_index) on `threads` worker threads at once (a TBB arena of that size).
inline void run_on_threads(int threads, const std::function<void(int)>& body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(0, threads, [&](int t) { body(t); }, tbb::simple_partitioner());
  });
}

}  // namespace azg::mcts
