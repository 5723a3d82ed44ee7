// Lignes rules: placements, alignment moves, captures and fills, end of game.
#include <algorithm>
#include <bit>
#include <cassert>

#include "core/error.hpp"
#include "core/mix.hpp"
#include "env/lignes/lignes.hpp"

namespace azg {
namespace {

constexpr int kDRow[4] = {1, 0, -1, 0};  // N E S W
constexpr int kDCol[4] = {0, 1, 0, -1};

constexpr std::uint64_t bit(int col) {
  return std::uint64_t{1} << col;
}
constexpr bool has(std::uint64_t row, int col) {
  return (row >> col) & 1;
}

// Zobrist key of a pawn at absolute lattice coordinates (the lattice is unbounded, so the
// key is a hash of the coordinates rather than a table entry).
std::uint64_t pawn_key(int player, int x, int y) {
  std::uint64_t z = (static_cast<std::uint64_t>(x + 4096) << 20) ^
                    (static_cast<std::uint64_t>(y + 4096) << 1) ^
                    static_cast<std::uint64_t>(player);
  return splitmix64(z);
}

// Grows `seed` to the whole runs of `row` that it touches.
std::uint64_t fill_row(std::uint64_t seed, std::uint64_t row) {
  std::uint64_t x = seed & row;
  for (;;) {
    const std::uint64_t next = (x | (x << 1) | (x >> 1)) & row;
    if (next == x) return x;
    x = next;
  }
}

}  // namespace

Lignes Lignes::from_setup(std::string_view setup) {
  if (!setup.empty()) throw Error("lignes takes no setup, got " + quote_input(std::string(setup)));
  return Lignes{};
}

Lignes Lignes::from_diagram(std::string_view diagram, int x0, int y0, int placed, int mover,
                            Phase phase, int captures_light, int captures_dark) {
  Lignes g;
  int rows = 1;
  for (const char c : diagram) rows += c == '/';
  // Start with the window around the diagram; recentre_if_needed() normalises it (the
  // extent is still marked empty, so it is found by a full scan).
  g.origin_x_ = static_cast<std::int16_t>(x0 - 8);
  g.origin_y_ = static_cast<std::int16_t>(y0 - 4);
  int x = x0, y = y0 + rows - 1;
  for (const char c : diagram) {
    if (c == '/') {
      x = x0;
      --y;
      continue;
    }
    if (c != '.' && c != 'L' && c != 'D')
      throw Error(std::string("bad diagram character '") + c + "'");
    if (x < -60 || x > 60 || y < -60 || y > 60) throw Error("diagram cell out of range");
    if (c != '.') g.place(c == 'L' ? 0 : 1, g.row_of(y), g.col_of(x));
    ++x;
  }
  if (placed < 0 || placed > kTotalPawns || (mover != 0 && mover != 1))
    throw Error("bad placed count or mover in diagram position");
  g.placed_ = static_cast<std::uint8_t>(placed);
  g.mover_ = static_cast<std::uint8_t>(mover);
  g.phase_ = phase;
  g.captures_[0] = static_cast<std::uint8_t>(captures_light);
  g.captures_[1] = static_cast<std::uint8_t>(captures_dark);
  g.recentre_if_needed();
  return g;
}

int Lignes::pawn_at(int x, int y) const {
  const int r = row_of(y), c = col_of(x);
  if (r < 0 || r >= kRows || c < 0 || c >= 64) return -1;
  if (has(pawns_[0][r], c)) return 0;
  if (has(pawns_[1][r], c)) return 1;
  return -1;
}

int Lignes::pawn_count() const {
  int n = 0;
  for (int r = 0; r < kRows; ++r) n += std::popcount(occupied(r));
  return n;
}

void Lignes::place(int player, int row, int col) {
  pawns_[player][row] |= bit(col);
  zobrist_ ^= pawn_key(player, col + origin_x_, row + origin_y_);
}

void Lignes::remove(int row, int col) {
  const int player = has(pawns_[0][row], col) ? 0 : 1;
  pawns_[player][row] &= ~bit(col);
  zobrist_ ^= pawn_key(player, col + origin_x_, row + origin_y_);
}

void Lignes::shift_run(int row, int col, int dir) {
  // Front to back: the cell ahead of the front pawn is empty, then each pawn steps into
  // the cell its predecessor left.
  while (row >= 0 && row < kRows && col >= 0 && col < 64 && has(occupied(row), col)) {
    const int player = has(pawns_[0][row], col) ? 0 : 1;
    remove(row, col);
    place(player, row + kDRow[dir], col + kDCol[dir]);
    row -= kDRow[dir];
    col -= kDCol[dir];
  }
}

void Lignes::update_row_extent() {
  // Every action moves the extent by at most one row, so only its border needs a look;
  // an empty board is the only case that needs a full scan.
  int lo = std::max(row_lo_ - 1, 0), hi = std::min(row_hi_ + 1, kRows - 1);
  if (row_hi_ < row_lo_) lo = 0, hi = kRows - 1;
  while (lo <= hi && !occupied(lo)) ++lo;
  while (hi >= lo && !occupied(hi)) --hi;
  if (lo > hi) lo = kRows / 2, hi = kRows / 2 - 1;
  row_lo_ = static_cast<std::int8_t>(lo);
  row_hi_ = static_cast<std::int8_t>(hi);
}

void Lignes::recentre_if_needed() {
  update_row_extent();
  if (row_hi_ < row_lo_) return;
  std::uint64_t cols = 0;
  for (int r = row_lo_; r <= row_hi_; ++r) cols |= occupied(r);
  const int col_lo = std::countr_zero(cols), col_hi = 63 - std::countl_zero(cols);
  if (row_lo_ >= kMargin && row_hi_ <= kRows - 1 - kMargin && col_lo >= kMargin &&
      col_hi <= 63 - kMargin)
    return;
  const int dr = kRows / 2 - (row_lo_ + row_hi_ + 1) / 2;
  const int dc = 32 - (col_lo + col_hi + 1) / 2;
  std::array<Rows, 2> moved{};
  for (int p = 0; p < 2; ++p)
    for (int r = row_lo_; r <= row_hi_; ++r)
      moved[p][r + dr] = dc >= 0 ? pawns_[p][r] << dc : pawns_[p][r] >> -dc;
  pawns_ = moved;
  origin_x_ = static_cast<std::int16_t>(origin_x_ - dc);
  origin_y_ = static_cast<std::int16_t>(origin_y_ - dr);
  hole_row_ = static_cast<std::int8_t>(hole_row_ + dr);
  hole_col_ = static_cast<std::int8_t>(hole_col_ + dc);
  row_lo_ = static_cast<std::int8_t>(row_lo_ + dr);
  row_hi_ = static_cast<std::int8_t>(row_hi_ + dr);
}

bool Lignes::connected(const Rows& occ) const {
  // Rows that may hold pawns after a simulated shift: the current extent plus one.
  const int lo = row_lo_ - 1, hi = row_hi_ + 1;
  int total = 0, start = -1;
  for (int r = lo; r <= hi; ++r) {
    total += std::popcount(occ[r]);
    if (start < 0 && occ[r]) start = r;
  }
  if (total == 0) return true;
  Rows reach{};
  reach[start] = fill_row(occ[start] & -occ[start], occ[start]);
  bool changed = true;
  while (changed) {
    changed = false;
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i <= hi - lo; ++i) {
        const int r = pass == 0 ? lo + i : hi - i;
        const std::uint64_t from_neighbours =
            (r > lo ? reach[r - 1] : 0) | (r < hi ? reach[r + 1] : 0);
        if (!(from_neighbours & occ[r] & ~reach[r])) continue;
        reach[r] = fill_row(reach[r] | (from_neighbours & occ[r]), occ[r]);
        changed = true;
      }
    }
  }
  int reached = 0;
  for (int r = lo; r <= hi; ++r) reached += std::popcount(reach[r]);
  return reached == total;
}

