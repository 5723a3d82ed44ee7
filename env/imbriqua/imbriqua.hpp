#pragma once
// Imbriqua (../shared/rules/imbriqua.md): placements, eleven action cards dealt from
// piles that reverse, jump chains, penalties chosen by the opponent, and framed empty
// squares. Light is player 0, Dark player 1.
//
// Hidden information: the state holds only the cards revealed so far. The order of pile 1
// is drawn card by card through chance actions, so nothing in the state, its encoding, its
// text or a record can show a card before its reveal.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "env/common/board_view.hpp"
#include "env/common/game.hpp"

namespace azg {

class Imbriqua {
 public:
  static constexpr std::string_view kName = "imbriqua";
  static constexpr int kTurns = 44;
  static constexpr int kOpeningPawns = 8;
  // A slide card with ~30 pawns gives at most a few hundred moves; removals <= 64.
  static constexpr std::size_t kMaxActions = 512;

  // Cards: the ten shuffled ones, then P2.
  enum Card : std::uint8_t { kO1, kD1, kON, kDN, kOJ, kDJ, kOL, kDL, kO2, kD2, kP2, kNoCard };
  static constexpr int kShuffled = 10;
  static constexpr int kCardKinds = 11;

  enum class Phase : std::uint8_t {
    kOpening,     // the 8 opening placements
    kPlace,       // the turn's placement
    kReveal,      // chance: the next card of pile 1
    kCard,        // the card's first action
    kChain,       // a further jump, or stop
    kSecondPawn,  // P2: the second placement (the first one is a kCard action)
    kPenalty,     // the opponent removes one of the mover's pawns
  };

  static constexpr int kNumPlanes = 80;
  static constexpr int kEncodingVersion = 2;  // 2: planes 68..79 (frames, margins) added
  static constexpr PlaneShape kPlanes{kNumPlanes, 8, 8};
  // Planes equal on every square (cards, phase, counters, margins; imbriqua_encoding.cpp).
  static constexpr auto kConstantPlanes = [] {
    std::array<int, 65> planes{};
    for (int i = 0; i < 63; ++i) planes[i] = 4 + i;  // 4..66
    planes[63] = 78;
    planes[64] = 79;
    return planes;
  }();
  // Placements 64 | moves and jumps: from x (8 directions x distance 1..7) | stop | removals 64.
  static constexpr int kMoveIndexBase = 64;
  static constexpr int kStopIndex = kMoveIndexBase + 64 * 56;
  static constexpr int kRemoveIndexBase = kStopIndex + 1;
  static constexpr int kPolicySize = kRemoveIndexBase + 64;
  // Squares are numbered a1 = 0 .. h1 = 7, a2 = 8, .. h8 = 63 (8 x rank + file);
  // directions N E S W NE SE SW NW are 0..7 (env/common/board64.hpp).
  static constexpr std::string_view kPolicyLayout =
      "0-63: place on square s (s = 8*rank + file, a1 = 0); 64 + 56*from + 7*dir + (distance-1): "
      "a move or jump from `from` in direction dir (N E S W NE SE SW NW = 0..7) over distance "
      "1..7; "
      "3648: stop; 3649 + s: remove the pawn on square s";
  static_assert(kStopIndex == 3648 && kRemoveIndexBase == 3649, "kPolicyLayout spells these out");
  // Where a convolutional policy head finds each index's logit (game_traits.hpp,
  // policy_map): placements on plane 0, the 56 (direction, distance) moves from a square on
  // planes 1..56 at that square, removals on plane 57; stop is the one global logit.
  static constexpr int kPolicyPlanes = 58, kPolicyGlobals = 1;
  static constexpr int policy_slot(int index) {
    if (index < kMoveIndexBase) return index;
    if (index < kStopIndex)
      return (1 + (index - kMoveIndexBase) % 56) * 64 + (index - kMoveIndexBase) / 56;
    if (index == kStopIndex) return kPolicyPlanes * 64;
    return 57 * 64 + (index - kRemoveIndexBase);
  }
  static constexpr int kNumSymmetries = 8;

  static Imbriqua from_setup(std::string_view setup);
  static Imbriqua random_setup(Rng&) { return Imbriqua{}; }
  std::string setup_string() const { return ""; }

