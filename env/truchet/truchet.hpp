#pragma once
// Truchet (../shared/rules/truchet.md, Boardspace rules): stacks of chips on the 64
// junctions of 7x7 flippable tiles; river moves through regions, splits, merges,
// captures by height; base and wipe-out wins, no-move loss, threefold repetition, cap.
// Light is player 0 and moves first.
//
// Representation: per-colour junction bitboards and two bitboards for (height - 1); the 49
// tile bits, and from them the river links as junction bitboards (a river move's reach is
// a flood fill through empty junctions); Zobrist hashes of the positions at the start of
// each turn since the last capture, in a fixed array (no heap).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"

namespace azg {

class Truchet {
 public:
  static constexpr std::string_view kName = "truchet";
  static constexpr int kTurnCap = 300;
  static constexpr int kTiles = 49;
  // Flips (49) + river moves (12 stacks x <= 31) + splits (12 x 31) + merges (64 x 11).
  static constexpr std::size_t kMaxActions = 2048;

  // Split patterns: counts sent N, E, S, W (sum 2..4, at least two directions): 53.
  static constexpr int kSplitPatterns = 53;
  static constexpr int kMergeSets = 11;  // subsets of {N, E, S, W} with two or more
  static constexpr int kRiverBase = kTiles;
  static constexpr int kSplitBase = kRiverBase + 64 * 64;
  static constexpr int kMergeBase = kSplitBase + 64 * kSplitPatterns;
  static constexpr int kDoneIndex = kMergeBase + 64 * kMergeSets;
  static constexpr int kPolicySize = kDoneIndex + 1;
  static constexpr std::string_view kPolicyLayout =
      "0-48: flip tile t (t in the setup string's order, a1..g7); 49 + 64*from + to: river move "
      "between junctions "
      "(8x8 junctions, 8*row + column); 4145 + 53*j + p: split at junction j with pattern p; "
      "7537 + 11*j + m: merge at junction j with direction set m; 8241: done";
  static_assert(kSplitBase == 4145 && kMergeBase == 7537 && kDoneIndex == 8241,
                "kPolicyLayout spells these out");
  // The convolutional policy head's map (game_traits.hpp): plane 0 holds the flips, each at
  // its tile's SW junction; plane 1 + to the river moves to junction `to`, each at its
  // from-junction, so a river move is named by both its junctions with 64 small planes
  // instead of a dense layer of 4,096 outputs; planes 65 + p the splits of pattern p and
  // 118 + m the merges of set m, at their junction; done is the one global.
  static constexpr int kPolicyPlanes = 1 + 64 + kSplitPatterns + kMergeSets, kPolicyGlobals = 1;
  // Plane 1 + to holds the river moves to junction `to` (offset `to` in the 8x8 planes).
  static constexpr int policy_plane_target(int plane) {
    return plane >= 1 && plane <= 64 ? plane - 1 : -1;
  }
  static constexpr int policy_slot(int index) {
    if (index < kRiverBase) return index / 7 * 8 + index % 7;
    if (index < kSplitBase) return (1 + (index - kRiverBase) % 64) * 64 + (index - kRiverBase) / 64;
    if (index < kMergeBase)
      return (65 + (index - kSplitBase) % kSplitPatterns) * 64 +
             (index - kSplitBase) / kSplitPatterns;
    if (index < kDoneIndex)
      return (65 + kSplitPatterns + (index - kMergeBase) % kMergeSets) * 64 +
             (index - kMergeBase) / kMergeSets;
    return kPolicyPlanes * 64;
  }
  static constexpr int kNumPlanes = 22;
  static constexpr int kEncodingVersion = 2;  // 2: planes 20, 21 (river reach) added
  static constexpr PlaneShape kPlanes{kNumPlanes, 8, 8};
  // 0: identity; 1: top-bottom flip with the players' roles swapped (and tile diagonals
  // mirrored). The left-right mirror is not a symmetry: it swaps junction colours and
  // moves the bases.
  static constexpr int kNumSymmetries = 2;
  static constexpr bool symmetry_swaps_players(int s) { return s == 1; }

  enum class Phase : std::uint8_t { kStart, kAfterFlip, kAfterRiver };

