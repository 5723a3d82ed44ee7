// Imperator rules: placement, enclosure and turning over, no suicide, pinning, pivot and
// free moves, the end of the game.
#include "core/error.hpp"
#include "env/imperator/imperator.hpp"

namespace azg {
namespace {

// Per cell: its neighbours as a bitboard, its rim protection, and its pivot rays: for
// each corner and each way round, the cells passed in turn (a ray stops at the first
// occupied cell, at the end of a rim vertex's path, or back at the start).
struct Ray {
  std::array<std::uint8_t, 5> cells;
  std::int8_t length;
};
template <int Side>
struct Tables {
  using Bits = typename BasicImperator<Side>::Bits;
  static constexpr int kCells = BasicImperator<Side>::kCells;
  std::array<Bits, kCells> neighbours{};
  std::array<std::int8_t, kCells> protects{};  // -1 off the rim
  std::array<std::array<Ray, 6>, kCells> rays{};
};

template <int Side>
Tables<Side> make_tables() {
  Tables<Side> x;
  const auto& g = imperator::geometry(Side);
  for (int i = 0; i < Tables<Side>::kCells; ++i) {
    for (const int n : g.cells[i].neighbours) x.neighbours[i].set(n);
    x.protects[i] = static_cast<std::int8_t>(g.cells[i].rim ? g.cells[i].protects : -1);
    int r = 0;
    for (const int v : g.corners[i]) {
      const auto& pie = g.pies[v];
      const int n = static_cast<int>(pie.cells.size());
      int at = 0;
      while (pie.cells[at] != i) ++at;
      for (const int dir : {1, -1}) {
        Ray& ray = x.rays[i][r++];
        ray.length = 0;
        for (int k = 1; k < n; ++k) {
          int j = at + dir * k;
          if (pie.cycle)
            j = ((j % n) + n) % n;
          else if (j < 0 || j >= n)
            break;
          ray.cells[ray.length++] = static_cast<std::uint8_t>(pie.cells[j]);
        }
      }
    }
  }
  return x;
}

template <int Side>
const Tables<Side> kTables = make_tables<Side>();

}  // namespace

template <int Side>
bool BasicImperator<Side>::symmetry_swaps_players(int s) {
  return imperator::geometry(Side).symmetry_swaps_colours[s];
}

template <int Side>
BasicImperator<Side> BasicImperator<Side>::from_setup(std::string_view setup) {
  if (!setup.empty())
    throw Error("imperator takes no setup, got " + quote_input(std::string(setup)));
  return BasicImperator{};
}

template <int Side>
typename BasicImperator<Side>::Bits BasicImperator<Side>::group_of(int cell, int colour) const {
  Bits group, frontier;
  group.set(cell);
  frontier.set(cell);
  while (frontier.any()) {
    Bits next;
    for (Bits f = frontier; f.any();) next = next | kTables<Side>.neighbours[f.pop()];
    next = next & pieces_[colour] & ~group;
    group = group | next;
    frontier = next;
  }
  return group;
}

template <int Side>
bool BasicImperator<Side>::enclosed(Bits group, int colour) const {
  const int other = colour ^ 1;
  Bits around;
  for (Bits b = group; b.any();) {
    const int c = b.pop();
    if (kTables<Side>.protects[c] >= 0 && kTables<Side>.protects[c] != other)
      return false;  // an own rim side saves
    around = around | kTables<Side>.neighbours[c];
  }
  around = around & ~group;
  return (around & ~pieces_[other]).none();  // every outside side faces the enemy
}

template <int Side>
bool BasicImperator<Side>::settle(int to) {
  const int p = mover_, other = p ^ 1;
  for (Bits nb = kTables<Side>.neighbours[to] & pieces_[other]; nb.any();) {
    const int c = nb.pop();
    if (!pieces_[other].test(c)) continue;  // already turned with an earlier group
    const Bits group = group_of(c, other);
    if (!enclosed(group, other)) continue;
    pieces_[other] = pieces_[other] & ~group;
    pieces_[p] = pieces_[p] | group;
  }
  return !enclosed(group_of(to, p), p);
}

template <int Side>
inline bool BasicImperator<Side>::legal_after_placing(int to) const {
  // Fast path: a piece with an empty neighbour or its own rim side is never enclosed.
  const Bits empty = ~(pieces_[0] | pieces_[1]);
  if ((kTables<Side>.neighbours[to] & empty).any() || kTables<Side>.protects[to] == mover_)
    return true;
  BasicImperator t = *this;
  t.pieces_[mover_].set(to);
  return t.settle(to);
}

template <int Side>
inline bool BasicImperator<Side>::legal_after_moving(int from, int to) const {
  Bits empty = ~(pieces_[0] | pieces_[1]);
  empty.set(from);
  if ((kTables<Side>.neighbours[to] & empty).any() || kTables<Side>.protects[to] == mover_)
    return true;
  BasicImperator t = *this;
  t.pieces_[mover_].reset(from);
  t.pieces_[mover_].set(to);
  return t.settle(to);
}

template <int Side>
typename BasicImperator<Side>::Bits BasicImperator<Side>::one_liberty(int colour) const {
  const Bits empty = ~(pieces_[0] | pieces_[1]);
  Bits out, seen;
  for (Bits b = pieces_[colour]; b.any();) {
    const int c = b.pop();
    if (seen.test(c)) continue;
    const Bits group = group_of(c, colour);
    seen = seen | group;
    Bits around;
    bool saved = false;
    for (Bits g = group; g.any();) {
      const int cell = g.pop();
      saved |= kTables<Side>.protects[cell] == colour;
      around = around | kTables<Side>.neighbours[cell];
    }
    if (!saved && (around & ~group & empty).count() == 1) out = out | group;
  }
  return out;
}

template <int Side>
bool BasicImperator<Side>::pinned(int cell) const {
  const int colour = colour_at(cell);
  if (colour < 0) return false;
  const int other = colour ^ 1;
  int against = (kTables<Side>.neighbours[cell] & pieces_[other]).count();
  if (kTables<Side>.protects[cell] == other) ++against;
  return against >= 2;
}

template <int Side>
inline typename BasicImperator<Side>::Bits BasicImperator<Side>::pivot_destinations(
    int cell) const {
  const Bits occupied = pieces_[0] | pieces_[1];
  Bits out;
  for (const Ray& ray : kTables<Side>.rays[cell])
    for (int k = 0; k < ray.length && !occupied.test(ray.cells[k]); ++k) out.set(ray.cells[k]);
  return out;
}

template <int Side>
void BasicImperator<Side>::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  for_each_action([&](Action a) {
    out.push_back(a);
    return false;
  });
}

