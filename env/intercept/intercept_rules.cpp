// Intercept rules: pawn moves, jump chains, the double, covering, ball paths, the end.
#include "core/error.hpp"
#include "env/intercept/directions.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {
namespace {

using Board = Intercept::Board;

using intercept::delta;
using intercept::step;

struct Tables {
  std::array<Board, 8> can_step{};  // squares with a neighbour in direction d
  std::array<Board, Intercept::kSquares> neighbours{};
  Board board;
};

constexpr Tables make_tables() {
  Tables t;
  t.board = Board::first(Intercept::kSquares);
  for (int sq = 0; sq < Intercept::kSquares; ++sq)
    for (int d = 0; d < 8; ++d) {
      const int to = intercept::step(sq, d);
      if (to >= 0) {
        t.can_step[d].set(sq);
        t.neighbours[sq].set(to);
      }
    }
  return t;
}

constexpr Tables kTables = make_tables();

// Every square of `b` moved one step in direction d (squares that would leave the board
// are dropped).
inline Board shift(const Board& b, int d) {
  const Board s = b & kTables.can_step[d];
  return delta(d) > 0 ? s << delta(d) : s >> -delta(d);
}

inline void toggle(Board& b, int sq) {
  if (b.test(sq))
    b.reset(sq);
  else
    b.set(sq);
}

}  // namespace

std::uint8_t Intercept::Layer::at(int sq) const {
  if (!pawns().test(sq)) return 0;
  const Kind kind = doubles.test(sq) ? kDouble : rest_kind.test(sq) ? kRest : kPassage;
  return pawn(side[1].test(sq) ? 1 : 0, kind, passage_face.test(sq));
}

void Intercept::Layer::put(int sq, std::uint8_t p) {
  if (!(p & 1)) return;
  side[(p >> 1) & 1].set(sq);
  const int kind = (p >> 2) & 3;
  if (kind == kDouble) doubles.set(sq);
  if (kind == kRest) rest_kind.set(sq);
  if (p & 16) passage_face.set(sq);
}

std::uint8_t Intercept::Layer::take(int sq) {
  const std::uint8_t p = at(sq);
  for (Board* b : {&side[0], &side[1], &doubles, &rest_kind, &passage_face}) b->reset(sq);
  return p;
}

Intercept::Intercept() {
  const Kind light[11] = {kPassage, kRest,    kPassage, kRest,    kPassage, kDouble,
                          kRest,    kPassage, kRest,    kPassage, kRest};
  for (int i = 0; i < 11; ++i) {
    const Kind k = light[i];
    top_.put(1 + i, pawn(0, k, k != kRest));             // b1 .. l1
    top_.put(12 * 13 + 11 - i, pawn(1, k, k != kRest));  // l13 .. b13: the half-turn image
  }
  ball_ = 6 * 13 + 6;  // g7
  ball_alone_ = true;
}

Intercept Intercept::from_setup(std::string_view setup) {
  if (!setup.empty())
    throw Error("intercept takes no setup, got " + quote_input(std::string(setup)));
  return Intercept{};
}

Board Intercept::empty_squares() const {
  Board empty = kTables.board & ~top_.pawns();
  if (ball_alone_) empty.reset(ball_);
  return empty;
}

Board Intercept::cover_targets(bool passage) const {
  // A slide may end on an opponent pawn that is not the carrier and not itself covering:
  // a rest face onto the opponent's goal; a passage face onto a square next to that goal
  // when every square next to it holds an opponent pawn (judged by the top pawns).
  const int other = mover_ ^ 1, goal = target_goal(mover_);
  const Board coverable = top_.side[other] & ~under_.pawns() & ~carrier_square();
  if (!passage) return coverable & Board::single(goal);
  const Board around = kTables.neighbours[goal];
  if ((around & ~top_.side[other]).any()) return {};
  return coverable & around;
}

