#pragma once
// Truchet's constant tables: split patterns, merge sets, bases, and Zobrist keys chosen so
// that the top-bottom flip with colours swapped maps every key k to rotl(k, 32): the hash
// of a flipped position is the rotated hash, so repetition histories survive symmetry.
#include <array>
#include <bit>
#include <cstdint>

#include "core/mix.hpp"

namespace azg::truchet {

struct SplitPattern {
  std::array<int, 4> counts;  // N E S W
  std::uint32_t code;         // 3 bits per direction
};

constexpr auto make_patterns() {
  std::array<SplitPattern, 53> out{};
  int n = 0;
  for (int sum = 2; sum <= 4; ++sum)
    for (int a = 0; a <= 4; ++a)
      for (int b = 0; b <= 4; ++b)
        for (int c = 0; c <= 4; ++c)
          for (int d = 0; d <= 4; ++d) {
            if (a + b + c + d != sum || (a > 0) + (b > 0) + (c > 0) + (d > 0) < 2) continue;
            out[n].counts = {a, b, c, d};
            out[n].code = static_cast<std::uint32_t>(a | b << 3 | c << 6 | d << 9);
            ++n;
          }
  return out;
}
inline constexpr auto kPatterns = make_patterns();
// Patterns of height h are kPatterns[kPatternStart[h] .. kPatternStart[h + 1]).
inline constexpr int kPatternStart[6] = {0, 0, 0, 6, 22, 53};

// Merge source sets (direction masks N=1 E=2 S=4 W=8) with two or more directions.
inline constexpr std::array<std::uint32_t, 11> kMergeSetMasks = {3,  5,  6,  7,  9, 10,
                                                                 11, 12, 13, 14, 15};

inline constexpr std::uint64_t kDarkBases =
    (1ull << 0) | (1ull << 2) | (1ull << 4) | (1ull << 6);      // a1 c1 e1 g1
inline constexpr std::uint64_t kLightBases = kDarkBases << 56;  // a8 c8 e8 g8
inline constexpr std::uint64_t kTileCorners =
    0x007F7F7F7F7F7F7Full;  // SW corners: files a-g, ranks 1-7

constexpr std::uint64_t rotl32(std::uint64_t k) {
  return (k << 32) | (k >> 32);
}

struct Keys {
  std::uint64_t stack[64][2][4];
  std::uint64_t tile[49][2];
  std::uint64_t side[2];
};

constexpr Keys make_keys() {
  Keys k{};
  std::uint64_t x = 0x7B1A5C3D9E2F4011ull;
  auto next = [&x]() { return splitmix64(x); };
  // Stacks: (x, y, colour, height) flips to (x, 7 - y, other colour, height).
  for (int sq = 0; sq < 32; ++sq)
    for (int c = 0; c < 2; ++c)
      for (int h = 0; h < 4; ++h) {
        k.stack[sq][c][h] = next();
        k.stack[(7 - sq / 8) * 8 + sq % 8][1 - c][h] = rotl32(k.stack[sq][c][h]);
      }
  // Tiles: (x, y, bit) flips to (x, 6 - y, 1 - bit).
  for (int t = 0; t < 28; ++t) {
    const int x = t % 7, y = t / 7, image = (6 - y) * 7 + x;
    for (int b = 0; b < 2; ++b) {
      if (y == 3 && b == 1) continue;
      k.tile[t][b] = next();
      k.tile[image][1 - b] = rotl32(k.tile[t][b]);
    }
  }
  k.side[0] = next();
  k.side[1] = rotl32(k.side[0]);
  return k;
}
inline constexpr Keys kKeys = make_keys();

}  // namespace azg::truchet
