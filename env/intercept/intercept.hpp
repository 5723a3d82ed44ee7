#pragma once
// Intercept (../shared/rules/intercept.md): 13x13, passage, rest and double pawns; slides,
// jump chains, the double's long moves and flips, covering, and ball paths along the
// mover's pawns. Light is player 0 (rank 1, goal g1), Dark player 1 (rank 13, goal g13).
//
// Representation: one byte per square for the top pawn and one for a covered pawn (a
// mailbox; the jump chain's visited squares are a 192-bit set). Ball destinations come
// from a depth-first search over paths of distinct squares with the straight-line rule.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/game.hpp"

namespace azg {

class Intercept {
 public:
  static constexpr std::string_view kName = "intercept";
  static constexpr int kSize = 13;
  static constexpr int kSquares = kSize * kSize;
  static constexpr int kTurnCap = 300;
  static constexpr std::size_t kMaxActions = 512;
  // Policy: moves and jumps as square x direction x distance (169 x 8 x 12) | flip in
  // place | stop | flip | keep | ball destination (169) | pass.
  static constexpr int kMoveIndexBase = 0;
  static constexpr int kFlipInPlaceIndex = kSquares * 8 * 12;
  static constexpr int kStopIndex = kFlipInPlaceIndex + 1;
  static constexpr int kFlipIndex = kStopIndex + 1;
  static constexpr int kKeepIndex = kFlipIndex + 1;
  static constexpr int kBallIndexBase = kKeepIndex + 1;
  static constexpr int kPassIndex = kBallIndexBase + kSquares;
  static constexpr int kPolicySize = kPassIndex + 1;
  static constexpr PlaneShape kPlanes{21, kSize, kSize};
  static constexpr int kNumSymmetries = 2;  // identity, left-right mirror

  enum class Phase : std::uint8_t { kMove, kChain, kFlipChoice, kBall };
  // Pawn byte: bit 0 present, bit 1 colour, bits 2-3 kind (0 passage, 1 rest, 2 double),
  // bit 4 passage face up.
  enum Kind : std::uint8_t { kPassage = 0, kRest = 1, kDouble = 2 };
  static constexpr std::uint8_t pawn(int colour, Kind kind, bool passage_face) {
    return static_cast<std::uint8_t>(1 | colour << 1 | kind << 2 | (passage_face ? 16 : 0));
  }

  static Intercept from_setup(std::string_view setup);
  static Intercept random_setup(Rng&) { return Intercept{}; }
  std::string setup_string() const { return ""; }
  Intercept();

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
  Intercept symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries and a builder for tests.
  Phase phase() const { return phase_; }
  int turn() const { return turn_; }
  std::uint8_t top(int sq) const { return top_[sq]; }
  std::uint8_t covered(int sq) const { return bottom_[sq]; }
  int ball() const { return ball_; }
  // Pawns as "b1:LP c1:LR g1:LD g13:Dd ..." (L/D colour; P passage, R rest, D double with
  // the passage face up, d double with the rest face up), the ball square, the mover.
  static Intercept from_pawns(std::string_view pawns, std::string_view ball, int mover, int turn = 0);

  enum ActionKind : std::uint32_t { kSlideKind, kJumpKind, kFlipInPlaceKind, kStopKind, kFlipKind, kKeepKind, kBallKind, kPassKind };
  static constexpr Action make_action(ActionKind k, int from = 0, int to = 0) {
    return static_cast<Action>(k) << 16 | static_cast<Action>(from) << 8 | static_cast<Action>(to);
  }
  static constexpr ActionKind kind_of(Action a) { return static_cast<ActionKind>(a >> 16); }
  static constexpr int from_of(Action a) { return static_cast<int>((a >> 8) & 0xFF); }
  static constexpr int to_of(Action a) { return static_cast<int>(a & 0xFF); }

 private:
  struct Visited {
    std::array<std::uint64_t, 3> w{};
    bool test(int i) const { return w[i >> 6] >> (i & 63) & 1; }
    void set(int i) { w[i >> 6] |= std::uint64_t{1} << (i & 63); }
  };
  bool empty(int sq) const { return top_[sq] == 0 && !(ball_alone_ && sq == ball_); }
  bool carrier(int sq) const { return !ball_alone_ && sq == ball_; }
  template <class Emit>
  bool for_each_move(Emit&& emit) const;
  template <class Emit>
  bool for_each_jump(int from, const Visited& visited, Emit&& emit) const;
  bool may_cover(int to, bool passage_face) const;
  template <class Emit>
  bool for_each_ball_destination(Emit&& emit) const;
  void move_pawn(int from, int to);
  void after_pawn_move();
  void end_turn();

  std::array<std::uint8_t, kSquares> top_{};
  std::array<std::uint8_t, kSquares> bottom_{};
  Visited visited_{};
  std::int16_t ball_ = 0;
  bool ball_alone_ = true;
  std::int16_t moved_ = -1;  // the square of the pawn moved this turn
  std::uint16_t turn_ = 0;   // completed turns
  std::uint8_t mover_ = 0;
  Phase phase_ = Phase::kMove;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

static_assert(Game<Intercept>);

}  // namespace azg
