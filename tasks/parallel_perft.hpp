#pragma once
// perft and perft_divide over threads (azg perft --threads): fork-join on TBB. The top
// plies of the tree fan out as tasks, each subtree below them is counted by the one-thread
// perft (env/common/perft.hpp), and TBB's work stealing balances subtrees of very
// different sizes. The counts are those of the one-thread perft, whatever the threads.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "env/common/perft.hpp"

namespace azg::tasks {

namespace detail {

// Below this depth a subtree is one task: a few hundred nodes at most, less than the
// cost of scheduling it.
inline constexpr int kSequentialDepth = 2;
// Plies that fan out as tasks; deeper ones run inside their parent's task.
inline constexpr int kParallelPlies = 3;

template <Game G>
std::uint64_t perft_tasks(const G& state, int depth, int parallel_plies) {
  if (depth <= kSequentialDepth || parallel_plies == 0) return perft(state, depth);
  if (state.is_terminal()) return 0;
  ActionListFor<G> actions;
  state.legal_actions(actions);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, actions.size()), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t sum) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          G child = state;
          child.apply(actions[i]);
          sum += perft_tasks(child, depth - 1, parallel_plies - 1);
        }
        return sum;
      },
      std::plus<>());
}

// Runs `work` on `threads` threads (0: as many as the machine has).
template <class Work>
auto on_threads(int threads, Work&& work) {
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  return arena.execute(std::forward<Work>(work));
}

}  // namespace detail

// perft(state, depth) on `threads` threads (0: every core).
template <Game G>
std::uint64_t parallel_perft(const G& state, int depth, int threads) {
  return detail::on_threads(
      threads, [&] { return detail::perft_tasks(state, depth, detail::kParallelPlies); });
}

// perft_divide(state, depth) on `threads` threads, in the order of the legal actions.
template <Game G>
std::vector<std::pair<Action, std::uint64_t>> parallel_perft_divide(const G& state, int depth,
                                                                    int threads) {
  std::vector<std::pair<Action, std::uint64_t>> out;
  if (depth < 1 || state.is_terminal()) return out;
  ActionListFor<G> actions;
  state.legal_actions(actions);
  out.resize(actions.size());
  detail::on_threads(threads, [&] {
    tbb::parallel_for(std::size_t{0}, actions.size(), [&](std::size_t i) {
      G child = state;
      child.apply(actions[i]);
      out[i] = {actions[i], detail::perft_tasks(child, depth - 1, detail::kParallelPlies - 1)};
    });
  });
  return out;
}

}  // namespace azg::tasks
