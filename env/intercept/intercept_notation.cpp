// Intercept action strings, the text board, the NN encoding, the mirror symmetry, hashing.
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

#include "env/common/error.hpp"
#include "env/common/mix.hpp"
#include "env/intercept/directions.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {
namespace {

using intercept::kDf;
using intercept::kDr;

std::string square_name(int sq) {
  return std::string(1, static_cast<char>('a' + sq % 13)) + std::to_string(sq / 13 + 1);
}

std::optional<int> parse_square(std::string_view t) {
  if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] > 'm' || t[1] < '1' || t[1] > '9')
    return std::nullopt;
  int rank = t[1] - '0';
  if (t.size() == 3) {
    if (t[2] < '0' || t[2] > '9') return std::nullopt;
    rank = rank * 10 + (t[2] - '0');
  }
  if (rank < 1 || rank > 13) return std::nullopt;
  return (rank - 1) * 13 + (t[0] - 'a');
}

int mirror(int sq) {
  return (sq / 13) * 13 + 12 - sq % 13;
}

}  // namespace

std::string Intercept::action_to_string(Action a) const {
  switch (kind_of(a)) {
    case kSlideKind:
      return square_name(from_of(a)) + "-" + square_name(to_of(a));
    case kJumpKind:
      return square_name(from_of(a)) + "x" + square_name(to_of(a));
    case kFlipInPlaceKind:
      return "F" + square_name(from_of(a));
    case kStopKind:
      return "stop";
    case kFlipKind:
      return "flip";
    case kKeepKind:
      return "keep";
    case kBallKind:
      return "B" + square_name(to_of(a));
    default:
      return "pass";
  }
}

std::optional<Action> Intercept::parse_action(std::string_view text) const {
  if (text == "stop") return make_action(kStopKind);
  if (text == "flip") return make_action(kFlipKind);
  if (text == "keep") return make_action(kKeepKind);
  if (text == "pass") return make_action(kPassKind);
  if (text.size() >= 3 && (text[0] == 'F' || text[0] == 'B')) {
    const auto sq = parse_square(text.substr(1));
    if (!sq) return std::nullopt;
    return text[0] == 'F' ? make_action(kFlipInPlaceKind, *sq, *sq)
                          : make_action(kBallKind, 0, *sq);
  }
  const auto sep = text.find_first_of("-x");
  if (sep == std::string_view::npos) return std::nullopt;
  const auto from = parse_square(text.substr(0, sep)), to = parse_square(text.substr(sep + 1));
  if (!from || !to) return std::nullopt;
  return make_action(text[sep] == '-' ? kSlideKind : kJumpKind, *from, *to);
}

std::string Intercept::render() const {
  // Each square: colour (L/D) + kind (P passage, R rest, D/d double passage/rest face),
  // '*' after the carrier, '+' when a pawn is covered below; '()' marks the goals, 'o' the
  // lone ball.
  std::string s;
  auto code = [](std::uint8_t p) {
    const int kind = (p >> 2) & 3;
    const char k = kind == 0 ? 'P' : kind == 1 ? 'R' : ((p & 16) ? 'D' : 'd');
    return std::string{((p >> 1) & 1) ? 'D' : 'L', k};
  };
  for (int r = 12; r >= 0; --r) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%2d ", r + 1);
    s += buf;
    for (int f = 0; f < 13; ++f) {
      const int sq = r * 13 + f;
      const bool goal = sq == 6 || sq == 12 * 13 + 6;
      const std::uint8_t p = top(sq);
      std::string cell = p ? code(p) : (ball_alone_ && sq == ball_) ? " o" : " .";
      cell += (!ball_alone_ && sq == ball_) ? '*' : covered(sq) ? '+' : ' ';
      s += goal ? "(" + cell + ")" : " " + cell + " ";
    }
    s += '\n';
  }
  s += "    ";
  for (int f = 0; f < 13; ++f) s += std::string("  ") + static_cast<char>('a' + f) + "  ";
  s += "\nLight: rank 1, goal g1 (scores on g13); Dark: rank 13, goal g13 (scores on g1); * "
       "carries the ball\n";
  s += "turn " + std::to_string(turn_ + 1) + " (" + std::to_string(turn_) + " completed, cap " +
       std::to_string(kTurnCap) + "), ball on " + square_name(ball_) + "\n";
  if (terminal_) return s + "result: " + std::string(outcome_string(outcome_)) + "\n";
  s += std::string("to act: ") + (mover_ == 0 ? "Light (player 0)" : "Dark (player 1)") + "\n";
  switch (phase_) {
    case Phase::kMove:
      s += "phase: move a pawn\n";
      break;
    case Phase::kChain:
      s += "phase: further jump from " + square_name(moved_) + " or stop\n";
      break;
    case Phase::kFlipChoice:
      s += "phase: flip or keep the double\n";
      break;
    case Phase::kBall:
      s += "phase: move the ball (B<square>) or pass\n";
      break;
  }
  return s;
}

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