template <class Emit>
bool Intercept::for_each_jump(int from, const Board& visited, const Board& empty,
                              Emit&& emit) const {
  const bool is_double = top_.doubles.test(from);
  const Board pawns = top_.pawns();
  for (int d = 0; d < 8; ++d) {
    int over = step(from, d);
    if (is_double)  // the double approaches over empty squares
      while (over >= 0 && empty.test(over)) over = step(over, d);
    if (over < 0 || !pawns.test(over) || (!ball_alone_ && over == ball_)) continue;
    if (!is_double && top_.doubles.test(over)) continue;
    const int to = step(over, d);
    if (to < 0 || !empty.test(to) || visited.test(to)) continue;
    if (emit(make_action(kJumpKind, from, to))) return true;
  }
  return false;
}

template <class Emit>
bool Intercept::for_each_move(Emit&& emit) const {
  const Board empty = empty_squares(), carrier = carrier_square();
  const Board mine = top_.side[mover_] & ~carrier;
  const Board singles = mine & ~top_.doubles;  // passage and rest pawns
  const Board cover_passage = cover_targets(true), cover_rest = cover_targets(false);
  // Passage and rest pawns, set-wise: slides (covering ones included), then jumps over a
  // pawn that is neither a double nor the carrier (the start square is never empty, so
  // the first jump needs no visited check).
  const Board jumpable = top_.pawns() & ~top_.doubles & ~carrier;
  for (int d = 0; d < 8; ++d) {
    Board to = shift(singles, d) & empty;
    if (cover_passage.any() || cover_rest.any())
      to |= (shift(singles & top_.passage_face, d) & cover_passage) |
            (shift(singles & ~top_.passage_face, d) & cover_rest);
    while (to.any()) {
      const int t = to.pop();
      if (emit(make_action(kSlideKind, t - delta(d), t))) return true;
    }
    for (Board land = shift(shift(singles, d) & jumpable, d) & empty; land.any();) {
      const int t = land.pop();
      if (emit(make_action(kJumpKind, t - 2 * delta(d), t))) return true;
    }
  }
  // The double (one per side): long slides along rays, a cover at the ray's end, jumps,
  // or a flip in place.
  for (Board doubles = mine & top_.doubles; doubles.any();) {
    const int from = doubles.pop();
    const Board covers = top_.passage_face.test(from) ? cover_passage : cover_rest;
    for (int d = 0; d < 8; ++d) {
      int to = step(from, d);
      for (; to >= 0 && empty.test(to); to = step(to, d))
        if (emit(make_action(kSlideKind, from, to))) return true;
      if (to >= 0 && covers.test(to) && emit(make_action(kSlideKind, from, to))) return true;
    }
    if (for_each_jump(from, Board::single(from), empty, emit)) return true;
    if (emit(make_action(kFlipInPlaceKind, from, from))) return true;
  }
  return false;
}

template <class Emit>
bool Intercept::for_each_ball_destination(Emit&& emit) const {
  return for_each_ball_path_end(mover_, moved_, emit);
}

Intercept::Board Intercept::ball_reach(int colour) const {
  Board reach;
  for_each_ball_path_end(colour, -1, [&reach](Action a) {
    reach.set(to_of(a));
    return false;
  });
  return reach;
}

template <class Emit>
bool Intercept::for_each_ball_path_end(int colour, int must_use, Emit&& emit) const {
  // Depth-first over the paths themselves: the spec's squares must be distinct, which a
  // search over (square, moved-pawn-on-path) states alone would not enforce (it would let
  // the ball run out and back along the same line to pick up the moved pawn). Paths are
  // short: a player has at most 11 pawns, so the search stays small. Each destination is
  // reported once.
  const int goal = target_goal(colour);
  const Board mine = top_.side[colour];
  Board passage = mine & top_.passage_face;
  passage.reset(goal);                        // the opponent's goal is never a P square
  Board landing = mine & ~top_.passage_face;  // rest faces, and the goal when open
  if (!(top_.side[colour ^ 1]).test(goal)) landing.set(goal);
  Board emitted, on_path = Board::single(ball_);
  bool stop = false;
  // From rest square r (the ball's square at the start): hop over a passage pawn to a rest
  // pawn or the open goal; `first` allows the turn at P1.
  auto visit = [&](auto&& self, int r, bool used, bool first) -> void {
    for (int d1 = 0; d1 < 8 && !stop; ++d1) {
      const int p = step(r, d1);
      if (p < 0 || on_path.test(p) || !passage.test(p)) continue;
      on_path.set(p);
      for (int d2 = first ? 0 : d1; d2 < (first ? 8 : d1 + 1) && !stop; ++d2) {
        const int r2 = step(p, d2);
        if (r2 < 0 || on_path.test(r2) || !landing.test(r2)) continue;
        const bool now_used = used || must_use < 0 || p == must_use || r2 == must_use;
        if (now_used && !emitted.test(r2)) {
          emitted.set(r2);
          if (emit(make_action(kBallKind, 0, r2))) stop = true;
        }
        if (r2 == goal || stop) continue;  // the opponent's goal is only ever the last square
        on_path.set(r2);
        self(self, r2, now_used, false);
        on_path.reset(r2);
      }
      on_path.reset(p);
    }
  };
  visit(visit, ball_, false, true);
  return stop;
}

