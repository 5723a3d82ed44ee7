#pragma once
// The 8 symmetries of the square (dihedral group D4), shared by every square-grid game.
// Symmetry s (0..7): transpose first if bit 2 is set, then mirror x if bit 0, then
// mirror y if bit 1. Mirroring maps v to `max - v`: max = n - 1 on an n x n board, and
// max = 0 for coordinates about an origin (Lignes).
namespace azg {

inline constexpr int kSquareSymmetries = 8;

template <class T>
constexpr void square_symmetry(int s, T& x, T& y, T max) {
  if (s & 4) {
    const T t = x;
    x = y;
    y = t;
  }
  if (s & 1) x = max - x;
  if (s & 2) y = max - y;
}

}  // namespace azg
