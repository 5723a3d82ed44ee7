#pragma once
// The one SPRT loop: paired games of a tested agent against a reference, a round of
// 2 x threads games at a time, until the test decides or max_games is reached. Used by
// `azg sprt` and the trainer's sprt gate.
#include <algorithm>
#include <functional>

#include "play/paired_games.hpp"

namespace azg::play {

struct SprtMatch {
  Sprt::Decision decision = Sprt::Decision::kContinue;
  Score score;  // the tested agent's
};

// `on_game(points, sprt)` sees each game of the tested agent as it is counted. Round r
// plays couples on luck key r, so a longer test replays a shorter one's games first.
template <Game G>
SprtMatch run_sprt(const AgentFactory<G>& tested, const AgentFactory<G>& reference, Sprt& sprt,
                   int max_games, int threads, std::uint64_t seed,
                   const std::function<void(double, const Sprt&)>& on_game = nullptr,
                   int opening_plies = 0) {
  SprtMatch m;
  for (std::uint64_t round = 0;
       m.score.games() < max_games && sprt.decision() == Sprt::Decision::kContinue; ++round) {
    const int batch = std::min(max_games - m.score.games(), 2 * std::max(1, threads));
    for (const auto& g : play_pairs<G>({tested, reference}, {{0, 1}}, batch + batch % 2, threads,
                                       seed, {round}, opening_plies)) {
      const double points = g.points_of(0);
      m.score.add(points);
      sprt.add(points);
      if (on_game) on_game(points, sprt);
      if (sprt.decision() != Sprt::Decision::kContinue || m.score.games() >= max_games) break;
    }
  }
  m.decision = sprt.decision();
  return m;
}

}  // namespace azg::play
