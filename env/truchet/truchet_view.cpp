// Truchet as the web board draws it: the 49 tiles a1..g7 as bits, the stacks by junction
// square (colour and height), the turn, the phase and the repetition count.
#include "env/common/board64.hpp"
#include "env/truchet/truchet.hpp"

namespace azg {

BoardView board_view(const Truchet& s) {
  std::string tiles;
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 7; ++x) tiles += s.tile(x, y) ? '1' : '0';
  BoardView stacks = BoardView::fields();
  for (int sq = 0; sq < 64; ++sq)
    if (s.colour_at(sq) >= 0)
      stacks.set(board64::square_name(sq),
                 BoardView::fields().set("colour", s.colour_at(sq)).set("height", s.height_at(sq)));
  const char* phase = s.phase() == Truchet::Phase::kStart       ? "start"
                      : s.phase() == Truchet::Phase::kAfterFlip ? "after flip"
                                                                : "after river move";
  return BoardView::fields()
      .set("tiles", tiles)
      .set("stacks", std::move(stacks))
      .set("turn", s.turn())
      .set("phase", phase)
      .set("repetitions", s.repetitions());
}

}  // namespace azg
