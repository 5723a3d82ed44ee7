// Imperator rules: placement, enclosure and turning over, no suicide, pinning, pivot and
// free moves, the end of the game.
#include "env/common/error.hpp"
#include "env/imperator/imperator.hpp"

namespace azg {
namespace {

using imperator::default_geometry;

// Per cell: its neighbours as a bitboard, its rim protection, and its pivot rays: for
// each corner and each way round, the cells passed in turn (a ray stops at the first
// occupied cell, at the end of a rim vertex's path, or back at the start).
struct Ray {
  std::array<std::int8_t, 5> cells;
  std::int8_t length;
};
struct Tables {
  std::array<Bits128, Imperator::kCells> neighbours{};
  std::array<std::int8_t, Imperator::kCells> protects{};  // -1 off the rim
  std::array<std::array<Ray, 6>, Imperator::kCells> rays{};
};

Tables make_tables() {
  Tables x;
  const auto& g = default_geometry();
  for (int i = 0; i < Imperator::kCells; ++i) {
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
          if (pie.cycle) j = ((j % n) + n) % n;
          else if (j < 0 || j >= n) break;
          ray.cells[ray.length++] = static_cast<std::int8_t>(pie.cells[j]);
        }
      }
    }
  }
  return x;
}

const Tables kTables = make_tables();

}  // namespace

Imperator Imperator::from_setup(std::string_view setup) {
  if (!setup.empty()) throw Error("imperator takes no setup, got '" + std::string(setup) + "'");
  return Imperator{};
}

Bits128 Imperator::group_of(int cell, int colour) const {
  Bits128 group, frontier;
  group.set(cell);
  frontier.set(cell);
  while (frontier.any()) {
    Bits128 next;
    for (Bits128 f = frontier; f.any();) next = next | kTables.neighbours[f.pop()];
    next = next & pieces_[colour] & ~group;
    group = group | next;
    frontier = next;
  }
  return group;
}

bool Imperator::enclosed(Bits128 group, int colour) const {
  const int other = colour ^ 1;
  Bits128 around;
  for (Bits128 b = group; b.any();) {
    const int c = b.pop();
    if (kTables.protects[c] >= 0 && kTables.protects[c] != other) return false;  // an own rim side saves
    around = around | kTables.neighbours[c];
  }
  around = around & ~group;
  return (around & ~pieces_[other]) == Bits128{};  // every outside side faces the enemy
}

bool Imperator::settle(int to) {
  const int p = mover_, other = p ^ 1;
  for (Bits128 nb = kTables.neighbours[to] & pieces_[other]; nb.any();) {
    const int c = nb.pop();
    if (!pieces_[other].test(c)) continue;  // already turned with an earlier group
    const Bits128 group = group_of(c, other);
    if (!enclosed(group, other)) continue;
    pieces_[other] = pieces_[other] & ~group;
    pieces_[p] = pieces_[p] | group;
  }
  return !enclosed(group_of(to, p), p);
}

bool Imperator::legal_after_placing(int to) const {
  // Fast path: a piece with an empty neighbour or its own rim side is never enclosed.
  const Bits128 empty = ~(pieces_[0] | pieces_[1]);
  if ((kTables.neighbours[to] & empty).any() || kTables.protects[to] == mover_) return true;
  Imperator t = *this;
  t.pieces_[mover_].set(to);
  return t.settle(to);
}

bool Imperator::legal_after_moving(int from, int to) const {
  Bits128 empty = ~(pieces_[0] | pieces_[1]);
  empty.set(from);
  if ((kTables.neighbours[to] & empty).any() || kTables.protects[to] == mover_) return true;
  Imperator t = *this;
  t.pieces_[mover_].reset(from);
  t.pieces_[mover_].set(to);
  return t.settle(to);
}

bool Imperator::pinned(int cell) const {
  const int colour = colour_at(cell);
  if (colour < 0) return false;
  const int other = colour ^ 1;
  int against = (kTables.neighbours[cell] & pieces_[other]).count();
  if (kTables.protects[cell] == other) ++against;
  return against >= 2;
}

Bits128 Imperator::pivot_destinations(int cell) const {
  const Bits128 occupied = pieces_[0] | pieces_[1];
  Bits128 out;
  for (const Ray& ray : kTables.rays[cell])
    for (int k = 0; k < ray.length && !occupied.test(ray.cells[k]); ++k) out.set(ray.cells[k]);
  return out;
}

void Imperator::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  for_each_action([&](Action a) {
    out.push_back(a);
    return false;
  });
}

template <class Emit>
bool Imperator::for_each_action(Emit&& emit) const {
  const Bits128 empty = ~(pieces_[0] | pieces_[1]) & Bits128{~0ull, (1ull << (kCells - 64)) - 1};
  if (phase() == Phase::kPlacement) {
    for (Bits128 b = empty; b.any();) {
      const int to = b.pop();
      if (legal_after_placing(to) && emit(place_action(to))) return true;
    }
    return false;
  }
  const bool free = pieces_[mover_].count() <= kFreeMoveLimit;
  for (Bits128 own = pieces_[mover_]; own.any();) {
    const int from = own.pop();
    if (pinned(from)) continue;
    for (Bits128 to = free ? empty : pivot_destinations(from); to.any();) {
      const int t = to.pop();
      if (legal_after_moving(from, t) && emit(move_action(from, t))) return true;
    }
  }
  return false;
}

bool Imperator::has_move() const {
  return for_each_action([](Action) { return true; });
}

void Imperator::end_by_count() {
  terminal_ = true;
  const int red = pieces_[0].count(), white = pieces_[1].count();
  outcome_ = red > white ? Outcome::kP0Win : white > red ? Outcome::kP1Win : Outcome::kDraw;
}

void Imperator::end_move() {
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

void Imperator::apply(Action a) {
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

Imperator Imperator::from_cells(std::string_view red, std::string_view white, int mover, int moves) {
  Imperator g;
  const auto& geo = default_geometry();
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
      if (cell < 0 || g.colour_at(cell) >= 0) throw Error("bad cell list '" + std::string(list) + "'");
      g.pieces_[colour].set(cell);
      i = j;
    }
  }
  g.placed_ = kPlacements;
  g.mover_ = static_cast<std::uint8_t>(mover);
  g.moves_ = static_cast<std::uint8_t>(moves);
  return g;
}

}  // namespace azg
