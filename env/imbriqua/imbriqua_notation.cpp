// Imbriqua action strings and the text board.
#include <bit>

#include "env/common/board64.hpp"
#include "env/imbriqua/imbriqua.hpp"

namespace azg {

using namespace board64;

std::string_view Imbriqua::card_code(Card c) {
  static constexpr std::string_view kCodes[] = {"O1", "D1", "ON", "DN", "OJ", "DJ",
                                                "OL", "DL", "O2", "D2", "P2", "??"};
  return kCodes[c];
}

std::string Imbriqua::action_to_string(Action a) const {
  switch (kind_of(a)) {
    case kPlaceKind:
      return square_name(to_of(a));
    case kMoveKind:
      return square_name(from_of(a)) + "-" + square_name(to_of(a));
    case kJumpKind:
      return square_name(from_of(a)) + "x" + square_name(to_of(a));
    case kStopKind:
      return "stop";
    case kRemoveKind:
      return "-" + square_name(to_of(a));
    default:
      return std::string(card_code(static_cast<Card>(to_of(a))));
  }
}

std::optional<Action> Imbriqua::parse_action(std::string_view text) const {
  if (text == "stop") return make_action(kStopKind, 0, 0);
  for (int c = 0; c < kShuffled; ++c)
    if (text == card_code(static_cast<Card>(c))) return make_action(kRevealKind, 0, c);
  if (text.size() == 2) {
    if (const auto sq = parse_square(text)) return make_action(kPlaceKind, 0, *sq);
    return std::nullopt;
  }
  if (text.size() == 3 && text[0] == '-') {
    if (const auto sq = parse_square(text.substr(1))) return make_action(kRemoveKind, 0, *sq);
    return std::nullopt;
  }
  if (text.size() == 5 && (text[2] == '-' || text[2] == 'x')) {
    const auto from = parse_square(text.substr(0, 2)), to = parse_square(text.substr(3));
    if (!from || !to) return std::nullopt;
    return make_action(text[2] == '-' ? kMoveKind : kJumpKind, *from, *to);
  }
  return std::nullopt;
}

std::string Imbriqua::render() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    s += static_cast<char>('1' + r);
    s += ' ';
    for (int f = 0; f < 8; ++f) {
      const int sq = square(f, r);
      s += ' ';
      s += (pawns_[0] >> sq & 1) ? 'L' : (pawns_[1] >> sq & 1) ? 'D' : '.';
    }
    s += '\n';
  }
  s += "   a b c d e f g h\n";
  s += "pawns: Light " + std::to_string(std::popcount(pawns_[0])) + ", Dark " +
       std::to_string(std::popcount(pawns_[1])) + "; score so far: Light " +
       std::to_string(score(0)) + ", Dark " + std::to_string(score(1)) + "\n";
  // The card sequence as far as it is known; hidden cards show as ??.
  s += "cards:";
  for (int t = 1; t <= kTurns; ++t) {
    if (t > 1 && (t - 1) % 11 == 0) s += " |";
    s += ' ';
    s += card_code(card_of_turn(t) == kNoCard ? kNoCard : card_of_turn(t));
  }
  s += "\n";
  if (terminal_) return s + "result: " + std::string(outcome_string(outcome_)) + "\n";
  const std::string mover_name = mover_ == 0 ? "Light (player 0)" : "Dark (player 1)";
  const std::string actor_name = actor() == 0 ? "Light (player 0)" : "Dark (player 1)";
  if (phase_ == Phase::kOpening) {
    return s + "to act: " + mover_name + "\nphase: opening placement " +
           std::to_string(opening_placed_ + 1) + " of 8\n";
  }
  s += "turn " + std::to_string(turn_) + " of 44, pile " + std::to_string((turn_ - 1) / 11 + 1) +
       ", card " +
       std::string(phase_ == Phase::kPlace || phase_ == Phase::kReveal
                       ? (card_of_turn(turn_) == kNoCard ? "not yet revealed"
                                                         : card_code(card_of_turn(turn_)))
                       : card_code(card_)) +
       (last_placed_ >= 0 && phase_ != Phase::kPlace ? ", placed " + square_name(last_placed_)
                                                     : "") +
       "\n";
  s += "to act: " + (phase_ == Phase::kReveal ? std::string("chance") : actor_name) + "\n";
  switch (phase_) {
    case Phase::kPlace:
      s += "phase: placement\n";
      break;
    case Phase::kReveal:
      s += "phase: card reveal\n";
      break;
    case Phase::kCard:
      s += card_ == kP2 ? "phase: P2, first pawn\n" : "phase: card action\n";
      break;
    case Phase::kChain:
      s += "phase: further jump from " + square_name(chain_square_) + " or stop\n";
      break;
    case Phase::kSecondPawn:
      s += "phase: P2, second pawn\n";
      break;
    case Phase::kPenalty:
      s += "phase: penalty: remove one of " + mover_name + "'s pawns\n";
      break;
    default:
      break;
  }
  return s;
}

}  // namespace azg
