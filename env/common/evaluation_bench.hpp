#pragma once
// The cost of a game's static evaluation (game_traits.hpp): calls per second on one
// thread, over positions from random games (what `azg bench env` reports beside the
// playouts, and docs/heuristics.md quotes).
#include <chrono>
#include <cstdint>
#include <vector>

#include "env/common/game_traits.hpp"
#include "env/common/random_play.hpp"

namespace azg {

struct EvaluationBenchResult {
  std::uint64_t calls = 0;
  double seconds = 0;
  double checksum = 0;  // the values' sum, so the calls cannot be optimised away
};

template <Game G>
requires kHasEvaluation<G> EvaluationBenchResult bench_evaluation(double seconds,
                                                                  std::uint64_t seed) {
  Rng rng(seed);
  std::vector<G> positions;
  while (positions.size() < 2000) {
    const std::vector<G> game = random_game_decisions(G::random_setup(rng), rng);
    positions.insert(positions.end(), game.begin(), game.end());
  }
  using Clock = std::chrono::steady_clock;
  EvaluationBenchResult r;
  const auto start = Clock::now();
  do {
    for (const G& g : positions) r.checksum += evaluation(g, Player::kP0);
    r.calls += positions.size();
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (r.seconds < seconds);
  return r;
}

}  // namespace azg
