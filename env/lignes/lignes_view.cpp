// Lignes as the web board draws it: every pawn as [x, y, player] on the unbounded grid,
// the pawns placed, the phase and the captures.
#include "env/lignes/lignes.hpp"

namespace azg {

BoardView board_view(const Lignes& s) {
  // Pawns stay within ~110 cells of the origin (lignes.hpp); the scan covers that.
  BoardView pawns = BoardView::list();
  for (int y = -120; y <= 120; ++y)
    for (int x = -120; x <= 120; ++x)
      if (const int p = s.pawn_at(x, y); p >= 0)
        pawns.push(BoardView::list().push(x).push(y).push(p));
  const char* phase = s.phase() == Lignes::Phase::kPlace     ? "place"
                      : s.phase() == Lignes::Phase::kMove    ? "move"
                      : s.phase() == Lignes::Phase::kCapture ? "capture"
                                                             : "fill";
  return BoardView::fields()
      .set("pawns", std::move(pawns))
      .set("placed", s.placed())
      .set("phase", phase)
      .set("captures", BoardView::list().push(s.captures(0)).push(s.captures(1)));
}

}  // namespace azg
