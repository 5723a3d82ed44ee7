// Truchet rules: flips, river moves, splits, merges, captures, the end of the game.
#include <algorithm>
#include <array>
#include <bit>

#include "core/error.hpp"
#include "env/common/board64.hpp"
#include "env/truchet/truchet.hpp"
#include "env/truchet/truchet_tables.hpp"

namespace azg {

using namespace board64;
using namespace truchet;

Truchet::Truchet() {
  set_tiles(0);
  for (const char* sq : {"a8", "c8", "e8", "g8", "b7", "d7", "f7", "h7", "a6", "c6", "e6", "g6"})
    put(*parse_square(sq), 0, 1);
  for (const char* sq : {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"})
    put(*parse_square(sq), 1, 1);
  history_[history_len_++] = turn_start_hash();
}

Truchet Truchet::from_setup(std::string_view setup) {
  if (setup.size() != kTiles || setup.find_first_not_of("01") != std::string_view::npos)
    throw Error("truchet --setup must be 49 characters 0/1 (tiles a1..g1, a2..g7), got " +
                quote_input(setup));
  std::uint64_t tiles = 0;
  for (int i = 0; i < kTiles; ++i)
    if (setup[i] == '1') tiles |= std::uint64_t{1} << i;
  Truchet g;
  g.set_tiles(tiles);
  g.history_len_ = 0;
  g.history_[g.history_len_++] = g.turn_start_hash();
  return g;
}

Truchet Truchet::random_setup(Rng& rng) {
  std::string setup(kTiles, '0');
  for (char& c : setup) c = rng.below(2) ? '1' : '0';
  return from_setup(setup);
}

std::string Truchet::setup_string() const {
  std::string s(kTiles, '0');
  for (int i = 0; i < kTiles; ++i)
    if (tiles_ >> i & 1) s[i] = '1';
  return s;
}

int Truchet::colour_at(int sq) const {
  return (colour_[0] >> sq & 1) ? 0 : (colour_[1] >> sq & 1) ? 1 : -1;
}
int Truchet::height_at(int sq) const {
  return 1 + static_cast<int>(height_bits_[0] >> sq & 1) +
         2 * static_cast<int>(height_bits_[1] >> sq & 1);
}

void Truchet::put(int sq, int colour, int height) {
  colour_[colour] |= bit(sq);
  if ((height - 1) & 1) height_bits_[0] |= bit(sq);
  if ((height - 1) & 2) height_bits_[1] |= bit(sq);
  zobrist_ ^= kKeys.stack[sq][colour][height - 1];
}

void Truchet::clear(int sq) {
  const int colour = colour_at(sq);
  zobrist_ ^= kKeys.stack[sq][colour][height_at(sq) - 1];
  colour_[colour] &= ~bit(sq);
  height_bits_[0] &= ~bit(sq);
  height_bits_[1] &= ~bit(sq);
}

void Truchet::set_tiles(std::uint64_t tiles) {
  for (int t = 0; t < kTiles; ++t) zobrist_ ^= kKeys.tile[t][tiles_ >> t & 1];
  tiles_ = tiles;
  for (int t = 0; t < kTiles; ++t) zobrist_ ^= kKeys.tile[t][tiles_ >> t & 1];
  ne_links_ = se_links_ = 0;
  for (int y = 0; y < 7; ++y) {
    const std::uint64_t row = (tiles_ >> (7 * y)) & 0x7F;
    ne_links_ |= (~row & 0x7F) << (8 * y);
    se_links_ |= row << (8 * (y + 1));
  }
}

// A tile's two diagonals: "/" links its SW corner, "\" its NW corner.
static std::uint64_t sw_corner(int t) {
  return bit(square(t % 7, t / 7));
}
static std::uint64_t nw_corner(int t) {
  return bit(square(t % 7, t / 7 + 1));
}

void Truchet::toggle_tile(int t) {
  const int old = static_cast<int>(tiles_ >> t & 1);
  zobrist_ ^= kKeys.tile[t][old] ^ kKeys.tile[t][old ^ 1];
  tiles_ ^= std::uint64_t{1} << t;
  ne_links_ ^= sw_corner(t);
  se_links_ ^= nw_corner(t);
}

std::uint64_t Truchet::river_reach(int from) const {
  return river_reach(from, ne_links_, se_links_);
}

std::uint64_t Truchet::river_reach(int from, std::uint64_t ne_links, std::uint64_t se_links) const {
  const std::uint64_t empty = ~occupied();
  std::uint64_t visited = bit(from), frontier = visited;
  for (;;) {
    std::uint64_t next = shift(frontier & ne_links, kNE) | (shift(frontier, kSW) & ne_links) |
                         shift(frontier & se_links, kSE) | (shift(frontier, kNW) & se_links);
    next &= empty & ~visited;
    if (!next) return visited & ~bit(from);
    visited |= next;
    frontier = next;
  }
}

template <class Emit>
bool Truchet::for_each_split(int from, Emit&& emit) const {
  const int h = height_at(from);
  if (h < 2) return false;
  const std::uint64_t own = colour_[mover_], opp = colour_[mover_ ^ 1];
  for (int p = kPatternStart[h]; p < kPatternStart[h + 1]; ++p) {
    const auto& counts = kPatterns[p].counts;
    bool ok = true;
    for (int d = 0; d < 4 && ok; ++d) {
      if (counts[d] == 0) continue;
      const int to = step(from, d);
      if (to < 0 || (own >> to & 1))
        ok = false;
      else if ((opp >> to & 1) && counts[d] < height_at(to))
        ok = false;
    }
    if (ok && emit(make_action(kSplitKind, from, 0, kPatterns[p].code))) return true;
  }
  return false;
}

template <class Emit>
bool Truchet::for_each_merge(int centre, std::uint32_t required, Emit&& emit) const {
  const std::uint64_t own = colour_[mover_], opp = colour_[mover_ ^ 1];
  if (own >> centre & 1) return false;
  std::uint32_t available = 0;
  int heights[4] = {0, 0, 0, 0};
  for (int d = 0; d < 4; ++d) {
    const int s = step(centre, d);
    if (s >= 0 && (own >> s & 1)) {
      available |= 1u << d;
      heights[d] = height_at(s);
    }
  }
  if (std::popcount(available) < 2) return false;
  const int defender = (opp >> centre & 1) ? height_at(centre) : 0;
  for (const std::uint32_t set : kMergeSetMasks) {
    if ((set & available) != set || (set & required) != required) continue;
    int total = 0;
    for (int d = 0; d < 4; ++d)
      if (set >> d & 1) total += heights[d];
    if (total > 4 || total < defender) continue;
    if (emit(make_action(kMergeKind, centre, 0, set))) return true;
  }
  return false;
}

template <class Emit>
bool Truchet::for_each_stack_action(Emit&& emit) const {
  const std::uint64_t own = colour_[mover_];
  if (phase_ == Phase::kAfterRiver) {
    if (for_each_split(moved_, emit)) return true;
    for (int d = 0; d < 4; ++d) {
      const int centre = step(moved_, d);
      // Seen from the centre, the moved stack lies in the opposite direction.
      if (centre >= 0 && for_each_merge(centre, 1u << ((d + 2) & 3), emit)) return true;
    }
    return emit(make_action(kDoneKind, 0));
  }
  for (std::uint64_t b = own; b;) {
    const int from = pop_lsb(b);
    for (std::uint64_t to = river_reach(from); to;)
      if (emit(make_action(kRiverKind, from, pop_lsb(to)))) return true;
  }
  return for_each_split_or_merge(emit);
}

template <class Emit>
bool Truchet::for_each_split_or_merge(Emit&& emit) const {
  const std::uint64_t own = colour_[mover_];
  for (std::uint64_t b = own & (height_bits_[0] | height_bits_[1]); b;)
    if (for_each_split(pop_lsb(b), emit)) return true;
  // Merge centres: junctions without own chips that touch two or more own stacks.
  const std::uint64_t n = shift(own, kS), s = shift(own, kN), e = shift(own, kW),
                      w = shift(own, kE);
  const std::uint64_t two = ((n & s) | (n & e) | (n & w) | (s & e) | (s & w) | (e & w)) & ~own;
  for (std::uint64_t b = two; b;)
    if (for_each_merge(pop_lsb(b), 0, emit)) return true;
  return false;
}

bool Truchet::has_stack_action() const {
  return for_each_stack_action([](Action) { return true; });
}

bool Truchet::has_split_or_merge() const {
  return for_each_split_or_merge([](Action) { return true; });
}

void Truchet::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  auto push = [&out](Action a) {
    out.push_back(a);
    return false;
  };
  if (phase_ == Phase::kStart) {
    // Flips: tiles whose four corners are empty, when a stack action follows. Splits and
    // merges do not depend on the tiles; river moves are re-checked with the flipped links.
    const std::uint64_t empty = ~occupied();
    const std::uint64_t corners_empty =
        empty & shift(empty, kW) & shift(empty, kS) & shift(empty, kSW);
    const bool split_or_merge = has_split_or_merge();
    for (std::uint64_t b = corners_empty & kTileCorners; b;) {
      const int sw = pop_lsb(b);
      const int t = rank_of(sw) * 7 + file_of(sw);
      bool river = false;
      for (std::uint64_t own = colour_[mover_]; own && !split_or_merge && !river;)
        river = river_reach(pop_lsb(own), ne_links_ ^ sw_corner(t), se_links_ ^ nw_corner(t)) != 0;
      if (split_or_merge || river) out.push_back(make_action(kFlipKind, t));
    }
  }
  for_each_stack_action(push);
}

std::uint64_t Truchet::turn_start_hash() const {
  return zobrist_ ^ kKeys.side[mover_];
}

int Truchet::repetitions() const {
  const std::uint64_t h = turn_start_hash();
  int n = 0;
  for (int i = 0; i < history_len_; ++i) n += history_[i] == h;
  return n;
}

void Truchet::end_turn() {
  const std::uint64_t targets = mover_ == 0 ? kDarkBases : kLightBases;
  if (std::popcount(colour_[mover_] & targets) >= 3 || colour_[mover_ ^ 1] == 0) {
    terminal_ = true;
    outcome_ = mover_ == 0 ? Outcome::kP0Win : Outcome::kP1Win;
    return;
  }
  ++turn_;
  mover_ ^= 1;
  phase_ = Phase::kStart;
  moved_ = -1;
  if (turn_ >= kTurnCap) {
    terminal_ = true;
    outcome_ = Outcome::kDraw;
    return;
  }
  if (captured_) history_len_ = 0;  // no earlier position can come back
  captured_ = false;
  history_[history_len_++] = turn_start_hash();
  if (repetitions() >= 3) {
    terminal_ = true;
    outcome_ = Outcome::kDraw;
    return;
  }
  if (!has_stack_action()) {
    terminal_ = true;
    outcome_ = mover_ == 0 ? Outcome::kP1Win : Outcome::kP0Win;
  }
}

void Truchet::apply(Action a) {
  const int from = from_of(a);
  switch (kind_of(a)) {
    case kFlipKind:
      toggle_tile(from);
      phase_ = Phase::kAfterFlip;
      return;
    case kRiverKind: {
      const int to = to_of(a), h = height_at(from);
      clear(from);
      put(to, mover_, h);
      moved_ = static_cast<std::int8_t>(to);
      phase_ = Phase::kAfterRiver;
      return;
    }
    case kSplitKind: {
      const std::uint32_t code = extra_of(a);
      clear(from);
      for (int d = 0; d < 4; ++d) {
        const int count = static_cast<int>((code >> (3 * d)) & 7);
        if (count == 0) continue;
        const int to = step(from, d);
        if (colour_at(to) >= 0) {
          clear(to);
          captured_ = true;
        }
        put(to, mover_, count);
      }
      end_turn();
      return;
    }
    case kMergeKind: {
      const std::uint32_t set = extra_of(a);
      int total = 0;
      for (int d = 0; d < 4; ++d) {
        if (!(set >> d & 1)) continue;
        const int s = step(from, d);
        total += height_at(s);
        clear(s);
      }
      if (colour_at(from) >= 0) {
        clear(from);
        captured_ = true;
      }
      put(from, mover_, total);
      end_turn();
      return;
    }
    case kDoneKind:
      end_turn();
      return;
  }
}

Truchet Truchet::from_stacks(std::string_view stacks, std::string_view setup, int mover, int turn) {
  Truchet g = from_setup(setup);
  for (int c = 0; c < 2; ++c)
    for (std::uint64_t b = g.colour_[c]; b;) g.clear(pop_lsb(b));
  std::size_t i = 0;
  while (i < stacks.size()) {
    if (stacks[i] == ' ') {
      ++i;
      continue;
    }
    const auto sq = parse_square(stacks.substr(i, 2));
    if (!sq || i + 4 >= stacks.size() || stacks[i + 2] != ':' ||
        (stacks[i + 3] != 'L' && stacks[i + 3] != 'D') || stacks[i + 4] < '1' ||
        stacks[i + 4] > '4' || g.colour_at(*sq) >= 0)
      throw Error("bad stack list " + quote_input(std::string(stacks)));
    g.put(*sq, stacks[i + 3] == 'L' ? 0 : 1, stacks[i + 4] - '0');
    i += 5;
  }
  g.mover_ = static_cast<std::uint8_t>(mover);
  g.turn_ = static_cast<std::uint16_t>(turn);
  g.history_len_ = 0;
  g.history_[g.history_len_++] = g.turn_start_hash();
  return g;
}

}  // namespace azg
