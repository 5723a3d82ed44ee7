// Intercept action strings and the text board.
//
#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"
#include "core/mix.hpp"
#include "env/intercept/directions.hpp"
#include "env/intercept/intercept.hpp"

namespace azg {
namespace {

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

}  // namespace

std::string Intercept::square_name(int sq) {
  return std::string(1, static_cast<char>('a' + sq % 13)) + std::to_string(sq / 13 + 1);
}

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
      throw Error("bad pawn list " + quote_input(std::string(pawns)));
    const int colour = item[colon + 1] == 'L' ? 0 : 1;
    const char k = item[colon + 2];
    const Kind kind = k == 'P' ? kPassage : k == 'R' ? kRest : kDouble;
    if (k != 'P' && k != 'R' && k != 'D' && k != 'd')
      throw Error("bad pawn kind in " + quote_input(std::string(item)));
    if (g.top(*sq)) throw Error("two pawns on one square in " + quote_input(std::string(pawns)));
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
