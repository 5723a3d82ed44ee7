// Truchet's static evaluation (docs/heuristics.md). Each term is Light's minus Dark's,
// with Dark's measured on the top-bottom image (its bases at rank 8, its advance towards
// rank 8), so the evaluation respects the colour-swapping flip.
#include <bit>
#include <cmath>

#include "env/truchet/truchet.hpp"
#include "env/truchet/truchet_tables.hpp"

namespace azg {

using truchet::kDarkBases;
using truchet::kLightBases;

double Truchet::evaluate() const {
  struct Side {
    int chips = 0;           // chips on the board
    int bases = 0;           // the opponent's home bases its stacks stand on
    int bases_in_reach = 0;  // empty opponent bases one of its stacks reaches by a river move
    double advance = 0;      // chips' mean distance from home towards the opponent's row, 0..1
  };
  Side side[2];
  for (int c = 0; c < 2; ++c) {
    const std::uint64_t targets = c == 0 ? kDarkBases : kLightBases;
    side[c].bases = std::popcount(colour_[c] & targets);
    std::uint64_t reach = 0, stacks = colour_[c];
    double advance = 0;
    while (stacks) {
      const int sq = std::countr_zero(stacks);
      stacks &= stacks - 1;
      const int h = height_at(sq), y = sq / 8;
      side[c].chips += h;
      advance += h * (c == 0 ? 7 - y : y) / 7.0;
      reach |= river_reach(sq);
    }
    side[c].bases_in_reach = std::popcount(reach & targets & ~occupied());
    side[c].advance = side[c].chips ? advance / side[c].chips : 0;
  }
  // The mover two bases up with a third in reach wins with this turn's river move.
  const int me = mover_;
  if (phase_ != Phase::kAfterRiver && side[me].bases >= 2 && side[me].bases_in_reach > 0)
    return me == 0 ? 0.9 : -0.9;
  const double x = 0.6 * (side[0].bases - side[1].bases) +
                   0.25 * (side[0].bases_in_reach - side[1].bases_in_reach) +
                   0.15 * (side[0].chips - side[1].chips) +
                   1.0 * (side[0].advance - side[1].advance);
  return std::tanh(x);
}

}  // namespace azg
