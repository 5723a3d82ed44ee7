#pragma once
// Runs many searches together so that each evaluator call gets one batch of leaves from
// all of them, and spreads groups of searches over worker threads.
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "mcts/evaluator.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

// Drives `searches` (already started) to completion: each round gathers leaves from
// every unfinished search, up to `batch_size` in all, and makes one evaluator call.
// `stop_early()` is asked between rounds, when no leaf is pending: true ends every search
// where it stands (a time budget, a `stop` from another thread).
template <Game G, class StopEarly>
void run_searches(std::span<Search<G>* const> searches, Evaluator<G>& evaluator,
                  EvalBatch<G>& batch, int batch_size, StopEarly&& stop_early) {
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
void run_searches(std::span<Search<G>* const> searches, Evaluator<G>& evaluator,
                  EvalBatch<G>& batch, int batch_size) {
  run_searches<G>(searches, evaluator, batch, batch_size, [] { return false; });
}

// Runs body(thread_index) on `threads` threads at once, this one included, and rethrows
// the first exception a body threw once all have ended. OS threads rather than a TBB
// arena: a task arena promises no concurrency (a body waiting on another could wait
// forever), and ThreadSanitizer cannot see the synchronisation inside libtbb, so it
// reported the arena's own hand-offs as races.
inline void run_on_threads(int threads, const std::function<void(int)>& body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto guarded = [&](int t) {
    try {
      body(t);
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  std::vector<std::thread> others;
  others.reserve(threads - 1);
  try {
    for (int t = 1; t < threads; ++t) others.emplace_back(guarded, t);
  } catch (...) {  // the system refused a thread: let the started ones end, then say so
    for (auto& thread : others) thread.join();
    throw;
  }
  guarded(0);
  for (auto& thread : others) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace azg::mcts
