// Connect Four's rules on the column-major bitboard (connect4.hpp).
#include <bit>

#include "core/error.hpp"
#include "core/mix.hpp"
#include "env/connect4/connect4.hpp"

namespace azg {

Connect4 Connect4::from_setup(std::string_view setup) {
  if (!setup.empty())
    throw Error("connect4 takes no setup, got " + quote_input(std::string(setup)) +
                " (a position is a move sequence: --moves)");
  return Connect4{};
}

bool Connect4::has_four(std::uint64_t bits) {
  // For each direction (up 1, across 7, the diagonals 6 and 8): a pair of stones one step
  // apart, and a second pair two steps further, make four.
  for (const int step : {1, kRows + 1, kRows, kRows + 2}) {
    const std::uint64_t pairs = bits & (bits >> step);
    if (pairs & (pairs >> (2 * step))) return true;
  }
  return false;
}

void Connect4::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (is_terminal()) return;
  const std::uint64_t all = occupied();
  for (int c = 0; c < kColumns; ++c)
    if (!(all & cell_bit(c, kRows - 1))) out.push_back(static_cast<Action>(c));
}

void Connect4::apply(Action a) {
  const int column = static_cast<int>(a);
  const int mover = moves_ & 1;
  // The lowest empty cell of the column: adding its bottom bit to its stones carries into it.
  const std::uint64_t all = occupied();
  const std::uint64_t cell = (all + cell_bit(column, 0)) & column_mask(column);
  stones_[mover] |= cell;
  ++moves_;
  if (has_four(stones_[mover])) winner_ = static_cast<std::int8_t>(mover);
}

int Connect4::stone_at(int column, int row) const {
  const std::uint64_t bit = cell_bit(column, row);
  return (stones_[0] & bit) ? 0 : (stones_[1] & bit) ? 1 : -1;
}

std::uint64_t Connect4::hash() const {
  // The mover's stones plus the occupied cells plus the bottom row identify a position
  // (each column's height shows as its lowest clear bit above the stones); a 64-bit mix
  // spreads the key.
  return mix64(stones_[moves_ & 1] + occupied() + bottom_row());
}

Connect4 Connect4::symmetric(int s) const {
  if (s == 0) return *this;
  Connect4 m = *this;
  m.stones_[0] = m.stones_[1] = 0;
  for (int c = 0; c < kColumns; ++c) {
    const int shift = (kColumns - 1 - 2 * c) * (kRows + 1);  // column c -> 6 - c
    for (int p = 0; p < 2; ++p) {
      const std::uint64_t col = stones_[p] & column_mask(c);
      m.stones_[p] |= shift >= 0 ? col << shift : col >> -shift;
    }
  }
  return m;
}

std::uint64_t Connect4::winning_cells(std::uint64_t stones, std::uint64_t occupied) {
  // Up: three stones directly below.
  std::uint64_t cells = (stones << 1) & (stones << 2) & (stones << 3);
  // Across and both diagonals: the empty cell can be at either end of three, or fill a
  // gap of one between a pair and a single stone, on either side.
  for (const int step : {kRows + 1, kRows, kRows + 2}) {
    std::uint64_t pair = (stones << step) & (stones << (2 * step));  // two stones behind
    cells |= pair & (stones << (3 * step));                          // x x x _
    cells |= pair & (stones >> step);                                // x x _ x
    pair = (stones >> step) & (stones >> (2 * step));                // two stones ahead
    cells |= pair & (stones >> (3 * step));                          // _ x x x
    cells |= pair & (stones << step);                                // x _ x x
  }
  return cells & board_mask() & ~occupied;
}

}  // namespace azg
