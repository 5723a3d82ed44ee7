// Imperator as the web board draws it: the board's geometry (rows, cells with their names,
// numbers, orientation and the rim's protection) with each cell's piece, the phase and the
// counters.
#include "env/imperator/geometry.hpp"
#include "env/imperator/imperator.hpp"

namespace azg {

template <int Side>
BoardView board_view(const BasicImperator<Side>& s) {
  const auto& g = imperator::geometry(Side);
  BoardView cells = BoardView::list();
  for (int c = 0; c < static_cast<int>(g.cells.size()); ++c) {
    const auto& cell = g.cells[c];
    cells.push(BoardView::fields()
                   .set("name", cell.name)
                   .set("row", cell.row)
                   .set("number", cell.number)
                   .set("up", cell.up)
                   .set("rim", cell.rim ? BoardView(cell.protects) : BoardView())
                   .set("piece", s.colour_at(c) >= 0 ? BoardView(s.colour_at(c)) : BoardView()));
  }
  BoardView rows = BoardView::list();
  for (const int n : g.row_sizes) rows.push(n);
  return BoardView::fields()
      .set("side", Side)
      .set("rows", std::move(rows))
      .set("cells", std::move(cells))
      .set("phase", s.phase() == BasicImperator<Side>::Phase::kPlacement ? "placement" : "movement")
      .set("moves", s.moves())
      .set("pieces", BoardView::list().push(s.pieces(0)).push(s.pieces(1)));
}

template BoardView board_view(const BasicImperator<3>&);
template BoardView board_view(const BasicImperator<4>&);
template BoardView board_view(const BasicImperator<5>&);

}  // namespace azg
