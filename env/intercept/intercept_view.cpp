// Intercept as the web board draws it: each occupied square's top pawn (colour, kind,
// face) and the pawn it covers, the ball's square, the turn and the phase.
#include "env/intercept/intercept.hpp"

namespace azg {
namespace {

BoardView pawn_view(std::uint8_t b) {
  if (!(b & 1)) return {};
  const int kind = b >> 2 & 3;
  return BoardView::fields()
      .set("colour", b >> 1 & 1)
      .set("kind", kind == Intercept::kPassage ? "passage"
                   : kind == Intercept::kRest  ? "rest"
                                               : "double")
      .set("face", (b & 16) ? "passage" : "rest");
}

}  // namespace

BoardView board_view(const Intercept& s) {
  constexpr int n = Intercept::kSize;
  BoardView squares = BoardView::fields();
  for (int sq = 0; sq < n * n; ++sq) {
    if (!(s.top(sq) & 1)) continue;
    BoardView square = BoardView::fields().set("top", pawn_view(s.top(sq)));
    if (s.covered(sq) & 1) square.set("covered", pawn_view(s.covered(sq)));
    squares.set(Intercept::square_name(sq), std::move(square));
  }
  const char* phase = s.phase() == Intercept::Phase::kMove         ? "move"
                      : s.phase() == Intercept::Phase::kChain      ? "further jump"
                      : s.phase() == Intercept::Phase::kFlipChoice ? "flip or keep"
                                                                   : "ball";
  return BoardView::fields()
      .set("squares", std::move(squares))
      .set("ball", Intercept::square_name(s.ball()))
      .set("turn", s.turn())
      .set("phase", phase);
}

}  // namespace azg