  Truchet();  // the setup with all 49 tile bits 0
  // 49 characters 0/1: tile bits a1, b1, ..., g1, a2, ..., g7. Throws azg::Error.
  static Truchet from_setup(std::string_view setup);
  static Truchet random_setup(Rng& rng);
  std::string setup_string() const;

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
  Truchet symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries and a position builder for tests.
  Phase phase() const { return phase_; }
  int turn() const { return turn_; }
  // Stack at junction sq: colour (0 Light, 1 Dark) and height, or colour -1.
  int colour_at(int sq) const;
  int height_at(int sq) const;
  bool tile(int x, int y) const { return tiles_ >> (y * 7 + x) & 1; }
  int repetitions() const;  // occurrences of the current turn-start position so far
  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; terms and weights in
  // docs/heuristics.md): bases held, bases in reach of a river move, chips, advance.
  double evaluate() const;
  // Stacks given as "a1:L2 c3:D1 ..." (colour L/D, height 1..4), with `setup` tiles and the
  // player to move at the start of a turn. Throws azg::Error.
  static Truchet from_stacks(std::string_view stacks, std::string_view setup, int mover,
                             int turn = 0);

  // Action codes: kind << 28 | extra << 12 | to << 6 | from. extra: split counts 3 bits
  // per direction N E S W, or the merge's direction mask.
  enum Kind : std::uint32_t { kFlipKind, kRiverKind, kSplitKind, kMergeKind, kDoneKind };
  static constexpr Action make_action(Kind kind, int from, int to = 0, std::uint32_t extra = 0) {
    return static_cast<Action>(kind) << 28 | extra << 12 | static_cast<Action>(to) << 6 |
           static_cast<Action>(from);
  }
  static constexpr Kind kind_of(Action a) { return static_cast<Kind>(a >> 28); }
  static constexpr int from_of(Action a) { return static_cast<int>(a & 63); }
  static constexpr int to_of(Action a) { return static_cast<int>((a >> 6) & 63); }
  static constexpr std::uint32_t extra_of(Action a) { return (a >> 12) & 0xFFFF; }

 private:
  std::uint64_t occupied() const { return colour_[0] | colour_[1]; }
  void put(int sq, int colour, int height);
  void clear(int sq);
  void set_tiles(std::uint64_t tiles);
  void toggle_tile(int tile);
  std::uint64_t river_reach(int from) const;
  std::uint64_t river_reach(int from, std::uint64_t ne_links, std::uint64_t se_links) const;
  bool has_split_or_merge() const;
  // Stack actions of the mover (after a river move: of the moved stack, plus done).
  template <class Emit>
  bool for_each_stack_action(Emit&& emit) const;
  template <class Emit>
  bool for_each_split_or_merge(Emit&& emit) const;
  template <class Emit>
  bool for_each_split(int from, Emit&& emit) const;
  template <class Emit>
  bool for_each_merge(int centre, std::uint32_t required_dir_mask, Emit&& emit) const;
  bool has_stack_action() const;
  void end_turn();
  std::uint64_t turn_start_hash() const;

  std::array<std::uint64_t, 2> colour_{};
  std::array<std::uint64_t, 2> height_bits_{};  // bit k of (height - 1)
  std::uint64_t tiles_ = 0;
  std::uint64_t ne_links_ = 0;  // junctions J linked to J + (1, 1) ("/" tiles, by SW corner)
  std::uint64_t se_links_ = 0;  // junctions J linked to J + (1, -1) ("\" tiles, by NW corner)
  std::uint64_t zobrist_ = 0;   // stacks and tiles
  std::array<std::uint64_t, kTurnCap + 1> history_{};
  std::uint16_t history_len_ = 0;
  std::uint16_t turn_ = 0;  // completed turns
  std::uint8_t mover_ = 0;
  std::int8_t moved_ = -1;  // the stack moved by the river move this turn
  bool captured_ = false;   // a capture happened this turn
  Phase phase_ = Phase::kStart;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

static_assert(Game<Truchet>);

// The position as plain data for clients that draw it (truchet_view.cpp).
BoardView board_view(const Truchet& s);

}  // namespace azg
