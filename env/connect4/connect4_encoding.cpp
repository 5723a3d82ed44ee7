// Connect Four's network input: the mover's stones, the opponent's, the empty cells.
#include "env/connect4/connect4.hpp"

namespace azg {

void Connect4::encode(std::span<float> out) const {
  const int mover = moves_ & 1;
  constexpr int kPlane = kRows * kColumns;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kColumns; ++c) {
      const int cell = (kRows - 1 - r) * kColumns + c;  // plane row 0 is the top row
      const int p = stone_at(c, r);
      out[cell] = p == mover ? 1.0f : 0.0f;
      out[kPlane + cell] = p == 1 - mover ? 1.0f : 0.0f;
      out[2 * kPlane + cell] = p < 0 ? 1.0f : 0.0f;
    }
}

}  // namespace azg
