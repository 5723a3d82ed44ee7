// Imbriqua as the web board draws it: pawns by square, the 44 turns' cards (null while
// hidden), the card in play, the phase and the scores.
#include "env/common/board64.hpp"
#include "env/imbriqua/imbriqua.hpp"

namespace azg {
namespace {

const char* phase_name(Imbriqua::Phase p) {
  switch (p) {
    case Imbriqua::Phase::kOpening:
      return "opening";
    case Imbriqua::Phase::kPlace:
      return "place";
    case Imbriqua::Phase::kReveal:
      return "reveal";
    case Imbriqua::Phase::kCard:
      return "card";
    case Imbriqua::Phase::kChain:
      return "chain";
    case Imbriqua::Phase::kSecondPawn:
      return "second pawn";
    case Imbriqua::Phase::kPenalty:
      return "penalty";
  }
  return "";
}

BoardView card_view(Imbriqua::Card c) {
  return c == Imbriqua::kNoCard ? BoardView() : BoardView(std::string(Imbriqua::card_code(c)));
}

}  // namespace

BoardView board_view(const Imbriqua& s) {
  BoardView pawns = BoardView::fields();
  for (int sq = 0; sq < 64; ++sq)
    for (int p = 0; p < 2; ++p)
      if (s.pawns(p) >> sq & 1) pawns.set(board64::square_name(sq), p);
  BoardView cards = BoardView::list();
  for (int t = 1; t <= Imbriqua::kTurns; ++t) cards.push(card_view(s.card_of_turn(t)));
  return BoardView::fields()
      .set("pawns", std::move(pawns))
      .set("turn", s.turn())
      .set("phase", phase_name(s.phase()))
      .set("card", card_view(s.current_card()))
      .set("cards", std::move(cards))
      .set("score", BoardView::list().push(s.score(0)).push(s.score(1)));
}

}  // namespace azg