template <int Side>
template <class Emit>
bool BasicImperator<Side>::for_each_action(Emit&& emit) const {
  const Bits empty = ~(pieces_[0] | pieces_[1]) & Bits::first(kCells);
  if (phase() == Phase::kPlacement) {
    for (Bits b = empty; b.any();) {
      const int to = b.pop();
      if (legal_after_placing(to) && emit(place_action(to))) return true;
    }
    return false;
  }
  const bool free = pieces_[mover_].count() <= kFreeMoveLimit;
  for (Bits own = pieces_[mover_]; own.any();) {
    const int from = own.pop();
    if (pinned(from)) continue;
    for (Bits to = free ? empty : pivot_destinations(from); to.any();) {
      const int t = to.pop();
      if (legal_after_moving(from, t) && emit(move_action(from, t))) return true;
    }
  }
  return false;
}

template <int Side>
bool BasicImperator<Side>::has_move() const {
  return for_each_action([](Action) { return true; });
}

template <int Side>
void BasicImperator<Side>::end_by_count() {
  terminal_ = true;
  const int red = pieces_[0].count(), white = pieces_[1].count();
  outcome_ = red > white ? Outcome::kP0Win : white > red ? Outcome::kP1Win : Outcome::kDraw;
}

template <int Side>
void BasicImperator<Side>::end_move() {
  mover_ ^= 1;
  if (phase() == Phase::kPlacement) {
    if (!has_move()) end_by_count();  // [decision] no legal placement: as if no move
    return;
  }
  // From the end of the placement phase on.
  for (int p = 0; p < 2; ++p)
    if (pieces_[p].count() <= 2) {
      terminal_ = true;
      outcome_ = p == 0 ? Outcome::kP1Win : Outcome::kP0Win;
      return;
    }
  if (moves_ >= kMoveCap || !has_move()) end_by_count();
}

template <int Side>
void BasicImperator<Side>::apply(Action a) {
  const int to = to_of(a);
  if (is_move(a)) {
    pieces_[mover_].reset(from_of(a));
    ++moves_;
  } else {
    ++placed_;
  }
  pieces_[mover_].set(to);
  settle(to);
  end_move();
}

template <int Side>
BasicImperator<Side> BasicImperator<Side>::from_cells(std::string_view red, std::string_view white,
                                                      int mover, int moves) {
  BasicImperator g;
  const auto& geo = imperator::geometry(Side);
  for (int colour = 0; colour < 2; ++colour) {
    std::string_view list = colour == 0 ? red : white;
    std::size_t i = 0;
    while (i < list.size()) {
      if (list[i] == ' ') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < list.size() && list[j] != ' ') ++j;
      const int cell = geo.index(std::string(list.substr(i, j - i)));
      if (cell < 0 || g.colour_at(cell) >= 0)
        throw Error("bad cell list " + quote_input(std::string(list)));
      g.pieces_[colour].set(cell);
      i = j;
    }
  }
  g.placed_ = kPlacements;
  g.mover_ = static_cast<std::uint8_t>(mover);
  g.moves_ = static_cast<std::uint8_t>(moves);
  return g;
}

template class BasicImperator<3>;
template class BasicImperator<4>;
template class BasicImperator<5>;

}  // namespace azg
