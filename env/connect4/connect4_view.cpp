// Connect Four as the web board draws it: the rows bottom first, each cell -1 (empty),
// 0 or 1, and the stones played.
#include "env/connect4/connect4.hpp"

namespace azg {

BoardView board_view(const Connect4& s) {
  BoardView rows = BoardView::list();
  for (int r = 0; r < Connect4::kRows; ++r) {
    BoardView row = BoardView::list();
    for (int c = 0; c < Connect4::kColumns; ++c) row.push(s.stone_at(c, r));
    rows.push(std::move(row));
  }
  return BoardView::fields().set("rows", std::move(rows)).set("stones", s.stones_played());
}

}  // namespace azg