static Intercept::Board mirror(const Intercept::Board& b) {
  Intercept::Board m;
  for (Intercept::Board left = b; left.any();) m.set(mirror(left.pop()));
  return m;
}

Intercept::Layer Intercept::Layer::mirrored() const {
  Layer m;
  for (int c = 0; c < 2; ++c) m.side[c] = mirror(side[c]);
  m.doubles = mirror(doubles);
  m.rest_kind = mirror(rest_kind);
  m.passage_face = mirror(passage_face);
  return m;
}

Intercept Intercept::symmetric(int s) const {
  if (s == 0) return *this;
  Intercept t = *this;
  t.top_ = top_.mirrored();
  t.under_ = under_.mirrored();
  t.visited_ = mirror(visited_);
  t.ball_ = static_cast<std::int16_t>(mirror(ball_));
  if (moved_ >= 0) t.moved_ = static_cast<std::int16_t>(mirror(moved_));
  return t;
}

Action Intercept::symmetric_action(int s, Action a) const {
  if (s == 0) return a;
  switch (kind_of(a)) {
    case kSlideKind:
    case kJumpKind:
    case kFlipInPlaceKind:
      return make_action(kind_of(a), mirror(from_of(a)), mirror(to_of(a)));
    case kBallKind:
      return make_action(kBallKind, 0, mirror(to_of(a)));
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

Intercept Intercept::from_pawns(std::string_view pawns, std::string_view ball, int mover,
                                int turn) {
  Intercept g;
  g.top_ = {};
  std::size_t i = 0;
  while (i < pawns.size()) {
    if (pawns[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t j = pawns.find(' ', i);
    if (j == std::string_view::npos) j = pawns.size();
    const std::string_view item = pawns.substr(i, j - i);
    const auto colon = item.find(':');
    const auto sq =
        colon == std::string_view::npos ? std::nullopt : parse_square(item.substr(0, colon));
    if (!sq || item.size() != colon + 3 || (item[colon + 1] != 'L' && item[colon + 1] != 'D'))
      throw Error("bad pawn list '" + std::string(pawns) + "'");
    const int colour = item[colon + 1] == 'L' ? 0 : 1;
    const char k = item[colon + 2];
    const Kind kind = k == 'P' ? kPassage : k == 'R' ? kRest : kDouble;
    if (k != 'P' && k != 'R' && k != 'D' && k != 'd')
      throw Error("bad pawn kind in '" + std::string(item) + "'");
    if (g.top(*sq)) throw Error("two pawns on one square in '" + std::string(pawns) + "'");
    g.top_.put(*sq, pawn(colour, kind, k == 'P' || k == 'D'));
    i = j;
  }
  const auto b = parse_square(ball);
  if (!b) throw Error("bad ball square");
  g.ball_ = static_cast<std::int16_t>(*b);
  g.ball_alone_ = g.top(*b) == 0;
  g.mover_ = static_cast<std::uint8_t>(mover);
  g.turn_ = static_cast<std::uint16_t>(turn);
  return g;
}

}  // namespace azg