bool Lignes::linked(const Rows& occ, int row, int col, int target_lo, int target_hi,
                    std::uint64_t target_mask) const {
  // Breadth-first growth from one pawn, over the rows it has reached plus one; stops as
  // soon as it touches the target or stops growing. Rows beyond the extent stay empty.
  const int lo_limit = row_lo_ - 1, hi_limit = row_hi_ + 1;
  Rows reach;
  for (int r = lo_limit - 1; r <= hi_limit + 1; ++r) reach[r] = 0;
  reach[row] = bit(col);
  int lo = row, hi = row;
  for (;;) {
    for (int r = std::max(lo, target_lo); r <= std::min(hi, target_hi); ++r)
      if (reach[r] & target_mask) return true;
    bool grew = false;
    const int from = std::max(lo - 1, lo_limit), to = std::min(hi + 1, hi_limit);
    for (int r = from; r <= to; ++r) {
      const std::uint64_t x = reach[r];
      const std::uint64_t next = (x | (x << 1) | (x >> 1) | reach[r - 1] | reach[r + 1]) & occ[r];
      if (next != x) {
        reach[r] = next;
        grew = true;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
      }
    }
    if (!grew) return false;
  }
}

template <class Emit>
bool Lignes::for_each_alignment_move(int player, Emit&& emit) const {
  const Rows& own = pawns_[player];
  const Rows& opp = pawns_[player ^ 1];
  Rows occ;
  for (int r = row_lo_ - 1; r <= row_hi_ + 1; ++r) occ[r] = own[r] | opp[r];

  // A shift only loses the contacts of the run's tail cell with the (at most two) pawns
  // beside it; every other contact is kept. So the group stays whole iff each of those
  // pawns still reaches the shifted run. Cheap case first: the cell beside the tail's
  // successor, which the run still covers, is occupied too.
  auto keeps_group = [&](int tail_row, int tail_col, int next_row, int next_col, int side_dr,
                         int side_dc, auto&& shifted, int run_lo, int run_hi,
                         std::uint64_t run_mask) {
    for (int side = -1; side <= 1; side += 2) {
      const int sr = tail_row + side * side_dr, sc = tail_col + side * side_dc;
      if (!has(occ[sr], sc)) continue;
      if (has(occ[next_row + side * side_dr], next_col + side * side_dc)) continue;
      shifted(true);
      const bool ok = linked(occ, sr, sc, run_lo, run_hi, run_mask);
      shifted(false);
      if (!ok) return false;
    }
    return true;
  };

  // Horizontal runs.
  for (int r = row_lo_; r <= row_hi_; ++r) {
    const std::uint64_t o = occ[r];
    const std::uint64_t west_ends = o & ~(o << 1);
    const std::uint64_t east_ends = o & ~(o >> 1);
    std::uint64_t starts = west_ends & ~east_ends;  // runs of two or more
    while (starts) {
      const int s = std::countr_zero(starts);
      starts &= starts - 1;
      const int e = std::countr_zero(east_ends & (~std::uint64_t{0} << s));
      const std::uint64_t mask = ((bit(e) << 1) - 1) & ~(bit(s) - 1);
      if (std::popcount(own[r] & mask) < std::popcount(opp[r] & mask)) continue;
      const std::uint64_t original = o;
      if (has(own[r], e)) {
        auto shifted = [&](bool on) {
          occ[r] = on ? ((original & ~mask) | (mask << 1)) : original;
        };
        if (keeps_group(r, s, r, s + 1, 1, 0, shifted, r, r, mask << 1) &&
            emit(make_action(kMoveKind, e + origin_x_, r + origin_y_, kEast)))
          return true;
      }
      if (has(own[r], s)) {
        auto shifted = [&](bool on) {
          occ[r] = on ? ((original & ~mask) | (mask >> 1)) : original;
        };
        if (keeps_group(r, e, r, e - 1, 1, 0, shifted, r, r, mask >> 1) &&
            emit(make_action(kMoveKind, s + origin_x_, r + origin_y_, kWest)))
          return true;
      }
    }
  }

  // Vertical runs: start at a pawn with an empty cell below and a pawn above.
  for (int r = row_lo_; r < row_hi_; ++r) {
    std::uint64_t starts = occ[r] & ~occ[r - 1] & occ[r + 1];
    while (starts) {
      const int c = std::countr_zero(starts);
      starts &= starts - 1;
      int top = r + 1;
      while (has(occ[top + 1], c)) ++top;
      int n_own = 0, n_opp = 0;
      for (int t = r; t <= top; ++t) {
        n_own += has(own[t], c);
        n_opp += has(opp[t], c);
      }
      if (n_own < n_opp) continue;
      if (has(own[top], c)) {  // north: the tail is the bottom pawn
        auto shifted = [&](bool) {
          occ[r] ^= bit(c);
          occ[top + 1] ^= bit(c);
        };
        if (keeps_group(r, c, r + 1, c, 0, 1, shifted, r + 1, top + 1, bit(c)) &&
            emit(make_action(kMoveKind, c + origin_x_, top + origin_y_, kNorth)))
          return true;
      }
      if (has(own[r], c)) {  // south: the tail is the top pawn
        auto shifted = [&](bool) {
          occ[top] ^= bit(c);
          occ[r - 1] ^= bit(c);
        };
        if (keeps_group(top, c, top - 1, c, 0, 1, shifted, r - 1, top - 1, bit(c)) &&
            emit(make_action(kMoveKind, c + origin_x_, r + origin_y_, kSouth)))
          return true;
      }
    }
  }
  return false;
}

