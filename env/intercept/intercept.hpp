#pragma once
// Intercept (../shared/rules/intercept.md): 13x13, passage, rest and double pawns; slides,
// jump chains, the double's long moves and flips, covering, and ball paths along the
// mover's pawns. Light is player 0 (rank 1, goal g1), Dark player 1 (rank 13, goal g13).
//
// Representation: 169-square bitboards (WideBits<3>, square = 13 x rank + file) for two
// layers, the top pawns and the covered ones: per layer a set per colour, the doubles,
// the rest-kind pawns and the pawns showing their passage face. Slides and jumps of
// passage and rest pawns are generated set-wise by shifts; the double (one per side) by
// rays. Ball destinations come from a depth-first search over paths of distinct squares
// with the straight-line rule (see for_each_ball_destination for why not over states).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"
#include "env/common/wide_bits.hpp"

namespace azg {

class Intercept {
 public:
  static constexpr std::string_view kName = "intercept";
  static constexpr int kSize = 13;
  static constexpr int kSquares = kSize * kSize;
  static constexpr int kTurnCap = 300;
  static constexpr int kLightGoal = 6, kDarkGoal = 12 * kSize + 6;  // g1, g13
  // The goal `colour` scores on: the opponent's.
  static constexpr int target_goal(int colour) { return colour == 0 ? kDarkGoal : kLightGoal; }
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
  static constexpr std::string_view kPolicyLayout =
      "squares s = 13*rank + file (a1 = 0); 96*s + 12*d + (distance-1): slide or jump from s in "
      "direction d (N NE E SE S SW W NW = 0..7) over distance 1..12; 16224: flip in place; 16225: "
      "stop; "
      "16226: flip; 16227: keep; 16228 + s: ball to square s; 16397: pass";
  static_assert(kFlipInPlaceIndex == 16224 && kBallIndexBase == 16228 && kPassIndex == 16397,
                "kPolicyLayout spells these out");
  // Where a convolutional policy head finds each index's logit (game_traits.hpp,
  // policy_map): the 96 (direction, distance) moves from a square on planes 0..95 at that
  // square, ball destinations on plane 96; flip in place, stop, flip, keep and pass are
  // the five global logits.
  static constexpr int kPolicyPlanes = 97, kPolicyGlobals = 5;
  static constexpr int policy_slot(int index) {
    if (index < kFlipInPlaceIndex) return (index % 96) * kSquares + index / 96;
    if (index < kBallIndexBase) return kPolicyPlanes * kSquares + (index - kFlipInPlaceIndex);
    if (index < kPassIndex) return 96 * kSquares + (index - kBallIndexBase);
    return kPolicyPlanes * kSquares + 4;
  }
  static constexpr PlaneShape kPlanes{23, kSize, kSize};
  static constexpr int kEncodingVersion = 2;  // 2: planes 21, 22 (ball reach) added
  // Identity, left-right mirror, half-turn, top-bottom flip. The last two exchange the
  // colours (the start's Dark row is the half-turn image of Light's, and the rules treat
  // the colours alike but for the goal each scores on): the network sees Light's games
  // as Dark's and the other way round.
  static constexpr int kNumSymmetries = 4;
  static constexpr bool symmetry_swaps_players(int s) { return s >= 2; }

  enum class Phase : std::uint8_t { kMove, kChain, kFlipChoice, kBall };
  using Board = WideBits<3>;
  // A pawn as a byte (queries, builders, text): bit 0 present, bit 1 colour, bits 2-3
  // kind (0 passage, 1 rest, 2 double), bit 4 passage face up.
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
  // "a1".."m13" for square = 13 x rank + file, as the rules write it.
  static std::string square_name(int sq);

  void encode(std::span<float> out) const;
  int policy_index(Action a) const;
  Intercept symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries and a builder for tests.
  Phase phase() const { return phase_; }
  int turn() const { return turn_; }
  std::uint8_t top(int sq) const { return top_.at(sq); }
  std::uint8_t covered(int sq) const { return under_.at(sq); }
  int ball() const { return ball_; }
  // The ball's rank from the middle row, +1 on Dark's back row (Light's target), -1 on
  // Light's: the game's progress heuristic for player 0 (env/common/game.hpp).
  double progress() const { return (ball_ / kSize - kSize / 2) / static_cast<double>(kSize / 2); }
  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; docs/heuristics.md):
  // the race between the two sides' ball paths (the difference of their path costs over
  // their sum).
  double evaluate() const;
  // Pawn moves `colour` needs before a ball path runs from the ball to its target goal
  // (intercept_eval.cpp says what it leaves out); 1 << 20 when no path can be built.
  int path_cost(int colour) const;
  // Pawns as "b1:LP c1:LR g1:LD g13:Dd ..." (L/D colour; P passage, R rest, D double with
  // the passage face up, d double with the rest face up), the ball square, the mover.
  static Intercept from_pawns(std::string_view pawns, std::string_view ball, int mover,
                              int turn = 0);

  enum ActionKind : std::uint32_t {
    kSlideKind,
    kJumpKind,
    kFlipInPlaceKind,
    kStopKind,
    kFlipKind,
    kKeepKind,
    kBallKind,
    kPassKind
  };
  static constexpr Action make_action(ActionKind k, int from = 0, int to = 0) {
    return static_cast<Action>(k) << 16 | static_cast<Action>(from) << 8 | static_cast<Action>(to);
  }
  static constexpr ActionKind kind_of(Action a) { return static_cast<ActionKind>(a >> 16); }
  static constexpr int from_of(Action a) { return static_cast<int>((a >> 8) & 0xFF); }
  static constexpr int to_of(Action a) { return static_cast<int>(a & 0xFF); }

 private:
  // One layer of pawns (the top of each stack, or the covered pawns) as bitboards.
  struct Layer {
    std::array<Board, 2> side{};  // by colour
    Board doubles, rest_kind, passage_face;
    Board pawns() const { return side[0] | side[1]; }
    std::uint8_t at(int sq) const;
    void put(int sq, std::uint8_t pawn);
    std::uint8_t take(int sq);  // removes and returns the pawn on sq (0 when none)
    Layer image(int s) const;   // under symmetry s, colours exchanged where s swaps them
  };
  // Empty squares: no pawn and not the lone ball.
  Board empty_squares() const;
  Board carrier_square() const { return ball_alone_ ? Board{} : Board::single(ball_); }
  template <class Emit>
  bool for_each_move(Emit&& emit) const;
  template <class Emit>
  bool for_each_jump(int from, const Board& visited, const Board& empty, Emit&& emit) const;
  // Squares a slide of the mover's pawn with this face may end on by covering.
  Board cover_targets(bool passage_face) const;
  template <class Emit>
  bool for_each_ball_destination(Emit&& emit) const;
  // Ends of the ball's paths along `colour`'s pawns from where it lies; a path must pass
  // the pawn on `must_use` unless that is -1.
  template <class Emit>
  bool for_each_ball_path_end(int colour, int must_use, Emit&& emit) const;
  // Where `colour` could take the ball this turn, whichever pawn moves (NN encoding).
  Board ball_reach(int colour) const;
  void move_pawn(int from, int to);
  void after_pawn_move();
  void end_turn();

  Layer top_{};
  Layer under_{};
  Board visited_{};  // squares the jumping pawn has occupied during this move
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

// The position as plain data for clients that draw it (intercept_view.cpp).
BoardView board_view(const Intercept& s);

}  // namespace azg
