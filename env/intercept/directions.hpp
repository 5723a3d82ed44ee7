#pragma once
// Intercept's eight directions on the 13x13 board (square = 13 x rank + file), shared by
// the rules, the evaluation, the notation and the encoding.
#include <array>
#include <cstdint>

namespace azg::intercept {

inline constexpr int kDf[8] = {0, 1, 1, 1, 0, -1, -1, -1};  // N NE E SE S SW W NW
inline constexpr int kDr[8] = {1, 1, 0, -1, -1, -1, 0, 1};

// The change of square index one step in direction d.
constexpr int delta(int d) {
  return 13 * kDr[d] + kDf[d];
}

// The square one step from each square in each direction, -1 off the board.
struct StepTable {
  std::array<std::array<std::int16_t, 8>, 169> to{};
  constexpr StepTable() {
    for (int sq = 0; sq < 169; ++sq)
      for (int d = 0; d < 8; ++d) {
        const int f = sq % 13 + kDf[d], r = sq / 13 + kDr[d];
        to[sq][d] =
            static_cast<std::int16_t>(f >= 0 && f <= 12 && r >= 0 && r <= 12 ? r * 13 + f : -1);
      }
  }
};
inline constexpr StepTable kSteps;

constexpr int step(int sq, int d) {
  return kSteps.to[sq][d];
}

// The square's image in the left-right mirror (file a <-> m).
constexpr int mirror(int sq) {
  return (sq / 13) * 13 + 12 - sq % 13;
}

// The square's image under symmetry s (Intercept::symmetric): bit 0 the left-right mirror,
// bit 1 the half-turn (a1 <-> m13), which also exchanges the colours. 3 is the top-bottom
// flip, the two composed.
constexpr int image(int s, int sq) {
  const int m = s & 1 ? mirror(sq) : sq;
  return s & 2 ? 168 - m : m;
}

}  // namespace azg::intercept
