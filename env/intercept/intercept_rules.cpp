// Intercept rules: pawn moves, jump chains, the double, covering, ball paths, the end.
#include "env/common/error.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {
namespace {

constexpr int kDf[8] = {0, 1, 1, 1, 0, -1, -1, -1};  // N NE E SE S SW W NW
constexpr int kDr[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kLightGoal = 6, kDarkGoal = 12 * 13 + 6;  // g1, g13

// The square one step from `sq` towards d, or -1 off the board.
constexpr int step(int sq, int d) {
  const int f = sq % 13 + kDf[d], r = sq / 13 + kDr[d];
  return (f < 0 || f > 12 || r < 0 || r > 12) ? -1 : r * 13 + f;
}
constexpr bool present(std::uint8_t p) { return p & 1; }
constexpr int colour_of(std::uint8_t p) { return (p >> 1) & 1; }
constexpr int kind_of_pawn(std::uint8_t p) { return (p >> 2) & 3; }
constexpr bool passage_face(std::uint8_t p) { return p & 16; }

}  // namespace

Intercept::Intercept() {
  const Kind light[11] = {kPassage, kRest, kPassage, kRest, kPassage, kDouble, kRest, kPassage, kRest, kPassage, kRest};
  for (int i = 0; i < 11; ++i) {
    const Kind k = light[i];
    top_[1 + i] = pawn(0, k, k != kRest);               // b1 .. l1
    top_[12 * 13 + 11 - i] = pawn(1, k, k != kRest);    // l13 .. b13: the half-turn image
  }
  ball_ = 6 * 13 + 6;  // g7
  ball_alone_ = true;
}

Intercept Intercept::from_setup(std::string_view setup) {
  if (!setup.empty()) throw Error("intercept takes no setup, got '" + std::string(setup) + "'");
  return Intercept{};
}

bool Intercept::may_cover(int to, bool passage) const {
  // A slide may end on an opponent pawn (not the carrier, not already covering): a rest
  // face onto the opponent's goal; a passage face next to that goal when all its
  // neighbours hold opponent pawns.
  const std::uint8_t target = top_[to];
  if (!present(target) || colour_of(target) == mover_ || bottom_[to] || carrier(to)) return false;
  const int goal = mover_ == 0 ? kDarkGoal : kLightGoal;
  if (!passage) return to == goal;
  bool next_to_goal = false, all_enemy = true;
  for (int d = 0; d < 8; ++d) {
    const int s = step(goal, d);
    if (s < 0) continue;
    next_to_goal = next_to_goal || s == to;
    all_enemy = all_enemy && present(top_[s]) && colour_of(top_[s]) != mover_;
  }
  return next_to_goal && all_enemy;
}

template <class Emit>
bool Intercept::for_each_jump(int from, const Visited& visited, Emit&& emit) const {
  const bool is_double = kind_of_pawn(top_[from]) == kDouble;
  for (int d = 0; d < 8; ++d) {
    int over = step(from, d);
    if (is_double)  // the double approaches over empty squares
      while (over >= 0 && empty(over)) over = step(over, d);
    if (over < 0 || !present(top_[over]) || carrier(over)) continue;
    if (!is_double && kind_of_pawn(top_[over]) == kDouble) continue;
    const int to = step(over, d);
    if (to < 0 || !empty(to) || visited.test(to)) continue;
    if (emit(make_action(kJumpKind, from, to))) return true;
  }
  return false;
}

template <class Emit>
bool Intercept::for_each_move(Emit&& emit) const {
  for (int from = 0; from < kSquares; ++from) {
    const std::uint8_t p = top_[from];
    if (!present(p) || colour_of(p) != mover_ || carrier(from)) continue;
    const bool is_double = kind_of_pawn(p) == kDouble;
    for (int d = 0; d < 8; ++d) {
      int to = step(from, d);
      while (to >= 0 && empty(to)) {
        if (emit(make_action(kSlideKind, from, to))) return true;
        if (!is_double) break;
        to = step(to, d);
      }
      if (to >= 0 && !empty(to) && may_cover(to, passage_face(p)) &&
          (is_double || to == step(from, d)) && emit(make_action(kSlideKind, from, to)))
        return true;
    }
    Visited start;
    start.set(from);
    if (for_each_jump(from, start, emit)) return true;
    if (is_double && emit(make_action(kFlipInPlaceKind, from, from))) return true;
  }
  return false;
}

template <class Emit>
bool Intercept::for_each_ball_destination(Emit&& emit) const {
  // Depth-first over the paths themselves: the spec's squares must be distinct, which a
  // search over (square, moved-pawn-on-path) states alone would not enforce (it would let
  // the ball run out and back along the same line). Paths are short: a player has at most
  // 11 pawns, so the search stays small. Each destination is reported once.
  const int goal = mover_ == 0 ? kDarkGoal : kLightGoal;
  auto mine = [&](int sq, bool passage) {
    const std::uint8_t p = top_[sq];
    return present(p) && colour_of(p) == mover_ && passage_face(p) == passage;
  };
  auto goal_open = [&](int sq) { return sq == goal && (!present(top_[sq]) || colour_of(top_[sq]) == mover_); };
  std::array<bool, kSquares> emitted{};
  Visited on_path{};
  on_path.set(ball_);
  bool stop = false;
  // From rest square r (the ball's square at the start): hop over a passage pawn to a rest
  // pawn or the open goal; `first` allows the turn at P1.
  auto visit = [&](auto&& self, int r, bool used, bool first) -> void {
    for (int d1 = 0; d1 < 8 && !stop; ++d1) {
      const int p = step(r, d1);
      if (p < 0 || p == goal || on_path.test(p) || !mine(p, true)) continue;
      on_path.set(p);
      for (int d2 = first ? 0 : d1; d2 < (first ? 8 : d1 + 1) && !stop; ++d2) {
        const int r2 = step(p, d2);
        if (r2 < 0 || on_path.test(r2)) continue;
        const bool now_used = used || p == moved_ || r2 == moved_;
        if (goal_open(r2) || mine(r2, false)) {
          if (now_used && !emitted[r2]) {
            emitted[r2] = true;
            if (emit(make_action(kBallKind, 0, r2))) stop = true;
          }
          if (r2 == goal || stop) continue;  // the opponent's goal is only ever the last square
          on_path.set(r2);
          self(self, r2, now_used, false);
          on_path.w[r2 >> 6] &= ~(std::uint64_t{1} << (r2 & 63));
        }
      }
      on_path.w[p >> 6] &= ~(std::uint64_t{1} << (p & 63));
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
    case Phase::kMove: for_each_move(push); return;
    case Phase::kChain:
      out.push_back(make_action(kStopKind));
      for_each_jump(moved_, visited_, push);
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
  const std::uint8_t p = top_[from];
  top_[from] = bottom_[from];  // a cover leaving uncovers the pawn below
  bottom_[from] = 0;
  if (present(top_[to])) bottom_[to] = top_[to];
  top_[to] = p;
  moved_ = static_cast<std::int16_t>(to);
}

void Intercept::after_pawn_move() {
  if (kind_of_pawn(top_[moved_]) == kDouble) {
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
      if (phase_ == Phase::kMove) {
        visited_ = {};
        visited_.set(from);
      }
      move_pawn(from, to);
      visited_.set(to);
      if (for_each_jump(to, visited_, [](Action) { return true; })) {
        phase_ = Phase::kChain;
        return;
      }
      after_pawn_move();
      return;
    case kStopKind: after_pawn_move(); return;
    case kFlipInPlaceKind:
      top_[from] ^= 16;
      moved_ = static_cast<std::int16_t>(from);
      phase_ = Phase::kBall;
      if (!for_each_ball_destination([](Action) { return true; })) end_turn();
      return;
    case kFlipKind:
    case kKeepKind:
      if (kind_of(a) == kFlipKind) top_[moved_] ^= 16;
      phase_ = Phase::kBall;
      if (!for_each_ball_destination([](Action) { return true; })) end_turn();
      return;
    case kBallKind:
      ball_ = static_cast<std::int16_t>(to);
      ball_alone_ = !present(top_[to]);
      if (to == (mover_ == 0 ? kDarkGoal : kLightGoal)) {
        terminal_ = true;
        outcome_ = mover_ == 0 ? Outcome::kP0Win : Outcome::kP1Win;
        return;
      }
      end_turn();
      return;
    case kPassKind: end_turn(); return;
  }
}

}  // namespace azg