template <class Emit>
bool Lignes::for_each_fill_move(int hole_row, int hole_col, Emit&& emit) const {
  const int me = mover_;
  const Rows& own = pawns_[me];
  const Rows& opp = pawns_[me ^ 1];
  for (int dir = 0; dir < 4; ++dir) {
    // The lead stands next to the hole and travels into it.
    const int lead_row = hole_row - kDRow[dir], lead_col = hole_col - kDCol[dir];
    if (!has(own[lead_row], lead_col)) continue;
    int n_own = 0, n_opp = 0, tail_row = lead_row, tail_col = lead_col;
    for (int row = lead_row, col = lead_col; has(own[row] | opp[row], col);
         row -= kDRow[dir], col -= kDCol[dir]) {
      n_own += has(own[row], col);
      n_opp += has(opp[row], col);
      tail_row = row;
      tail_col = col;
    }
    if (n_own + n_opp < 2 || n_own < n_opp) continue;
    // After the fill the hole is occupied and the tail cell empty.
    Rows sim;
    for (int r = row_lo_ - 1; r <= row_hi_ + 1; ++r) sim[r] = own[r] | opp[r];
    sim[hole_row] |= bit(hole_col);
    sim[tail_row] &= ~bit(tail_col);
    if (!connected(sim)) continue;
    if (emit(make_action(kMoveKind, lead_col + origin_x_, lead_row + origin_y_, dir))) return true;
  }
  return false;
}

