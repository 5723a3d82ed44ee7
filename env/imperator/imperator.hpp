#pragma once
// Imperator (../shared/rules/imperator.md): triangular pieces on a hexagon of 6n^2
// triangles (96 for the default side n = 4) with protecting rim sides; placements, then
// pivot moves (and free moves at 6 pieces or fewer); enclosed groups are turned over; no
// suicide; pinned pieces stay. Red is player 0 and moves first. The board is data
// (geometry.hpp); pieces are bitboards, one per colour (one, two or three words for
// sides 3, 4, 5).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"
#include "env/common/wide_bits.hpp"
#include "env/imperator/geometry.hpp"

namespace azg {

namespace imperator {
constexpr int cells_for_side(int side) {
  return 6 * side * side;
}
constexpr int words_for_side(int side) {
  return (cells_for_side(side) + 63) / 64;
}
}  // namespace imperator

// The board's side is a compile-time parameter (3, 4 or 5; 4 is the spec's default
// board): each side is its own Game type with its own tables, bitboard width, planes
// and policy size. Registered as imperator (side 4), imperator3 and imperator5.
template <int Side>
class BasicImperator {
 public:
  using Bits = WideBits<imperator::words_for_side(Side)>;
  static constexpr int kSide = Side;
  static constexpr std::string_view kName = Side == 4   ? "imperator"
                                            : Side == 3 ? "imperator3"
                                                        : "imperator5";
  static constexpr int kCells = imperator::cells_for_side(Side);
  static constexpr int kPlacements = 20;
  static constexpr int kMoveCap = 200;
  static constexpr int kFreeMoveLimit = 6;
  static constexpr std::size_t kMaxActions = 2048;
  static constexpr int kGridWidth = 4 * Side - 1;  // the longest rows
  static constexpr PlaneShape kPlanes{17, 2 * Side, kGridWidth};
  static constexpr int kEncodingVersion = 2;  // 2: planes 13..16 (pinning, one-liberty groups)
  static constexpr int kPolicySize = kCells + kCells * kCells;  // placements | from x to
  static constexpr std::string_view kPolicyLayout =
      "cells c in the order of the action strings' cells (azg legal); c: place on c; "
      "cells + cells*from + to: move from `from` to `to`";
  // The convolutional policy head's map (game_traits.hpp): plane 0 holds the placements;
  // plane 1 + to the moves to cell `to`, each at its from-cell (a move named by both its
  // cells); no global logits. Cells sit where the planes put them (geometry's column_of).
  static constexpr int kPolicyPlanes = 1 + kCells, kPolicyGlobals = 0;
  static int policy_slot(int index);
  static int policy_plane_target(int plane);  // plane 1 + to: cell `to`; plane 0: -1
  static constexpr std::string_view kVariant = Side == 3   ? "side=3"
                                               : Side == 4 ? "side=4"
                                                           : "side=5";
  static constexpr int kNumSymmetries = 12;  // the hexagon's rotations and mirrors
  // Symmetries that map the rim's holed and plain sides onto each other exchange the
  // players (geometry.hpp); which ones depends on the side.
  static bool symmetry_swaps_players(int s);

  enum class Phase : std::uint8_t { kPlacement, kMovement };

  static BasicImperator from_setup(std::string_view setup);
  static BasicImperator random_setup(Rng&) { return BasicImperator{}; }
  std::string setup_string() const { return ""; }
  Player to_act() const { return static_cast<Player>(mover_); }
  void legal_actions(FixedList<Action, kMaxActions>& out) const;
  void chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const { out.clear(); }
  void apply(Action a);
  bool is_terminal() const { return terminal_; }
  Outcome outcome() const { return outcome_; }

  std::string action_to_string(Action a) const;
  std::optional<Action> parse_action(std::string_view text) const;
  std::string render() const;

  void encode(std::span<float> out) const;
  int policy_index(Action a) const;
  BasicImperator symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries and a builder for tests.
  Phase phase() const { return placed_ < kPlacements ? Phase::kPlacement : Phase::kMovement; }
  int colour_at(int cell) const {
    return pieces_[0].test(cell) ? 0 : pieces_[1].test(cell) ? 1 : -1;
  }
  int pieces(int player) const { return pieces_[player].count(); }
  int moves() const { return moves_; }
  bool pinned(int cell) const;
  // Pieces of `colour` in groups that one enemy piece could turn over: a single empty
  // neighbour cell and no rim side of their own colour.
  Bits one_liberty(int colour) const;
  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; terms and weights in
  // docs/heuristics.md): pieces, pieces one enemy piece could turn over, pinned pieces.
  double evaluate() const;
  // A movement-phase position: cells of each colour (names), the player to move.
  static BasicImperator from_cells(std::string_view red, std::string_view white, int mover,
                                   int moves = 0);

  static constexpr Action place_action(int to) { return static_cast<Action>(to); }
  static constexpr Action move_action(int from, int to) {
    return static_cast<Action>(1u << 16 | static_cast<unsigned>(from) << 8 |
                               static_cast<unsigned>(to));
  }
  static constexpr bool is_move(Action a) { return a >> 16; }
  static constexpr int from_of(Action a) { return static_cast<int>((a >> 8) & 255); }
  static constexpr int to_of(Action a) { return static_cast<int>(a & 255); }

 private:
  Bits group_of(int cell, int colour) const;
  bool enclosed(Bits group, int colour) const;
  // Plays P's piece arriving on `to` (placed or moved): turns enclosed enemy groups over;
  // returns false (leaving *this unspecified) when P's own group ends up enclosed.
  bool settle(int to);
  bool legal_after_placing(int to) const;
  bool legal_after_moving(int from, int to) const;
  Bits pivot_destinations(int cell) const;
  template <class Emit>
  bool for_each_action(Emit&& emit) const;
  bool has_move() const;
  void end_move();
  void end_by_count();

  std::array<Bits, 2> pieces_{};
  std::uint8_t placed_ = 0;
  std::uint8_t moves_ = 0;
  std::uint8_t mover_ = 0;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

using Imperator = BasicImperator<4>;
using Imperator3 = BasicImperator<3>;
using Imperator5 = BasicImperator<5>;
extern template class BasicImperator<3>;
extern template class BasicImperator<4>;
extern template class BasicImperator<5>;
static_assert(Game<Imperator3> && Game<Imperator> && Game<Imperator5>);

// The position as plain data for clients that draw it (imperator_view.cpp).
template <int Side>
BoardView board_view(const BasicImperator<Side>& s);

}  // namespace azg
