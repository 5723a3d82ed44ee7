#pragma once
// An exact Connect Four solver: negamax with alpha-beta over the column-major bitboard,
// a transposition table of bounds, moves that lose at once never searched, and moves
// ordered by the threats they make. The exact score comes from a bisection of null-window
// searches, each narrowing the interval the score lies in.
//
// Scores are the usual ones (they are also the published test sets'): from the side to
// move, 0 for a draw, and for a win 22 minus the stones the winner has on the board when
// it makes four (the sooner, the larger: 18 for a win with the fourth stone, 1 with the
// last); a loss is the opponent's win negated.
#include <cstdint>
#include <vector>

#include "env/connect4/connect4.hpp"

namespace azg::solver {

class Connect4Solver {
 public:
  // A table of 2^table_bits entries of 8 bytes (23: 64 MiB).
  explicit Connect4Solver(int table_bits = 23);

  // The exact score of a position that is not over; throws azg::Error if it is.
  int solve(const Connect4& position);
  // Only its sign (-1 loss, 0 draw, 1 win): two null-window searches at most, cheaper.
  int solve_weak(const Connect4& position);
  // Whether the exact score is at least `score`: one null-window search.
  bool at_least(const Connect4& position, int score);

  // Nodes searched since construction or the last clear().
  std::uint64_t nodes() const { return nodes_; }
  void clear();

 private:
  struct Board {
    std::uint64_t mine;  // the stones of the side to move
    std::uint64_t all;   // every stone
    int stones;
  };
  static Board board_of(const Connect4& position);
  // The score of `b` clamped into [alpha, beta] with the usual fail-hard meaning; the
  // side to move has no winning move.
  int negamax(const Board& b, int alpha, int beta);
  // The moves of `b` after which the opponent cannot win at once (0: every move loses).
  static std::uint64_t safe_moves(const Board& b);

  void store(std::uint64_t key, int score, bool lower);
  std::vector<std::uint64_t> table_;
  std::uint64_t nodes_ = 0;
};

// The score as words: "win in 13 plies", "draw", "loss in 8 plies" (plies from the
// position, both players' moves counted, to the stone that makes four).
std::string describe_score(int score, int stones);
// The plies from a position with `stones` on the board to the end, for a score != 0.
int plies_to_end(int score, int stones);

}  // namespace azg::solver
