// Imperator's NN encoding, policy indices, the hexagon's symmetries and hashing.
//
// Planes (2n rows x 4n - 1 columns for side n, 8 x 15 on the default board; row r's
// cells centred: column = (4n - 1 - size) / 2 + i):
//   0 own pieces  1 opponent pieces  2 valid cells  3 up cells  4 rim sides protecting me
//   5 rim sides protecting the opponent  6 placement phase  7 movement phase
//   8 own pieces / 10  9 opponent pieces / 10  10 placements left / 20
//   11 movement-phase moves / 200  12 free moves allowed (6 pieces or fewer)
//   13, 14 own / opponent pinned pieces   15, 16 own / opponent pieces in groups one enemy
//   piece could turn over (one empty neighbour, no rim side of their colour)
//   (encoding 2: pinning and group liberties are what the rules turn on, and a group's
//   liberties are a flood fill beyond a small net's reach)
// Policy: placement cell (6n^2, 96 on the default board) | move from-cell x to-cell,
// covering free moves.

#include <algorithm>

#include "core/mix.hpp"
#include "env/imperator/imperator.hpp"

namespace azg {

using imperator::column_of;

namespace {
// Where cell `cell` sits within one plane: its row, and its column with the rows centred
// (the planes and the convolutional policy head's slots share this layout).
int plane_offset(const imperator::Geometry& g, int width, int cell) {
  return g.cells[cell].row * width + column_of(g, width, cell);
}
}  // namespace

template <int Side>
void BasicImperator<Side>::encode(std::span<float> out) const {
  const auto& g = imperator::geometry(Side);
  const int plane = kPlanes.height * kPlanes.width;
  std::fill(out.begin(), out.begin() + kPlanes.size(), 0.0f);
  const int me = mover_;
  auto at = [&](int p, int cell) -> float& {
    return out[p * plane + plane_offset(g, kGridWidth, cell)];
  };
  for (int cell = 0; cell < kCells; ++cell) {
    const auto& c = g.cells[cell];
    if (pieces_[me].test(cell)) at(0, cell) = 1;
    if (pieces_[me ^ 1].test(cell)) at(1, cell) = 1;
    at(2, cell) = 1;
    if (c.up) at(3, cell) = 1;
    if (c.rim) at(c.protects == me ? 4 : 5, cell) = 1;
    at(phase() == Phase::kPlacement ? 6 : 7, cell) = 1;
    at(8, cell) = static_cast<float>(pieces_[me].count()) / 10.0f;
    at(9, cell) = static_cast<float>(pieces_[me ^ 1].count()) / 10.0f;
    at(10, cell) = static_cast<float>(kPlacements - placed_) / kPlacements;
    at(11, cell) = static_cast<float>(moves_) / kMoveCap;
    at(12, cell) = pieces_[me].count() <= kFreeMoveLimit ? 1.0f : 0.0f;
    if (pinned(cell)) at(colour_at(cell) == me ? 13 : 14, cell) = 1;
  }
  for (int p = 0; p < 2; ++p)
    for (Bits b = one_liberty(p == 0 ? me : me ^ 1); b.any();) at(15 + p, b.pop()) = 1;
}

template <int Side>
int BasicImperator<Side>::policy_index(Action a) const {
  return is_move(a) ? kCells + from_of(a) * kCells + to_of(a) : to_of(a);
}

template <int Side>
int BasicImperator<Side>::policy_slot(int index) {
  const auto& g = imperator::geometry(Side);
  if (index < kCells) return plane_offset(g, kGridWidth, index);
  const int from = (index - kCells) / kCells, to = (index - kCells) % kCells;
  return (1 + to) * kPlanes.height * kPlanes.width + plane_offset(g, kGridWidth, from);
}

template <int Side>
int BasicImperator<Side>::policy_plane_target(int plane) {
  if (plane < 1 || plane > kCells) return -1;
  return plane_offset(imperator::geometry(Side), kGridWidth, plane - 1);
}

template <int Side>
BasicImperator<Side> BasicImperator<Side>::symmetric(int s) const {
  if (s == 0) return *this;
  const auto& g = imperator::geometry(Side);
  const auto& image = g.symmetries[s];
  const int swap = g.symmetry_swaps_colours[s] ? 1 : 0;
  BasicImperator t = *this;
  t.pieces_ = {};
  for (int p = 0; p < 2; ++p)
    for (Bits b = pieces_[p]; b.any();) t.pieces_[p ^ swap].set(image[b.pop()]);
  t.mover_ = static_cast<std::uint8_t>(mover_ ^ swap);
  if (terminal_ && swap) t.outcome_ = swapped(outcome_);
  return t;
}

template <int Side>
Action BasicImperator<Side>::symmetric_action(int s, Action a) const {
  if (s == 0) return a;
  const auto& turn = imperator::geometry(Side).symmetries[s];
  return is_move(a) ? move_action(turn[from_of(a)], turn[to_of(a)]) : place_action(turn[to_of(a)]);
}

template <int Side>
std::uint64_t BasicImperator<Side>::hash() const {
  std::uint64_t h = 0;
  for (int p = 0; p < 2; ++p)
    for (std::size_t i = 0; i < pieces_[p].w.size(); ++i)
      h ^= mix64(pieces_[p].w[i] + 0x9E3779B97F4A7C15ull * (2 * i + p + 1));
  return h ^ mix64(static_cast<std::uint64_t>(placed_) | static_cast<std::uint64_t>(moves_) << 8 |
                   static_cast<std::uint64_t>(mover_) << 16 |
                   static_cast<std::uint64_t>(terminal_) << 17);
}

template class BasicImperator<3>;
template class BasicImperator<4>;
template class BasicImperator<5>;

}  // namespace azg
