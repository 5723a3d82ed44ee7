#pragma once
// Imperator (../shared/rules/imperator.md): triangular pieces on a hexagon of 96
// triangles with protecting rim sides; placements, then pivot moves (and free moves at 6
// pieces or fewer); enclosed groups are turned over; no suicide; pinned pieces stay.
// Red is player 0 and moves first. The board is data (geometry.hpp); pieces are 128-bit
// bitboards (two words), one per colour.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/game.hpp"
#include "env/imperator/geometry.hpp"

namespace azg {

struct Bits128 {
  std::uint64_t lo = 0, hi = 0;
  constexpr bool test(int i) const { return i < 64 ? (lo >> i & 1) : (hi >> (i - 64) & 1); }
  constexpr void set(int i) { (i < 64 ? lo : hi) |= std::uint64_t{1} << (i & 63); }
  constexpr void reset(int i) { (i < 64 ? lo : hi) &= ~(std::uint64_t{1} << (i & 63)); }
  constexpr bool any() const { return lo | hi; }
  int count() const { return __builtin_popcountll(lo) + __builtin_popcountll(hi); }
  constexpr Bits128 operator|(Bits128 o) const { return {lo | o.lo, hi | o.hi}; }
  constexpr Bits128 operator&(Bits128 o) const { return {lo & o.lo, hi & o.hi}; }
  constexpr Bits128 operator~() const { return {~lo, ~hi}; }
  constexpr bool operator==(const Bits128&) const = default;
  // Index of the lowest set bit, removed (the set must not be empty).
  int pop() {
    if (lo) {
      const int i = __builtin_ctzll(lo);
      lo &= lo - 1;
      return i;
    }
    const int i = __builtin_ctzll(hi);
    hi &= hi - 1;
    return 64 + i;
  }
};

class Imperator {
 public:
  static constexpr std::string_view kName = "imperator";
  static constexpr int kCells = 96;
  static constexpr int kPlacements = 20;
  static constexpr int kMoveCap = 200;
  static constexpr int kFreeMoveLimit = 6;
  static constexpr std::size_t kMaxActions = 2048;
  static constexpr int kGridWidth = 15;
  static constexpr PlaneShape kPlanes{13, 8, kGridWidth};
  static constexpr int kPolicySize = kCells + kCells * kCells;  // placements | from x to
  static constexpr int kNumSymmetries = 2;                      // identity, half turn

  enum class Phase : std::uint8_t { kPlacement, kMovement };

  static Imperator from_setup(std::string_view setup);
  static Imperator random_setup(Rng&) { return Imperator{}; }
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
  Imperator symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries and a builder for tests.
  Phase phase() const { return placed_ < kPlacements ? Phase::kPlacement : Phase::kMovement; }
  int colour_at(int cell) const { return pieces_[0].test(cell) ? 0 : pieces_[1].test(cell) ? 1 : -1; }
  int pieces(int player) const { return pieces_[player].count(); }
  int moves() const { return moves_; }
  bool pinned(int cell) const;
  // A movement-phase position: cells of each colour (names), the player to move.
  static Imperator from_cells(std::string_view red, std::string_view white, int mover, int moves = 0);

  static constexpr Action place_action(int to) { return static_cast<Action>(to); }
  static constexpr Action move_action(int from, int to) {
    return static_cast<Action>(1u << 15 | static_cast<unsigned>(from) << 7 | static_cast<unsigned>(to));
  }
  static constexpr bool is_move(Action a) { return a >> 15; }
  static constexpr int from_of(Action a) { return static_cast<int>((a >> 7) & 127); }
  static constexpr int to_of(Action a) { return static_cast<int>(a & 127); }

 private:
  Bits128 group_of(int cell, int colour) const;
  bool enclosed(Bits128 group, int colour) const;
  // Plays P's piece arriving on `to` (placed or moved): turns enclosed enemy groups over;
  // returns false (leaving *this unspecified) when P's own group ends up enclosed.
  bool settle(int to);
  bool legal_after_placing(int to) const;
  bool legal_after_moving(int from, int to) const;
  Bits128 pivot_destinations(int cell) const;
  template <class Emit>
  bool for_each_action(Emit&& emit) const;
  bool has_move() const;
  void end_move();
  void end_by_count();

  std::array<Bits128, 2> pieces_{};
  std::uint8_t placed_ = 0;
  std::uint8_t moves_ = 0;
  std::uint8_t mover_ = 0;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

static_assert(Game<Imperator>);

}  // namespace azg
