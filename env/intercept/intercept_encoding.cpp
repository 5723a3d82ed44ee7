// Intercept's NN encoding, policy indices, the symmetries and hashing.
//
// Planes (13x13, from the view of the player to act): 0..3 own passage, rest, double
// (passage face), double (rest face); 4..7 the same for the opponent; 8 own covered pawns,
// 9 opponent covered pawns; 10 the ball; 11 own goal; 12 opponent goal; 13..16 phase
// (move, further jump, flip or keep, ball); 17 the pawn moved this turn; 18 turns / 300;
// 19 ones; 20 the lone ball (not yet carried); 21, 22 where the player to act / the
// opponent could take the ball along their pawns now, whichever pawn moves (encoding 2:
// ball paths zigzag over the whole board, beyond a small net's receptive field).
// Policy: moves and jumps as square x direction x distance | flip in place | stop | flip
// | keep | ball destination square | pass.

#include <algorithm>
#include <cstdlib>

#include "core/mix.hpp"
#include "env/intercept/directions.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {

using intercept::kDf;
using intercept::kDr;

void Intercept::encode(std::span<float> out) const {
  std::fill(out.begin(), out.begin() + kPlanes.size(), 0.0f);
  const int me = mover_;
  auto at = [&](int plane, int sq) -> float& { return out[plane * kSquares + sq]; };
  for (int sq = 0; sq < kSquares; ++sq) {
    if (const std::uint8_t p = top(sq)) {
      const int kind = (p >> 2) & 3;
      const int k = kind == 2 ? ((p & 16) ? 2 : 3) : kind;
      at((((p >> 1) & 1) == me ? 0 : 4) + k, sq) = 1;
    }
    if (const std::uint8_t b = covered(sq)) at(((b >> 1) & 1) == me ? 8 : 9, sq) = 1;
    at(13 + static_cast<int>(phase_), sq) = 1;
    at(18, sq) = static_cast<float>(turn_) / kTurnCap;
    at(19, sq) = 1;
  }
  at(10, ball_) = 1;
  if (ball_alone_) at(20, ball_) = 1;
  at(11, me == 0 ? 6 : 12 * 13 + 6) = 1;
  at(12, me == 0 ? 12 * 13 + 6 : 6) = 1;
  if (moved_ >= 0) at(17, moved_) = 1;
  for (int p = 0; p < 2; ++p)
    for (Board b = ball_reach(p == 0 ? me : me ^ 1); b.any();) at(21 + p, b.pop()) = 1;
}

int Intercept::policy_index(Action a) const {
  switch (kind_of(a)) {
    case kSlideKind:
    case kJumpKind: {
      const int df = to_of(a) % 13 - from_of(a) % 13, dr = to_of(a) / 13 - from_of(a) / 13;
      const int dist = std::max(std::abs(df), std::abs(dr));
      const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
      int d = 0;
      while (kDf[d] != sf || kDr[d] != sr) ++d;
      return kMoveIndexBase + (from_of(a) * 8 + d) * 12 + dist - 1;
    }
    case kFlipInPlaceKind:
      return kFlipInPlaceIndex;
    case kStopKind:
      return kStopIndex;
    case kFlipKind:
      return kFlipIndex;
    case kKeepKind:
      return kKeepIndex;
    case kBallKind:
      return kBallIndexBase + to_of(a);
    default:
      return kPassIndex;
  }
}

static Intercept::Board image(int s, const Intercept::Board& b) {
  Intercept::Board m;
  for (Intercept::Board left = b; left.any();) m.set(intercept::image(s, left.pop()));
  return m;
}

Intercept::Layer Intercept::Layer::image(int s) const {
  Layer m;
  const int swap = symmetry_swaps_players(s) ? 1 : 0;
  for (int c = 0; c < 2; ++c) m.side[c ^ swap] = azg::image(s, side[c]);
  m.doubles = azg::image(s, doubles);
  m.rest_kind = azg::image(s, rest_kind);
  m.passage_face = azg::image(s, passage_face);
  return m;
}

Intercept Intercept::symmetric(int s) const {
  if (s == 0) return *this;
  Intercept t = *this;
  t.top_ = top_.image(s);
  t.under_ = under_.image(s);
  t.visited_ = azg::image(s, visited_);
  t.ball_ = static_cast<std::int16_t>(intercept::image(s, ball_));
  if (moved_ >= 0) t.moved_ = static_cast<std::int16_t>(intercept::image(s, moved_));
  if (symmetry_swaps_players(s)) {
    t.mover_ = static_cast<std::uint8_t>(mover_ ^ 1);
    if (terminal_) t.outcome_ = swapped(outcome_);
  }
  return t;
}

Action Intercept::symmetric_action(int s, Action a) const {
  if (s == 0) return a;
  switch (kind_of(a)) {
    case kSlideKind:
    case kJumpKind:
    case kFlipInPlaceKind:
      return make_action(kind_of(a), intercept::image(s, from_of(a)),
                         intercept::image(s, to_of(a)));
    case kBallKind:
      return make_action(kBallKind, 0, intercept::image(s, to_of(a)));
    default:
      return a;
  }
}

std::uint64_t Intercept::hash() const {
  std::uint64_t h = 1469598103934665603ull;
  for (const Layer* layer : {&top_, &under_})
    for (const Board* b : {&layer->side[0], &layer->side[1], &layer->doubles, &layer->rest_kind,
                           &layer->passage_face})
      for (const auto w : b->w) h = mix64(h ^ w);
  for (const auto w : visited_.w) h = mix64(h ^ w);
  const std::uint64_t fields =
      static_cast<std::uint64_t>(ball_) | static_cast<std::uint64_t>(ball_alone_) << 8 |
      static_cast<std::uint64_t>(moved_ + 1) << 9 | static_cast<std::uint64_t>(turn_) << 17 |
      static_cast<std::uint64_t>(mover_) << 27 | static_cast<std::uint64_t>(phase_) << 28 |
      static_cast<std::uint64_t>(terminal_) << 31;
  return h ^ ((fields + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull);
}

}  // namespace azg