bool Lignes::capture_has_fill(int row, int col) const {
  return for_each_fill_move(row, col, [](Action) { return true; });
}

template <class Emit>
bool Lignes::for_each_capture(Emit&& emit) const {
  // Opponent pawns with the mover's pawns on all four sides, and a fill move after removal.
  const Rows& own = pawns_[mover_];
  const Rows& opp = pawns_[mover_ ^ 1];
  for (int r = row_lo_; r <= row_hi_; ++r) {
    std::uint64_t surrounded = opp[r] & (own[r] << 1) & (own[r] >> 1) & own[r - 1] & own[r + 1];
    while (surrounded) {
      const int c = std::countr_zero(surrounded);
      surrounded &= surrounded - 1;
      if (capture_has_fill(r, c) && emit(make_action(kCaptureKind, c + origin_x_, r + origin_y_)))
        return true;
    }
  }
  return false;
}

bool Lignes::has_capture() const {
  return for_each_capture([](Action) { return true; });
}

int Lignes::alignment_moves(int player, int limit) const {
  int n = 0;
  for_each_alignment_move(player, [&](Action) { return ++n >= limit; });
  return n;
}

void Lignes::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  switch (phase_) {
    case Phase::kPlace: {
      if (placed_ == 0) {
        out.push_back(make_action(kPlaceKind, 0, 0));
        return;
      }
      for (int r = row_lo_ - 1; r <= row_hi_ + 1; ++r) {
        const std::uint64_t o = occupied(r);
        std::uint64_t cells = (o << 1 | o >> 1 | occupied(r - 1) | occupied(r + 1)) & ~o;
        while (cells) {
          const int c = std::countr_zero(cells);
          cells &= cells - 1;
          out.push_back(make_action(kPlaceKind, c + origin_x_, r + origin_y_));
        }
      }
      return;
    }
    case Phase::kMove:
      for_each_alignment_move(mover_, [&](Action a) {
        out.push_back(a);
        return false;
      });
      return;
    case Phase::kCapture: {
      out.push_back(kPass);
      for_each_capture([&](Action a) {
        out.push_back(a);
        return false;
      });
      return;
    }
    case Phase::kFill:
      for_each_fill_move(hole_row_, hole_col_, [&](Action a) {
        out.push_back(a);
        return false;
      });
      return;
  }
}

void Lignes::end_turn() {
  if (placed_ == kTotalPawns) {
    terminal_ = true;
    outcome_ = captures_[0] > captures_[1]   ? Outcome::kP0Win
               : captures_[1] > captures_[0] ? Outcome::kP1Win
                                             : Outcome::kDraw;
    return;
  }
  mover_ ^= 1;
  phase_ = Phase::kPlace;
}

void Lignes::apply(Action a) {
  const int row = row_of(y_of(a)), col = col_of(x_of(a));
  switch (kind_of(a)) {
    case kPlaceKind:
      place(mover_, row, col);
      ++placed_;
      recentre_if_needed();
      if (placed_ <= kOpeningPawns) {
        mover_ ^= 1;
        return;
      }
      phase_ = Phase::kMove;
      // A player left without any alignment move after his placement loses at once.
      if (!for_each_alignment_move(mover_, [](Action) { return true; })) {
        terminal_ = true;
        outcome_ = mover_ == 0 ? Outcome::kP1Win : Outcome::kP0Win;
      }
      return;
    case kMoveKind:
      shift_run(row, col, dir_of(a));
      recentre_if_needed();
      if (phase_ == Phase::kMove && has_capture()) {
        phase_ = Phase::kCapture;
        return;
      }
      end_turn();
      return;
    case kCaptureKind:
      remove(row, col);
      ++captures_[mover_];
      hole_row_ = static_cast<std::int8_t>(row);
      hole_col_ = static_cast<std::int8_t>(col);
      update_row_extent();
      phase_ = Phase::kFill;
      return;
    case kPassKind:
      end_turn();
      return;
  }
}

}  // namespace azg
