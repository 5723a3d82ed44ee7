// Lignes's static evaluation (docs/heuristics.md). Captures decide the game; the other
// terms say where the next ones come from. Every term is invariant under the lattice's
// symmetries and measured alike for both colours.
#include <algorithm>
#include <bit>
#include <cmath>

#include "env/lignes/lignes.hpp"

namespace azg {

double Lignes::evaluate() const {
  // Per colour c: the opponent's pawns c surrounds (four of c's pawns around: capturable
  // if a fill exists) and nearly surrounds (three, and the fourth cell empty).
  int surrounded[2] = {0, 0}, nearly[2] = {0, 0};
  for (int r = std::max(1, int(row_lo_)); r <= std::min(kRows - 2, int(row_hi_)); ++r) {
    for (int c = 0; c < 2; ++c) {
      const std::uint64_t mine_row = pawns_[c][r];
      for (std::uint64_t prey = pawns_[c ^ 1][r] & ~1ull & ~(1ull << 63); prey; prey &= prey - 1) {
        const int col = std::countr_zero(prey);
        const std::uint64_t b = 1ull << col;
        const int around = ((mine_row << 1) & b ? 1 : 0) + ((mine_row >> 1) & b ? 1 : 0) +
                           (pawns_[c][r + 1] & b ? 1 : 0) + (pawns_[c][r - 1] & b ? 1 : 0);
        const int empty = ((occupied(r) << 1) & b ? 0 : 1) + ((occupied(r) >> 1) & b ? 0 : 1) +
                          (occupied(r + 1) & b ? 0 : 1) + (occupied(r - 1) & b ? 0 : 1);
        surrounded[c] += around == 4;
        nearly[c] += around == 3 && empty == 1;
      }
    }
  }
  // Mobility once the opening is over: a player left without an alignment move after his
  // placement loses.
  double mobility = 0;
  if (placed_ >= kOpeningPawns) {
    const int m0 = alignment_moves(0, 4), m1 = alignment_moves(1, 4);
    mobility = (m0 - m1) / 4.0 - (m0 == 0 ? 0.5 : 0.0) + (m1 == 0 ? 0.5 : 0.0);
  }
  const double x = 0.8 * (captures_[0] - captures_[1]) + 0.35 * (surrounded[0] - surrounded[1]) +
                   0.12 * (nearly[0] - nearly[1]) + 0.3 * mobility;
  return std::tanh(x);
}

}  // namespace azg
