// Intercept's static evaluation (docs/heuristics.md). Everything is from Light's side
// (player 0, attacking g13); Dark's terms are the half-turn images, so the value of a
// position and of its colour-swapped image are opposite.
#include <algorithm>
#include <cmath>

#include "env/intercept/intercept.hpp"

namespace azg {

namespace {

// How far towards its target `colour` could carry the ball to any square of `reach`:
// 0 on its own back row, 1 on the opponent's; -1 when `reach` is empty.
double best_advance(const Intercept::Board& reach, int colour) {
  double best = -1;
  Intercept::Board left = reach;
  while (left.any()) {
    const int rank = left.pop() / Intercept::kSize;
    best = std::max(best, (colour == 0 ? rank : Intercept::kSize - 1 - rank) / 12.0);
  }
  return best;
}

// The mean rank of `colour`'s top pawns towards the opponent, 0 (own back row) to 1.
double pawn_advance(const Intercept::Board& pawns, int colour) {
  Intercept::Board left = pawns;
  int n = 0, sum = 0;
  while (left.any()) {
    const int rank = left.pop() / Intercept::kSize;
    sum += colour == 0 ? rank : Intercept::kSize - 1 - rank;
    ++n;
  }
  return n ? sum / (12.0 * n) : 0.0;
}

// How close `pawns` come to square `target`: 1 when one stands next to it, falling by a
// twelfth a square (Chebyshev distance), 0 when there is none.
double closeness(const Intercept::Board& pawns, int target) {
  Intercept::Board left = pawns;
  int best = 13;
  while (left.any()) {
    const int sq = left.pop();
    const int d = std::max(std::abs(sq / 13 - target / 13), std::abs(sq % 13 - target % 13));
    best = std::min(best, d);
  }
  return best >= 13 ? 0.0 : (13 - std::max(best, 1)) / 12.0;
}

}  // namespace

double Intercept::evaluate() const {
  const int me = mover_, other = mover_ ^ 1;
  const int sign = me == 0 ? 1 : -1;  // from the mover's side to Light's
  const Board reach_me = ball_reach(me), reach_other = ball_reach(other);
  // The mover who can put the ball on the opponent's goal (paths along its pawns as they
  // stand; the pawn it must move may break one) is nearly won.
  if (reach_me.test(target_goal(me))) return sign * 0.9;
  const int rank = ball_ / kSize;
  // The ball counts for the side that carries it, more the further it has come towards
  // the opponent's goal; lying alone, it counts a little for the side it is nearer.
  const double advance[2] = {rank / 12.0, (kSize - 1 - rank) / 12.0};
  double ball = 0.2 * (advance[0] - advance[1]);
  if (!ball_alone_) {
    const int c = top_.side[0].test(ball_) ? 0 : 1;
    ball = (c == 0 ? 1.0 : -1.0) * (0.3 + 0.9 * advance[c]);
  }
  // Where each side could take the ball now, as an advance in [0, 1] from its own side;
  // a side that cannot reach it gets the ball's standing.
  const double stand_me = advance[me];
  const double take_me = std::max(stand_me, best_advance(reach_me, me));
  const double take_other = std::max(1.0 - stand_me, best_advance(reach_other, other));
  const double threat = reach_other.test(target_goal(other)) ? 1.0 : 0.0;
  const double pawns = pawn_advance(top_.side[0], 0) - pawn_advance(top_.side[1], 1);
  // Taking the ball needs a passage face next to it and a rest face next to that: how
  // close each side's nearest ones stand to the ball.
  double near[2];
  for (int c = 0; c < 2; ++c)
    near[c] = closeness(top_.side[c] & top_.passage_face, ball_) + closeness(top_.side[c] & ~top_.passage_face, ball_);
  const double x = ball + sign * (0.9 * take_me - 0.6 * take_other - 0.8 * threat) + 0.8 * pawns +
                   0.5 * (near[0] - near[1]);
  return std::tanh(x);
}

}  // namespace azg
