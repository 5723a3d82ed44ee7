#pragma once
// Connect Four, 7 columns by 6 rows: a reference game, not a seed game. It is solved, so
// strength can be read as agreement with perfect play (solver/), and it is OpenSpiel's
// standard AlphaZero game, so azg's learning can be measured beside another system's.
// Rules: players drop stones in turn into a column that is not full; the stone falls to
// the lowest empty cell; four in a row of one colour (across, up or diagonal) wins; a
// full board without one is a draw. X (player 0) moves first.
//
// Notation: an action is its column's digit, "1" (left) to "7" (right), as in the usual
// move-sequence notation ("4453": four stones, first in column 4). docs/connect4.md.
//
// Representation (the classic column-major bitboard): cell (column c, row r), row 0 at
// the bottom, is bit 7c + r; bit 7c + 6 stays empty above each column, so shifting a
// line of stones never wraps from one column into the next.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"

namespace azg {

class Connect4 {
 public:
  static constexpr std::string_view kName = "connect4";
  // A reference game: `azg games` lists it apart from the seed games (game_traits.hpp).
  static constexpr bool kReferenceGame = true;
  static constexpr int kColumns = 7;
  static constexpr int kRows = 6;
  static constexpr int kCells = kColumns * kRows;
  static constexpr std::size_t kMaxActions = kColumns;

  // NN encoding, from the mover's side: its stones, the opponent's, the empty cells
  // (OpenSpiel's connect_four observation has the same three planes), row 0 of the planes
  // being the top row.
  static constexpr PlaneShape kPlanes{3, kRows, kColumns};
  static constexpr int kPolicySize = kColumns;
  static constexpr std::string_view kPolicyLayout =
      "index c (0..6): a stone in column c + 1, action string \"c+1\"";
  // The identity and the mirror image (column c <-> 8 - c).
  static constexpr int kNumSymmetries = 2;

  static Connect4 from_setup(std::string_view setup);
  static Connect4 random_setup(Rng&) { return Connect4{}; }
  std::string setup_string() const { return ""; }
  // The position after a move sequence in the compact notation ("4453", also with spaces
  // between moves); throws azg::Error naming the first bad move.
  static Connect4 from_moves(std::string_view moves);

  Player to_act() const { return static_cast<Player>(moves_ & 1); }
  void legal_actions(FixedList<Action, kMaxActions>& out) const;
  void chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const { out.clear(); }
  void apply(Action a);
  bool is_terminal() const { return winner_ >= 0 || moves_ == kCells; }
  Outcome outcome() const {
    return winner_ == 0 ? Outcome::kP0Win : winner_ == 1 ? Outcome::kP1Win : Outcome::kDraw;
  }

  std::string action_to_string(Action a) const;
  std::optional<Action> parse_action(std::string_view text) const;
  std::string render() const;

  void encode(std::span<float> out) const;
  int policy_index(Action a) const { return static_cast<int>(a); }
  Connect4 symmetric(int s) const;
  Action symmetric_action(int s, Action a) const {
    return s == 0 ? a : static_cast<Action>(kColumns - 1 - static_cast<int>(a));
  }
  std::uint64_t hash() const;

  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; docs/heuristics.md):
  // open lines of four, weighted by the stones in them, and immediate wins.
  double evaluate() const;

  // Queries for the solver, the board view and tests.
  int stones_played() const { return moves_; }
  std::uint64_t stones(int player) const { return stones_[player]; }
  std::uint64_t occupied() const { return stones_[0] | stones_[1]; }
  // 0 or 1 for a stone of that player at (column, row), -1 when empty.
  int stone_at(int column, int row) const;
  // Whether the stones of `bits` hold four in a row.
  static bool has_four(std::uint64_t bits);
  // The empty cells (on the board, playable or not) where one more stone of `stones`
  // would make four in a row, `occupied` being every stone on the board.
  static std::uint64_t winning_cells(std::uint64_t stones, std::uint64_t occupied);
  // The cells where the next stone of each column lands.
  std::uint64_t playable_cells() const { return (occupied() + bottom_row()) & board_mask(); }

  static constexpr std::uint64_t cell_bit(int column, int row) {
    return std::uint64_t{1} << (column * (kRows + 1) + row);
  }
  static constexpr std::uint64_t column_mask(int column) {
    return ((std::uint64_t{1} << kRows) - 1) << (column * (kRows + 1));
  }
  static constexpr std::uint64_t bottom_row() {
    std::uint64_t b = 0;
    for (int c = 0; c < kColumns; ++c) b |= cell_bit(c, 0);
    return b;
  }
  static constexpr std::uint64_t board_mask() { return bottom_row() * ((1u << kRows) - 1); }

 private:
  std::uint64_t stones_[2] = {0, 0};
  std::uint8_t moves_ = 0;
  std::int8_t winner_ = -1;
};

static_assert(Game<Connect4>);

// The position as plain data for clients that draw it (connect4_view.cpp).
BoardView board_view(const Connect4& s);

}  // namespace azg
