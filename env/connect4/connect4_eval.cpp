// Connect Four's static evaluation (docs/heuristics.md): every line of four cells that
// only one player holds counts for that player, more the more stones it holds; a win the
// mover can play now, or two the opponent threatens at once, decide it.
#include <array>
#include <bit>
#include <cmath>

#include "env/connect4/connect4.hpp"

namespace azg {
namespace {

using Lines = std::array<std::uint64_t, 69>;

// The 69 lines of four cells on a 7 x 6 board.
constexpr Lines all_lines() {
  Lines lines{};
  int n = 0;
  constexpr int dc[4] = {1, 0, 1, 1}, dr[4] = {0, 1, 1, -1};
  for (int d = 0; d < 4; ++d)
    for (int c = 0; c < Connect4::kColumns; ++c)
      for (int r = 0; r < Connect4::kRows; ++r) {
        const int c3 = c + 3 * dc[d], r3 = r + 3 * dr[d];
        if (c3 >= Connect4::kColumns || r3 < 0 || r3 >= Connect4::kRows) continue;
        std::uint64_t line = 0;
        for (int k = 0; k < 4; ++k) line |= Connect4::cell_bit(c + k * dc[d], r + k * dr[d]);
        lines[static_cast<std::size_t>(n++)] = line;
      }
  return lines;
}

constexpr Lines kLines = all_lines();
// A line's worth by the stones in it (1, 2 or 3 of four), and of a winning cell.
constexpr double kLineWeight[4] = {0.0, 1.0, 4.0, 12.0};
constexpr double kThreatWeight = 10.0;
constexpr double kScale = 60.0;

}  // namespace

double Connect4::evaluate() const {
  const int mover = moves_ & 1;
  const double mover_sign = mover == 0 ? 1.0 : -1.0;
  const std::uint64_t all = occupied();
  const std::uint64_t playable = playable_cells();
  if (winning_cells(stones_[mover], all) & playable) return 0.95 * mover_sign;
  const std::uint64_t against = winning_cells(stones_[1 - mover], all);
  if (std::popcount(against & playable) >= 2) return -0.9 * mover_sign;

  double score = 0.0;  // player 0's
  for (const std::uint64_t line : kLines) {
    const int n0 = std::popcount(line & stones_[0]);
    const int n1 = std::popcount(line & stones_[1]);
    if (n1 == 0) score += kLineWeight[n0];
    if (n0 == 0) score -= kLineWeight[n1];
  }
  score += kThreatWeight * (std::popcount(winning_cells(stones_[0], all)) -
                            std::popcount(winning_cells(stones_[1], all)));
  return 0.85 * std::tanh(score / kScale);
}

}  // namespace azg
