// Truchet NN encoding, policy indices, symmetries and hashing.
//
// Planes (8x8 junctions, from the view of the player to act):
//   0..3 own stacks of height 1..4        4..7 opponent stacks of height 1..4
//   8 tile bits (1 = "\"), at each tile's SW corner   9 the 49 tile positions
//   10 the bases the player to act must take          11 his own bases
//   12..14 phase: start, after a flip, after a river move   15 the moved stack
//   16 repetitions of this turn-start position / 3 (start of turn only)   17 turns / 300
//   18 ones      19 junctions of the colour the player to act started on
//   20, 21 junctions the player to act's / the opponent's stacks reach by a river move
//          now (encoding 2: regions are a global property of the tiles that a small
//          net's receptive field cannot see; the rules compute them with a flood fill)
// Policy: flips (49) | river moves from x to (64 x 64) | splits junction x pattern
// (64 x 53) | merges centre x source set (64 x 11) | done.
#include <algorithm>
#include <bit>

#include "env/common/board64.hpp"
#include "env/truchet/truchet.hpp"
#include "env/truchet/truchet_tables.hpp"

namespace azg {

using namespace board64;
using namespace truchet;

namespace {
void set_bits(std::span<float> out, int plane, std::uint64_t b) {
  while (b) out[plane * 64 + pop_lsb(b)] = 1.0f;
}
void fill(std::span<float> out, int plane, float v) {
  std::fill(out.begin() + plane * 64, out.begin() + (plane + 1) * 64, v);
}
constexpr std::uint64_t kLightJunctions = 0xAA55AA55AA55AA55ull;  // x + y odd
int flip_square(int sq) {
  return (7 - rank_of(sq)) * 8 + file_of(sq);
}
int flip_tile(int t) {
  return (6 - t / 7) * 7 + t % 7;
}
std::uint64_t flip_board(std::uint64_t b) {
  return __builtin_bswap64(b);
}
// N and S swap; E and W stay.
std::uint32_t flip_split_code(std::uint32_t c) {
  return (c & 07070) | ((c & 07) << 6) | ((c >> 6) & 07);
}
std::uint32_t flip_dir_mask(std::uint32_t m) {
  return (m & 0b1010) | ((m & 1) << 2) | ((m >> 2) & 1);
}
}  // namespace

void Truchet::encode(std::span<float> out) const {
  std::fill(out.begin(), out.begin() + kPlanes.size(), 0.0f);
  const int me = mover_;
  for (int p = 0; p < 2; ++p) {
    const std::uint64_t stacks = colour_[p == 0 ? me : me ^ 1];
    const std::uint64_t h0 = height_bits_[0], h1 = height_bits_[1];
    set_bits(out, p * 4 + 0, stacks & ~h0 & ~h1);
    set_bits(out, p * 4 + 1, stacks & h0 & ~h1);
    set_bits(out, p * 4 + 2, stacks & ~h0 & h1);
    set_bits(out, p * 4 + 3, stacks & h0 & h1);
  }
  for (int t = 0; t < kTiles; ++t) {
    const int sq = square(t % 7, t / 7);
    out[8 * 64 + sq] = static_cast<float>(tiles_ >> t & 1);
    out[9 * 64 + sq] = 1.0f;
  }
  set_bits(out, 10, me == 0 ? kDarkBases : kLightBases);
  set_bits(out, 11, me == 0 ? kLightBases : kDarkBases);
  fill(out, 12 + static_cast<int>(phase_), 1.0f);
  if (phase_ == Phase::kAfterRiver) out[15 * 64 + moved_] = 1.0f;
  if (phase_ == Phase::kStart) fill(out, 16, static_cast<float>(repetitions()) / 3.0f);
  fill(out, 17, static_cast<float>(turn_) / kTurnCap);
  fill(out, 18, 1.0f);
  set_bits(out, 19, me == 0 ? kLightJunctions : ~kLightJunctions);
  for (int p = 0; p < 2; ++p) {
    std::uint64_t reach = 0;
    for (std::uint64_t stacks = colour_[p == 0 ? me : me ^ 1]; stacks;)
      reach |= river_reach(pop_lsb(stacks));
    set_bits(out, 20 + p, reach);
  }
}

int Truchet::policy_index(Action a) const {
  switch (kind_of(a)) {
    case kFlipKind:
      return from_of(a);
    case kRiverKind:
      return kRiverBase + from_of(a) * 64 + to_of(a);
    case kSplitKind: {
      int p = 0;
      while (p < kSplitPatterns && kPatterns[p].code != extra_of(a)) ++p;
      return p < kSplitPatterns ? kSplitBase + from_of(a) * kSplitPatterns + p : -1;
    }
    case kMergeKind: {
      int m = 0;
      while (m < kMergeSets && kMergeSetMasks[m] != extra_of(a)) ++m;
      return m < kMergeSets ? kMergeBase + from_of(a) * kMergeSets + m : -1;
    }
    default:
      return kDoneIndex;
  }
}

Action Truchet::symmetric_action(int s, Action a) const {
  if (s == 0) return a;
  switch (kind_of(a)) {
    case kFlipKind:
      return make_action(kFlipKind, flip_tile(from_of(a)));
    case kRiverKind:
      return make_action(kRiverKind, flip_square(from_of(a)), flip_square(to_of(a)));
    case kSplitKind:
      return make_action(kSplitKind, flip_square(from_of(a)), 0, flip_split_code(extra_of(a)));
    case kMergeKind:
      return make_action(kMergeKind, flip_square(from_of(a)), 0, flip_dir_mask(extra_of(a)));
    default:
      return a;
  }
}

Truchet Truchet::symmetric(int s) const {
  if (s == 0) return *this;
  Truchet t = *this;
  t.colour_ = {flip_board(colour_[1]), flip_board(colour_[0])};
  t.height_bits_ = {flip_board(height_bits_[0]), flip_board(height_bits_[1])};
  std::uint64_t tiles = 0;
  for (int i = 0; i < kTiles; ++i)
    if (!(tiles_ >> i & 1)) tiles |= std::uint64_t{1} << flip_tile(i);
  t.set_tiles(tiles);
  t.mover_ = static_cast<std::uint8_t>(mover_ ^ 1);
  if (moved_ >= 0) t.moved_ = static_cast<std::int8_t>(flip_square(moved_));
  // By construction of the keys, a flipped position hashes to the rotated hash.
  t.zobrist_ = rotl32(zobrist_);
  for (int i = 0; i < history_len_; ++i) t.history_[i] = rotl32(history_[i]);
  if (terminal_) t.outcome_ = swapped(outcome_);
  return t;
}

std::uint64_t Truchet::hash() const {
  const std::uint64_t fields =
      static_cast<std::uint64_t>(phase_) | static_cast<std::uint64_t>(moved_ + 1) << 4 |
      static_cast<std::uint64_t>(turn_) << 12 |
      static_cast<std::uint64_t>(phase_ == Phase::kStart ? repetitions() : 0) << 24 |
      static_cast<std::uint64_t>(terminal_) << 28;
  return turn_start_hash() ^ ((fields + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull);
}

}  // namespace azg
