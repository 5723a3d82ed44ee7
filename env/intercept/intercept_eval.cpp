// Intercept's static evaluation (docs/heuristics.md): a race between the two sides' ball
// paths. Each side's cost is the number of pawn moves it needs before a ball path runs
// from where the ball lies to its target goal; the side to move, with the cheaper path,
// is ahead. The costs are computed the same way for both colours, so the value of a
// position and of its colour-swapped half-turn image are opposite.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "env/intercept/directions.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {

namespace {

constexpr int kFar = 12;   // the cost of a square no pawn of the needed face can reach
constexpr int kBlock = 3;  // extra cost of a square an opponent's pawn holds: it has to leave
constexpr int kNone = 1 << 20;
constexpr int kCostCap = 60;      // no path at all counts as this many moves
constexpr double kCostSlack = 6;  // keeps the value of two short paths off the extremes

// The moves a pawn needs from one square to another, blockers ignored, in tables since the
// path search asks thousands of times a call: one a square for passage and rest pawns
// (Chebyshev distance); the double slides any distance along a line, so one move or two.
struct Geometry {
  std::array<std::array<std::uint8_t, Intercept::kSquares>, Intercept::kSquares> moves{},
      double_moves{};
  constexpr Geometry() {
    for (int a = 0; a < Intercept::kSquares; ++a) {
      for (int b = 0; b < Intercept::kSquares; ++b) {
        const int dr = a / 13 > b / 13 ? a / 13 - b / 13 : b / 13 - a / 13;
        const int df = a % 13 > b % 13 ? a % 13 - b % 13 : b % 13 - a % 13;
        moves[a][b] = static_cast<std::uint8_t>(dr > df ? dr : df);
        double_moves[a][b] = static_cast<std::uint8_t>(a == b                           ? 0
                                                       : dr == 0 || df == 0 || dr == df ? 1
                                                                                        : 2);
      }
    }
  }
};
constexpr Geometry kGeometry;

using intercept::step;
int moves_to(int from, int to, bool is_double) {
  return is_double ? kGeometry.double_moves[from][to] : kGeometry.moves[from][to];
}

// One side's view of the board, turned so that it always attacks g13 (a half turn for
// Dark): both colours then run the same code on the same squares, so a position and its
// colour-swapped image get exactly the same costs, ties broken alike.
struct SideView {
  enum Code : std::uint8_t { kEmpty, kBall, kTheirs, kPassage, kRest, kDoublePassage, kDoubleRest };
  std::array<Code, Intercept::kSquares> code{};
  int ball = 0;
  struct Source {
    std::int16_t square;
    bool is_double, passage, rest;
  };
  std::array<Source, 16> sources{};
  int n_sources = 0;
};

// What a square of the path asks for: nothing when it holds the right face already; a pawn
// coming, after the one there leaves (one move for one's own, kBlock for an opponent's); or
// a flip of the double standing there.
enum class Need { kReady, kFlip, kOwnLeaves, kTheirsLeaves, kArrive, kImpossible };

Need need(const SideView& v, int face, int sq) {
  constexpr int goal = Intercept::kDarkGoal;
  switch (v.code[sq]) {
    case SideView::kBall:
      return Need::kImpossible;  // only ever R0
    case SideView::kTheirs:
      return sq == goal ? (face == 1 ? Need::kArrive : Need::kImpossible) : Need::kTheirsLeaves;
    case SideView::kEmpty:
      if (sq == goal)
        return face == 1 ? Need::kReady : Need::kImpossible;  // the open goal ends a path
      return Need::kArrive;
    default:
      break;
  }
  if (sq == goal)
    return face == 1 ? Need::kReady : Need::kImpossible;  // any pawn of one's own tops it
  const bool passage = v.code[sq] == SideView::kPassage || v.code[sq] == SideView::kDoublePassage;
  if (passage == (face == 0)) return Need::kReady;
  return v.code[sq] >= SideView::kDoublePassage ? Need::kFlip : Need::kOwnLeaves;
}

int extra(Need n) {
  return n == Need::kOwnLeaves ? 1 : n == Need::kTheirsLeaves ? kBlock : 0;
}

bool serves(const SideView::Source& s, int face) {
  return face == 0 ? s.passage : s.rest;
}

// The path's cost on a side's view (Intercept::path_cost says what it leaves out).
int path_cost_in_view(const SideView& v) {
  constexpr int goal = Intercept::kDarkGoal, kSquares = Intercept::kSquares;
  // Each square's cost as a P (face 0) and as an R (face 1), looked up by every edge.
  std::array<std::array<int, kSquares>, 2> cost_of;
  for (int sq = 0; sq < kSquares; ++sq) {
    int nearest[2] = {kFar, kFar};
    for (int i = 0; i < v.n_sources; ++i) {
      const auto& s = v.sources[i];
      if (s.square == sq) continue;
      const int m = moves_to(s.square, sq, s.is_double);
      for (int face = 0; face < 2; ++face)
        if (serves(s, face)) nearest[face] = std::min(nearest[face], m);
    }
    for (int face = 0; face < 2; ++face) {
      const Need n = need(v, face, sq);
      cost_of[face][sq] = n == Need::kImpossible ? kNone
                          : n == Need::kReady    ? 0
                          : n == Need::kFlip     ? 1
                                                 : extra(n) + nearest[face];
    }
  }
  auto cost = [&cost_of](int face, int sq) { return cost_of[face][sq]; };
  std::array<int, kSquares> dist, via_p, via_r;
  dist.fill(kNone);
  // Dial's bucket queue: costs are small integers and one edge adds at most two squares'
  // costs (below kBuckets), so buckets by cost modulo kBuckets pop in order. Every edge
  // relaxes at most once (each R square is expanded once): 8 x 8 first pairs plus 8 edges
  // a square bound the entries.
  constexpr int kBuckets = 32;
  static_assert(2 * (kFar + kBlock) < kBuckets);
  struct Entry {
    std::int16_t square, next;
    int cost;
  };
  std::array<Entry, 64 + 8 * kSquares> pool;
  std::array<std::int16_t, kBuckets> head;
  head.fill(-1);
  int used_entries = 0, queued = 0;
  auto relax = [&](int from, int p, int r, int c) {
    if (c < dist[r]) {
      dist[r] = c;
      via_p[r] = p;
      via_r[r] = from;
      pool[used_entries] = {static_cast<std::int16_t>(r), head[c % kBuckets], c};
      head[c % kBuckets] = static_cast<std::int16_t>(used_entries++);
      ++queued;
    }
  };
  // The first pair: P1 next to the ball, R1 next to P1, each in any direction.
  for (int d1 = 0; d1 < 8; ++d1) {
    const int p = step(v.ball, d1);
    if (p < 0) continue;
    const int cp = cost(0, p);
    if (cp >= kNone) continue;
    for (int d2 = 0; d2 < 8; ++d2) {
      const int r = step(p, d2);
      if (r < 0) continue;
      const int cr = cost(1, r);
      if (cr < kNone) relax(v.ball, p, r, cp + cr);
    }
  }
  // Later pairs run straight, and the goal is only ever the last square.
  bool reached = false;
  for (int c = 0; queued > 0 && !reached; ++c) {
    std::int16_t& bucket = head[c % kBuckets];
    while (bucket >= 0) {
      const Entry e = pool[bucket];
      bucket = e.next;
      --queued;
      const int r = e.square;
      if (e.cost != dist[r] || e.cost != c) continue;  // stale: a cheaper entry came later
      if (r == goal) {
        reached = true;
        break;
      }
      for (int d = 0; d < 8; ++d) {
        const int p = step(r, d);
        const int r2 = p < 0 ? -1 : step(p, d);
        if (r2 < 0) continue;
        const int cp = cost(0, p);
        if (cp >= kNone) continue;
        const int cr = cost(1, r2);
        if (cr < kNone) relax(r, p, r2, c + cp + cr);
      }
    }
  }
  if (!reached) return kNone;
  // The chosen path, costed with each pawn serving one square: pawns already in place stay,
  // the other squares take the cheapest free pawn, cheapest pair first.
  struct Slot {
    int square, face, extra;
  };
  std::array<Slot, 2 * kSquares> slots;
  int n_slots = 0, total = 0;
  std::array<bool, 16> used{};
  auto keep = [&](int sq) {
    for (int i = 0; i < v.n_sources; ++i)
      if (v.sources[i].square == sq) used[i] = true;
  };
  for (int r = goal; r != v.ball; r = via_r[r]) {
    for (const auto& [sq, face] : {std::pair{r, 1}, std::pair{via_p[r], 0}}) {
      const Need n = need(v, face, sq);
      if (n == Need::kReady) {
        keep(sq);
      } else if (n == Need::kFlip) {
        total += 1;
        keep(sq);
      } else {
        slots[n_slots++] = {sq, face, extra(n)};
      }
    }
  }
  for (int k = 0; k < n_slots; ++k) {
    int best = kNone, best_slot = -1, best_source = -1;
    for (int j = 0; j < n_slots; ++j) {
      if (slots[j].square < 0) continue;
      for (int i = 0; i < v.n_sources; ++i) {
        const auto& s = v.sources[i];
        if (used[i] || s.square == slots[j].square || !serves(s, slots[j].face)) continue;
        const int c = moves_to(s.square, slots[j].square, s.is_double);
        if (c < best) best = c, best_slot = j, best_source = i;
      }
    }
    if (best_slot < 0) return total + (n_slots - k) * kFar;  // more squares than pawns to fill them
    total += best + slots[best_slot].extra;
    used[best_source] = true;
    slots[best_slot].square = -1;
  }
  return total;
}

}  // namespace

