#pragma once
// Intercept's eight directions on the 13x13 board (square = 13 x rank + file), shared by
// the rules and the notation/policy code.
namespace azg::intercept {

inline constexpr int kDf[8] = {0, 1, 1, 1, 0, -1, -1, -1};  // N NE E SE S SW W NW
inline constexpr int kDr[8] = {1, 1, 0, -1, -1, -1, 0, 1};

// The change of square index one step in direction d.
constexpr int delta(int d) {
  return 13 * kDr[d] + kDf[d];
}

}  // namespace azg::intercept
