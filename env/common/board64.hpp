#pragma once
// 8x8 bitboards: square a1 = bit 0, h1 = bit 7, a8 = bit 56. Directional shifts with edge
// masks, square names, and the square's image under the symmetries of the square.
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "env/common/square_symmetry.hpp"

namespace azg::board64 {

inline constexpr std::uint64_t kFileA = 0x0101010101010101ull;
inline constexpr std::uint64_t kFileH = kFileA << 7;
inline constexpr std::uint64_t kRank1 = 0xFFull;
inline constexpr std::uint64_t kRank8 = kRank1 << 56;
inline constexpr std::uint64_t kEdges = kFileA | kFileH | kRank1 | kRank8;

// Directions: the four orthogonal ones first, then the four diagonals.
enum Direction : int { kN, kE, kS, kW, kNE, kSE, kSW, kNW };
inline constexpr int kDelta[8] = {8, 1, -8, -1, 9, -7, -9, 7};
inline constexpr int kFileStep[8] = {0, 1, 0, -1, 1, 1, -1, -1};
inline constexpr int kRankStep[8] = {1, 0, -1, 0, 1, -1, -1, 1};

constexpr std::uint64_t shift(std::uint64_t b, int dir) {
  switch (dir) {
    case kN:
      return b << 8;
    case kS:
      return b >> 8;
    case kE:
      return (b << 1) & ~kFileA;
    case kW:
      return (b >> 1) & ~kFileH;
    case kNE:
      return (b << 9) & ~kFileA;
    case kSE:
      return (b >> 7) & ~kFileA;
    case kSW:
      return (b >> 9) & ~kFileH;
    default:
      return (b << 7) & ~kFileH;  // kNW
  }
}

constexpr std::uint64_t bit(int sq) {
  return std::uint64_t{1} << sq;
}
constexpr int file_of(int sq) {
  return sq & 7;
}
constexpr int rank_of(int sq) {
  return sq >> 3;
}
constexpr int square(int file, int rank) {
  return rank * 8 + file;
}

// The square one step from `sq` towards `dir`, or -1 off the board.
constexpr int step(int sq, int dir) {
  const int f = file_of(sq) + kFileStep[dir], r = rank_of(sq) + kRankStep[dir];
  return (f < 0 || f > 7 || r < 0 || r > 7) ? -1 : square(f, r);
}

inline int pop_lsb(std::uint64_t& b) {
  const int sq = std::countr_zero(b);
  b &= b - 1;
  return sq;
}

inline std::string square_name(int sq) {
  return std::string{static_cast<char>('a' + file_of(sq)), static_cast<char>('1' + rank_of(sq))};
}

// Strict: exactly a file letter a-h and a rank digit 1-8.
constexpr std::optional<int> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return std::nullopt;
  return square(text[0] - 'a', text[1] - '1');
}

constexpr int symmetric_square(int s, int sq) {
  int f = file_of(sq), r = rank_of(sq);
  square_symmetry(s, f, r, 7);
  return square(f, r);
}

inline std::uint64_t symmetric_board(int s, std::uint64_t b) {
  std::uint64_t out = 0;
  while (b) out |= bit(symmetric_square(s, pop_lsb(b)));
  return out;
}

}  // namespace azg::board64
