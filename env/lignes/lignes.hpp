#pragma once
// Lignes (../shared/rules/lignes.md): square pawns on an unbounded lattice, placements,
// alignment moves, capture with fill. Light is player 0, Dark player 1.
//
// Representation: the pawns live in a window of kRows rows x 64 columns, one 64-bit word
// per row and colour; cell (x, y) is bit x - origin_x of row y - origin_y. The group is
// edge-connected and holds at most 40 pawns, so its bounding box fits in 40 x 40; after
// every action the window is re-centred whenever a pawn comes within kMargin cells of its
// border, so every legal placement and shift always lands inside it.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"

namespace azg {

class Lignes {
 public:
  static constexpr std::string_view kName = "lignes";
  static constexpr int kPawnsPerPlayer = 20;
  static constexpr int kTotalPawns = 40;
  static constexpr int kOpeningPawns = 8;
  // Placements are at most 4 x 40 neighbours, moves at most 2 per run end: 256 is ample.
  static constexpr std::size_t kMaxActions = 256;

  // NN encoding: a kView x kView window centred on the group's bounding box.
  static constexpr int kView = 16;
  static constexpr int kNumPlanes = 13;
  static constexpr PlaneShape kPlanes{kNumPlanes, kView, kView};
  // Policy: placements (cell), moves and fills (cell x direction), captures (cell), pass.
  static constexpr int kPolicySize = kView * kView * 6 + 1;
  static constexpr std::string_view kPolicyLayout =
      "on the 16x16 window the planes show (its origin follows the pieces), cell c = 16*wy + wx: "
      "c: place (P); 256 + 4*c + d: move (M) in direction d (N E S W = 0..3); 1280 + c: capture "
      "(X); "
      "1536: pass; actions outside the window have no index";
  static_assert(kView * kView == 256 && kPolicySize == 1537, "kPolicyLayout spells these out");
  // Where a convolutional policy head finds each index's logit (game_traits.hpp,
  // policy_map): placements on plane 0, moves in direction d on plane 1 + d, captures on
  // plane 5, each at its window cell; pass is the one global logit.
  static constexpr int kPolicyPlanes = 6, kPolicyGlobals = 1;
  static constexpr int policy_slot(int index) {
    constexpr int cells = kView * kView;
    if (index < cells) return index;
    if (index < 5 * cells) return (1 + (index - cells) % 4) * cells + (index - cells) / 4;
    return index;  // captures (plane 5) and pass (the first global) are already in place
  }
  static constexpr int kNumSymmetries = 8;

  enum class Phase : std::uint8_t { kPlace, kMove, kCapture, kFill };
  enum Direction : std::uint8_t { kNorth, kEast, kSouth, kWest };

  static Lignes from_setup(std::string_view setup);
  static Lignes random_setup(Rng&) { return Lignes{}; }
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
  Lignes symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // A position from a diagram, for tests and analysis: rows from top to bottom separated
  // by '/', 'L' Light, 'D' Dark, '.' empty; the bottom-left character is cell (x0, y0).
  // `placed` counts pawns placed so far (captured ones included). Throws azg::Error.
  static Lignes from_diagram(std::string_view diagram, int x0, int y0, int placed, int mover,
                             Phase phase, int captures_light = 0, int captures_dark = 0);

  // Queries for tests and tools.
  Phase phase() const { return phase_; }
  int placed() const { return placed_; }
  int captures(int player) const { return captures_[player]; }
  // 0 or 1 for a pawn of that player at (x, y), -1 when empty.
  int pawn_at(int x, int y) const;
  int pawn_count() const;
  // `player`'s alignment moves on the board as it stands, counted up to `limit`.
  int alignment_moves(int player, int limit) const;
  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; terms and weights in
  // docs/heuristics.md): captures, surrounded and nearly surrounded pawns, mobility.
  double evaluate() const;

  // Action codes: kind in bits 24..25, direction in bits 16..17, x + 128 in bits 8..15,
  // y + 128 in bits 0..7. Coordinates drift at most ~110 cells from the origin in a game.
  enum Kind : std::uint32_t { kPlaceKind = 0, kMoveKind = 1, kCaptureKind = 2, kPassKind = 3 };
  static constexpr Action make_action(Kind kind, int x, int y, int dir = 0) {
    return (static_cast<Action>(kind) << 24) | (static_cast<Action>(dir) << 16) |
           (static_cast<Action>(x + 128) << 8) | static_cast<Action>(y + 128);
  }
  static constexpr Kind kind_of(Action a) { return static_cast<Kind>(a >> 24); }
  static constexpr int x_of(Action a) { return static_cast<int>((a >> 8) & 0xFF) - 128; }
  static constexpr int y_of(Action a) { return static_cast<int>(a & 0xFF) - 128; }
  static constexpr int dir_of(Action a) { return static_cast<int>((a >> 16) & 3); }
  static constexpr Action kPass = static_cast<Action>(kPassKind) << 24;

 private:
  static constexpr int kRows = 48;
  static constexpr int kMargin = 2;
  using Rows = std::array<std::uint64_t, kRows>;

  // Window coordinates of a lattice cell and back.
  int col_of(int x) const { return x - origin_x_; }
  int row_of(int y) const { return y - origin_y_; }
  std::uint64_t occupied(int row) const { return pawns_[0][row] | pawns_[1][row]; }

  void place(int player, int row, int col);
  void remove(int row, int col);
  // Shifts the maximal run whose front pawn is at (row, col) one cell towards `dir`.
  void shift_run(int row, int col, int dir);
  // Calls emit(action) for each legal alignment move of `player`; stops early and returns
  // true as soon as emit returns true.
  template <class Emit>
  bool for_each_alignment_move(int player, Emit&& emit) const;
  // The fill moves of the mover into the hole at (row, col) on the current board, in
  // which that pawn has already been removed; same early-exit contract.
  template <class Emit>
  bool for_each_fill_move(int row, int col, Emit&& emit) const;
  template <class Emit>
  bool for_each_capture(Emit&& emit) const;
  bool has_capture() const;
  bool capture_has_fill(int row, int col) const;
  bool connected(const Rows& occ) const;
  // Whether the pawn at (row, col) reaches, through pawns of `occ`, a cell of
  // `target_mask` in rows target_lo..target_hi.
  bool linked(const Rows& occ, int row, int col, int target_lo, int target_hi,
              std::uint64_t target_mask) const;
  void end_turn();
  void recentre_if_needed();
  void update_row_extent();
  void view_origin(int& x0, int& y0) const;

  std::array<Rows, 2> pawns_{};
  std::uint64_t zobrist_ = 0;
  std::int16_t origin_x_ = -32;
  std::int16_t origin_y_ = -kRows / 2;
  std::int8_t row_lo_ = kRows / 2;  // occupied rows, inclusive; lo > hi when empty
  std::int8_t row_hi_ = kRows / 2 - 1;
  std::int8_t hole_row_ = 0;  // the capture's hole during the fill
  std::int8_t hole_col_ = 0;
  std::uint8_t placed_ = 0;  // pawns placed so far, 0..40
  std::uint8_t captures_[2] = {0, 0};
  std::uint8_t mover_ = 0;
  Phase phase_ = Phase::kPlace;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

static_assert(Game<Lignes>);

// The position as plain data for clients that draw it (lignes_view.cpp).
BoardView board_view(const Lignes& s);

}  // namespace azg
