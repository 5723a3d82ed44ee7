// Imbriqua's static evaluation (docs/heuristics.md): the frames scored if the game ended
// now, and the pawn count (the tie-break, and what frames are made of). Both are
// invariant under the board's symmetries; neither reads a card, so nothing hidden leaks.
#include <bit>
#include <cmath>

#include "env/imbriqua/imbriqua.hpp"

namespace azg {

double Imbriqua::evaluate() const {
  const double margin = score(0) - score(1);
  const double pawns = std::popcount(pawns_[0]) - std::popcount(pawns_[1]);
  // The margin says more as fewer turns remain to change it.
  const double certainty = 0.5 + 0.5 * turn_ / static_cast<double>(kTurns);
  return std::tanh(certainty * (0.18 * margin + 0.08 * pawns));
}

}  // namespace azg