  Player to_act() const;
  void legal_actions(FixedList<Action, kMaxActions>& out) const;
  void chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const;
  void apply(Action a);
  bool is_terminal() const { return terminal_; }
  Outcome outcome() const { return outcome_; }

  std::string action_to_string(Action a) const;
  std::optional<Action> parse_action(std::string_view text) const;
  std::string render() const;

  void encode(std::span<float> out) const;
  int policy_index(Action a) const;
  Imbriqua symmetric(int s) const;
  Action symmetric_action(int s, Action a) const;
  std::uint64_t hash() const;

  // Queries for tests and tools.
  Phase phase() const { return phase_; }
  int turn() const { return turn_; }  // 0 during the opening, then 1..44
  std::uint64_t pawns(int player) const { return pawns_[player]; }
  // The card of main turn t (1..44), or kNoCard while it is still hidden.
  Card card_of_turn(int t) const;
  Card current_card() const { return card_; }
  int score(int player) const;  // framed (empty square, line) pairs, as at the end
  double score_margin() const { return score(0) - score(1); }
  // The static evaluation for player 0 in [-1, 1] (game_traits.hpp; terms and weights in
  // docs/heuristics.md): the score as it stands and the pawns, more surely as the end nears.
  double evaluate() const;
  // Per square: (lines on which it is framed for `view` - for the opponent) / 4, so the
  // 64 values sum to the score margin / 4. Any state; training uses terminal ones.
  void ownership(Player view, std::span<float> out) const;
  static std::string_view card_code(Card c);

  // A position for tests: the pawns, the turn about to be played (placement phase), the
  // revealed prefix of pile 1 (1 to 10 codes, or all ten). Throws azg::Error.
  static Imbriqua from_position(std::uint64_t light, std::uint64_t dark, int turn,
                                std::string_view revealed_codes);
  // Same, but with the turn's placement made on `placed` and the card `card` in hand.
  static Imbriqua with_card(std::uint64_t light, std::uint64_t dark, int mover, int placed,
                            Card card);

  // Action codes: kind << 16 | from << 8 | to (to holds the square of placements and
  // removals, and the card of reveals).
  enum Kind : std::uint32_t {
    kPlaceKind,
    kMoveKind,
    kJumpKind,
    kStopKind,
    kRemoveKind,
    kRevealKind
  };
  static constexpr Action make_action(Kind kind, int from, int to) {
    return static_cast<Action>(kind) << 16 | static_cast<Action>(from) << 8 |
           static_cast<Action>(to);
  }
  static constexpr Kind kind_of(Action a) { return static_cast<Kind>(a >> 16); }
  static constexpr int from_of(Action a) { return static_cast<int>((a >> 8) & 0xFF); }
  static constexpr int to_of(Action a) { return static_cast<int>(a & 0xFF); }

 private:
  int actor() const { return phase_ == Phase::kPenalty ? mover_ ^ 1 : mover_; }
  // The card's first actions (kCard) or the chain's further jumps (kChain); early exit as
  // soon as emit returns true.
  template <class Emit>
  bool for_each_card_action(bool chain, Emit&& emit) const;
  void start_card();
  void complete_pile_one();
  void end_turn();
  void place(int player, int sq);
  void remove(int sq);
  std::uint64_t placement_squares() const;

  std::array<std::uint64_t, 2> pawns_{0, 0};
  std::uint64_t zobrist_ = 0;
  std::array<Card, kShuffled> revealed_{};  // pile 1 in order, the first n_revealed_ known
  std::uint8_t n_revealed_ = 0;
  std::uint8_t turn_ = 0;
  std::uint8_t opening_placed_ = 0;
  std::uint8_t mover_ = 0;
  std::int8_t last_placed_ = -1;
  std::int8_t chain_square_ = -1;
  Card card_ = kNoCard;
  Phase phase_ = Phase::kOpening;
  bool terminal_ = false;
  Outcome outcome_ = Outcome::kDraw;
};

static_assert(Game<Imbriqua>);

// The position as plain data for clients that draw it (imbriqua_view.cpp).
BoardView board_view(const Imbriqua& s);

}  // namespace azg