// Cheap enough for every search leaf, so an estimate: the path is chosen with each square
// costed by its nearest pawn (one pawn may then serve several squares), and only that path
// is then costed with each pawn serving one square (greedy). Jumps count as slides, and the
// rule that the moved pawn lies on the path is left out. Squares of the path: R0 = the
// ball's square, then P (a passage face) and R (a rest face, or the open goal last), the
// first P-R pair in any two directions, later pairs straight.
int Intercept::path_cost(int colour) const {
  auto framed = [colour](int sq) { return colour == 0 ? sq : kSquares - 1 - sq; };
  SideView v;
  v.ball = framed(ball_);
  const Board mine = top_.side[colour];
  for (Board left = top_.side[colour ^ 1]; left.any();)
    v.code[framed(left.pop())] = SideView::kTheirs;
  // Sources in the frame's square order, so that both colours meet them in the same order.
  std::array<bool, kSquares> source_at{};
  for (Board left = mine; left.any();) {
    const int sq = left.pop(), f = framed(sq);
    const bool is_double = top_.doubles.test(sq), passage = top_.passage_face.test(sq);
    v.code[f] = is_double ? (passage ? SideView::kDoublePassage : SideView::kDoubleRest)
                          : (passage ? SideView::kPassage : SideView::kRest);
    source_at[f] = ball_alone_ || sq != ball_;  // the carrier cannot move
  }
  v.code[v.ball] = SideView::kBall;
  for (int f = 0; f < kSquares; ++f) {
    if (!source_at[f]) continue;
    const auto c = v.code[f];
    const bool is_double = c >= SideView::kDoublePassage;
    const bool passage = c == SideView::kPassage || c == SideView::kDoublePassage;
    v.sources[v.n_sources++] = {static_cast<std::int16_t>(f), is_double, is_double || passage,
                                is_double || !passage};
  }
  // The search breaks ties by the order of the directions, which the left-right mirror
  // (a symmetry of the game) reverses: the cheaper of the view and its mirror image keeps
  // the cost the same on both.
  SideView m = v;
  m.ball = intercept::mirror(v.ball);
  for (int f = 0; f < kSquares; ++f) m.code[intercept::mirror(f)] = v.code[f];
  for (int i = 0; i < v.n_sources; ++i)
    m.sources[i].square = static_cast<std::int16_t>(intercept::mirror(v.sources[i].square));
  std::sort(m.sources.begin(), m.sources.begin() + m.n_sources, [](const auto& a, const auto& b) {
    return a.square < b.square;
  });  // as the mirror's own view
  return std::min(path_cost_in_view(v), path_cost_in_view(m));
}

double Intercept::evaluate() const {
  const int me = mover_, other = mover_ ^ 1;
  const int sign = me == 0 ? 1 : -1;  // from the mover's side to Light's
  // The mover who can put the ball on the opponent's goal (paths along its pawns as they
  // stand; the pawn it must move may break one) is nearly won.
  if (ball_reach(me).test(target_goal(me))) return sign * 0.9;
  const int cost_me = std::min(path_cost(me), kCostCap),
            cost_other = std::min(path_cost(other), kCostCap);
  // The lead relative to the costs, so that a move still counts when one side is far
  // ahead (a tanh of the difference saturated, and the search stopped converting). The
  // mover's next move shortens its own path first: half a move of tempo.
  const double x = (cost_other - cost_me + 0.5) / (cost_other + cost_me + kCostSlack);
  return sign * std::clamp(x, -0.85, 0.85);
}

}  // namespace azg