void Intercept::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  auto push = [&out](Action a) {
    out.push_back(a);
    return false;
  };
  switch (phase_) {
    case Phase::kMove:
      for_each_move(push);
      return;
    case Phase::kChain:
      out.push_back(make_action(kStopKind));
      for_each_jump(moved_, visited_, empty_squares(), push);
      return;
    case Phase::kFlipChoice:
      out.push_back(make_action(kFlipKind));
      out.push_back(make_action(kKeepKind));
      return;
    case Phase::kBall:
      out.push_back(make_action(kPassKind));
      for_each_ball_destination(push);
      return;
  }
}

void Intercept::move_pawn(int from, int to) {
  const std::uint8_t p = top_.take(from);
  top_.put(from, under_.take(from));  // a cover leaving uncovers the pawn below
  under_.put(to, top_.take(to));      // a covering slide puts the target below
  top_.put(to, p);
  moved_ = static_cast<std::int16_t>(to);
}

void Intercept::after_pawn_move() {
  if (top_.doubles.test(moved_)) {
    phase_ = Phase::kFlipChoice;
    return;
  }
  phase_ = Phase::kBall;
  if (!for_each_ball_destination([](Action) { return true; })) end_turn();
}

void Intercept::end_turn() {
  ++turn_;
  if (turn_ >= kTurnCap) {
    terminal_ = true;
    outcome_ = Outcome::kDraw;
    return;
  }
  mover_ ^= 1;
  phase_ = Phase::kMove;
  moved_ = -1;
  visited_ = {};
  if (!for_each_move([](Action) { return true; })) {
    terminal_ = true;
    outcome_ = mover_ == 0 ? Outcome::kP1Win : Outcome::kP0Win;
  }
}

void Intercept::apply(Action a) {
  const int from = from_of(a), to = to_of(a);
  switch (kind_of(a)) {
    case kSlideKind:
      move_pawn(from, to);
      after_pawn_move();
      return;
    case kJumpKind:
      if (phase_ == Phase::kMove) visited_ = Board::single(from);
      move_pawn(from, to);
      visited_.set(to);
      if (for_each_jump(to, visited_, empty_squares(), [](Action) { return true; })) {
        phase_ = Phase::kChain;
        return;
      }
      after_pawn_move();
      return;
    case kStopKind:
      after_pawn_move();
      return;
    case kFlipInPlaceKind:
      toggle(top_.passage_face, from);
      moved_ = static_cast<std::int16_t>(from);
      phase_ = Phase::kBall;
      if (!for_each_ball_destination([](Action) { return true; })) end_turn();
      return;
    case kFlipKind:
    case kKeepKind:
      if (kind_of(a) == kFlipKind) toggle(top_.passage_face, moved_);
      phase_ = Phase::kBall;
      if (!for_each_ball_destination([](Action) { return true; })) end_turn();
      return;
    case kBallKind:
      ball_ = static_cast<std::int16_t>(to);
      ball_alone_ = !top_.pawns().test(to);
      if (to == target_goal(mover_)) {
        terminal_ = true;
        outcome_ = mover_ == 0 ? Outcome::kP0Win : Outcome::kP1Win;
        return;
      }
      end_turn();
      return;
    case kPassKind:
      end_turn();
      return;
  }
}

}  // namespace azg
