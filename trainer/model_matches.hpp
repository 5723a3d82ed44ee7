#pragma once
// The matches a training run's evaluations play, behind one game-free interface so that
// the evaluation gate is compiled once. The game's implementation is GameMatches<G>
// (trainer/game_matches.hpp); a handful of calls per evaluation, off the search path.
#include <cstdint>
#include <memory>

#include "nets/inference.hpp"
#include "play/paired_games.hpp"
#include "play/ratings.hpp"
#include "play/sprt_match.hpp"

namespace azg::trainer {

using Model = std::shared_ptr<nets::InferenceModel>;

class ModelMatches {
 public:
  virtual ~ModelMatches() = default;
  // `a` against `b`, both at `simulations`: a's score.
  virtual play::Score match(Model a, Model b, int simulations, int games, std::uint64_t seed) = 0;
  // Colour-swapped pairs of `a` against `b` until the SPRT decides or `max_games`.
  virtual play::SprtMatch sprt(Model a, Model b, int simulations, play::Sprt& sprt, int max_games,
                               std::uint64_t seed) = 0;
  // The model at `simulations` against the UCT baseline, or against random: its score.
  virtual play::Score vs_uct(Model m, int simulations, int games, int threads,
                             std::uint64_t seed) = 0;
  virtual play::Score vs_random(Model m, int simulations, int games, int threads,
                                std::uint64_t seed) = 0;
};

}  // namespace azg::trainer
