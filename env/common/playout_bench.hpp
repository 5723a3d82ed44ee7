#pragma once
// Random playouts on one thread for about `seconds`: legal-action generation, a uniform
// choice and apply, the loop MCTS rollouts and self-play run (`azg bench env`).
#include <chrono>
#include <cstdint>

#include "env/common/random_play.hpp"

namespace azg {

struct PlayoutBenchResult {
  std::uint64_t games = 0;
  std::uint64_t actions = 0;
  double seconds = 0;
};

template <Game G>
PlayoutBenchResult bench_playouts(double seconds, std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  Rng rng(seed);
  PlayoutBenchResult r;
  const auto start = Clock::now();
  do {
    for (int batch = 0; batch < 16; ++batch) {
      G state = G::random_setup(rng);
      while (!state.is_terminal()) {
        state.apply(random_action(state, rng));
        ++r.actions;
      }
      ++r.games;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (r.seconds < seconds);
  return r;
}

}  // namespace azg
