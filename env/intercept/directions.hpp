#pragma once
// Intercept's eight directions on the 13x13 board (square = 13 x rank + file), shared by
// the rules, the notation and the encoding.
namespace azg::intercept {

inline constexpr int kDf[8] = {0, 1, 1, 1, 0, -1, -1, -1};  // N NE E SE S SW W NW
inline constexpr int kDr[8] = {1, 1, 0, -1, -1, -1, 0, 1};

// The change of square index one step in direction d.
constexpr int delta(int d) {
  return 13 * kDr[d] + kDf[d];
}

// The square's image in the left-right mirror (file a <-> m).
constexpr int mirror(int sq) {
  return (sq / 13) * 13 + 12 - sq % 13;
}

}  // namespace azg::intercept
