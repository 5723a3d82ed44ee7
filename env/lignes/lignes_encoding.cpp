// Lignes NN encoding, policy indices, symmetries and hashing.
//
// Planes (kView x kView window centred on the bounding box of the pawns, from the view of
// the player to act):
//   0 own pawns            1 opponent pawns       2 ones (marks the window)
//   3 opening placement    4 main-turn placement  5 alignment move
//   6 capture choice       7 fill                 8 the hole (fill phase)
//   9 own pawns left to place / 20               10 opponent pawns left / 20
//  11 own captures / 10                          12 opponent captures / 10
// Policy: placement cell | move cell x NESW (also fills) | capture cell | pass, with cells
// in the same window; actions outside the window have no index and stay legal.
#include <algorithm>
#include <bit>
#include <climits>

#include "env/common/square_symmetry.hpp"
#include "env/lignes/lignes.hpp"

namespace azg {
namespace {

constexpr int kCells = Lignes::kView * Lignes::kView;

// Direction index (N E S W) under symmetry s: transform its unit vector.
int symmetric_direction(int s, int dir) {
  static constexpr int kDx[4] = {0, 1, 0, -1}, kDy[4] = {1, 0, -1, 0};
  int dx = kDx[dir], dy = kDy[dir];
  square_symmetry(s, dx, dy, 0);
  for (int d = 0; d < 4; ++d)
    if (kDx[d] == dx && kDy[d] == dy) return d;
  return dir;
}

}  // namespace

// Lower-left lattice cell of the NN window: the window is centred on the bounding box.
void Lignes::view_origin(int& x0, int& y0) const {
  if (row_hi_ < row_lo_) {
    x0 = y0 = -(kView / 2 - 1);
    return;
  }
  std::uint64_t cols = 0;
  for (int r = row_lo_; r <= row_hi_; ++r) cols |= occupied(r);
  const int col_lo = std::countr_zero(cols), col_hi = 63 - std::countl_zero(cols);
  x0 = origin_x_ + (col_lo + col_hi) / 2 - (kView / 2 - 1);
  y0 = origin_y_ + (row_lo_ + row_hi_) / 2 - (kView / 2 - 1);
}

void Lignes::encode(std::span<float> out) const {
  std::fill(out.begin(), out.begin() + kPlanes.size(), 0.0f);
  int x0, y0;
  view_origin(x0, y0);
  const int me = mover_;
  auto plane = [&](int p) { return out.data() + p * kCells; };
  for (int p = 0; p < 2; ++p) {
    const int player = p == 0 ? me : me ^ 1;
    for (int r = row_lo_; r <= row_hi_; ++r)
      for (std::uint64_t o = pawns_[player][r]; o; o &= o - 1) {
        const int wx = std::countr_zero(o) + origin_x_ - x0, wy = r + origin_y_ - y0;
        if (wx >= 0 && wx < kView && wy >= 0 && wy < kView) plane(p)[wy * kView + wx] = 1.0f;
      }
  }
  const int phase_plane = phase_ == Phase::kPlace     ? (placed_ < kOpeningPawns ? 3 : 4)
                          : phase_ == Phase::kMove    ? 5
                          : phase_ == Phase::kCapture ? 6
                                                      : 7;
  const int placed_by[2] = {(placed_ + 1) / 2, placed_ / 2};
  const float fills[] = {
      1.0f, static_cast<float>(kPawnsPerPlayer - placed_by[me]) / kPawnsPerPlayer,
      static_cast<float>(kPawnsPerPlayer - placed_by[me ^ 1]) / kPawnsPerPlayer,
      static_cast<float>(captures_[me]) / 10.0f, static_cast<float>(captures_[me ^ 1]) / 10.0f};
  const int fill_planes[] = {2, 9, 10, 11, 12};
  for (int i = 0; i < 5; ++i)
    std::fill(plane(fill_planes[i]), plane(fill_planes[i]) + kCells, fills[i]);
  std::fill(plane(phase_plane), plane(phase_plane) + kCells, 1.0f);
  if (phase_ == Phase::kFill) {
    const int wx = hole_col_ + origin_x_ - x0, wy = hole_row_ + origin_y_ - y0;
    if (wx >= 0 && wx < kView && wy >= 0 && wy < kView) plane(8)[wy * kView + wx] = 1.0f;
  }
}

int Lignes::policy_index(Action a) const {
  if (kind_of(a) == kPassKind) return kCells * 6;
  int x0, y0;
  view_origin(x0, y0);
  const int wx = x_of(a) - x0, wy = y_of(a) - y0;
  if (wx < 0 || wx >= kView || wy < 0 || wy >= kView) return -1;
  const int cell = wy * kView + wx;
  switch (kind_of(a)) {
    case kPlaceKind:
      return cell;
    case kMoveKind:
      return kCells + cell * 4 + dir_of(a);
    default:
      return kCells * 5 + cell;
  }
}

Action Lignes::symmetric_action(int s, Action a) const {
  if (kind_of(a) == kPassKind) return a;
  int x = x_of(a), y = y_of(a);
  square_symmetry(s, x, y, 0);
  return make_action(kind_of(a), x, y,
                     kind_of(a) == kMoveKind ? symmetric_direction(s, dir_of(a)) : 0);
}

Lignes Lignes::symmetric(int s) const {
  Lignes t = *this;
  t.pawns_ = {};
  t.zobrist_ = 0;
  t.row_lo_ = kRows / 2;  // empty: the extent is rescanned in full below
  t.row_hi_ = kRows / 2 - 1;
  // Put the image's bounding box well inside the new window, then normalise.
  int min_x = INT_MAX, min_y = INT_MAX;
  for (int r = row_lo_; r <= row_hi_; ++r)
    for (std::uint64_t o = occupied(r); o; o &= o - 1) {
      int x = std::countr_zero(o) + origin_x_, y = r + origin_y_;
      square_symmetry(s, x, y, 0);
      min_x = std::min(min_x, x), min_y = std::min(min_y, y);
    }
  if (min_x == INT_MAX) return t;
  t.origin_x_ = static_cast<std::int16_t>(min_x - 12);
  t.origin_y_ = static_cast<std::int16_t>(min_y - 4);
  for (int p = 0; p < 2; ++p)
    for (int r = row_lo_; r <= row_hi_; ++r)
      for (std::uint64_t o = pawns_[p][r]; o; o &= o - 1) {
        int x = std::countr_zero(o) + origin_x_, y = r + origin_y_;
        square_symmetry(s, x, y, 0);
        t.place(p, y - t.origin_y_, x - t.origin_x_);
      }
  int hx = hole_col_ + origin_x_, hy = hole_row_ + origin_y_;
  square_symmetry(s, hx, hy, 0);
  t.hole_col_ = static_cast<std::int8_t>(hx - t.origin_x_);
  t.hole_row_ = static_cast<std::int8_t>(hy - t.origin_y_);
  t.recentre_if_needed();
  return t;
}

std::uint64_t Lignes::hash() const {
  std::uint64_t h = zobrist_;
  const std::uint64_t fields =
      static_cast<std::uint64_t>(placed_) | static_cast<std::uint64_t>(mover_) << 8 |
      static_cast<std::uint64_t>(phase_) << 10 | static_cast<std::uint64_t>(captures_[0]) << 16 |
      static_cast<std::uint64_t>(captures_[1]) << 24 | static_cast<std::uint64_t>(terminal_) << 32;
  h ^= (fields + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
  if (phase_ == Phase::kFill)
    h ^= static_cast<std::uint64_t>((hole_col_ + origin_x_ + 512) * 4096 + hole_row_ + origin_y_ +
                                    512) *
         0x94D049BB133111EBull;
  return h;
}

}  // namespace azg
