#pragma once
// The game API every engine implements and everything above env/ builds on.
//
// A game is a small value type (bitboards and fixed arrays, trivially copyable) that is
// copied and then modified ("copy-make"): `G next = g; next.apply(a);`. Search and
// self-play are templates over the `Game` concept below, so the hot path makes no
// virtual calls; type erasure happens once, in the tools' explicit game registry.
//
// Turns are sequences of atomic decisions. Whoever must decide acts: player 0, player 1,
// or chance. The same player may act several times in a row, and the opponent may act in
// the middle of a turn (Imbriqua's penalty), so callers must always ask `to_act()` and
// never infer the player from the depth.
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/rng.hpp"
#include "env/common/fixed_list.hpp"

namespace azg {

// An action is a game-specific 32-bit code, meaningful only together with the state it
// was generated from. Its printable form is the spec's action string.
using Action = std::uint32_t;

enum class Player : std::uint8_t { kP0 = 0, kP1 = 1, kChance = 2 };

constexpr Player opponent(Player p) {
  return p == Player::kP0 ? Player::kP1 : Player::kP0;
}
constexpr int index_of(Player p) {
  return static_cast<int>(p);
}

constexpr std::string_view player_string(Player p) {
  switch (p) {
    case Player::kP0:
      return "player 0";
    case Player::kP1:
      return "player 1";
    default:
      return "chance";
  }
}

// Final results, always stated from player 0's point of view.
enum class Outcome : std::uint8_t { kP0Win, kP1Win, kDraw };

constexpr std::string_view outcome_string(Outcome o) {
  switch (o) {
    case Outcome::kP0Win:
      return "1-0";
    case Outcome::kP1Win:
      return "0-1";
    default:
      return "1/2-1/2";
  }
}

// +1 for a win of `p`, -1 for a loss, 0 for a draw.
constexpr float outcome_value(Outcome o, Player p) {
  if (o == Outcome::kDraw) return 0.0f;
  const bool p0_won = o == Outcome::kP0Win;
  return (p0_won == (p == Player::kP0)) ? 1.0f : -1.0f;
}

// The outcome with the players' colours exchanged (a symmetry that swaps them): a win
// changes hands, a draw stays a draw.
constexpr Outcome swapped(Outcome o) {
  return o == Outcome::kP0Win   ? Outcome::kP1Win
         : o == Outcome::kP1Win ? Outcome::kP0Win
                                : Outcome::kDraw;
}

// Shape of the neural-network input planes: channels x height x width.
struct PlaneShape {
  int channels;
  int height;
  int width;
  [[nodiscard]] constexpr int size() const { return channels * height * width; }
};

struct ChanceOutcome {
  Action action;
  double probability;
};

template <class G>
using ActionListFor = FixedList<Action, G::kMaxActions>;
template <class G>
using ChanceListFor = FixedList<ChanceOutcome, G::kMaxActions>;

// What a game must provide. Members, by concern:
//   identity   kName; from_setup(text) (throws azg::Error on a malformed setup; "" is the
//              default setup); random_setup(rng) (the game's randomised start, e.g.
//              Truchet's tiles; the fixed start for games without one); setup_string().
//   rules      to_act(); legal_actions(list) (at a chance node: the outcomes' actions);
//              chance_outcomes(list) (only at chance nodes: action + probability);
//              apply(action) (action must be legal); is_terminal(); outcome().
//   notation   action_to_string(a); parse_action(text) -> the action `text` denotes in
//              this state, or nullopt when it is not a well-formed string for the current
//              decision (legality is checked by the caller against legal_actions);
//              render() -> a multi-line picture with who acts and the phase.
//   NN hooks   kPlanes, kPolicySize; encode(out) writes kPlanes.size() floats from the
//              point of view of the player to act, never reading hidden information;
//              policy_index(a) in [0, kPolicySize) or -1 when the action has no index.
//              Optional hooks (encoding version, constant planes, policy layout,
//              variant, role-swapping symmetries, score margin, progress, ownership)
//              are documented and queried in env/common/game_traits.hpp.
//   symmetry   kNumSymmetries (>= 1; 0 is the identity); symmetric(s) -> the transformed
//              state; symmetric_action(s, a) -> the image of a legal action a, legal in
//              symmetric(s).
//   hashing    hash() -> a 64-bit key of everything that matters for the future game.
template <class G>
concept Game = std::is_trivially_copyable_v<G> && std::copyable<G> &&
    std::default_initializable<G> &&
    requires(const G& g, G& mutable_g, Action a, ActionListFor<G>& actions,
             ChanceListFor<G>& chances, std::string_view text, std::span<float> planes,
             int symmetry, Rng& rng) {
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kMaxActions } -> std::convertible_to<std::size_t>;
  { G::kPlanes } -> std::convertible_to<PlaneShape>;
  { G::kPolicySize } -> std::convertible_to<int>;
  { G::kNumSymmetries } -> std::convertible_to<int>;
  { G::from_setup(text) } -> std::same_as<G>;
  { G::random_setup(rng) } -> std::same_as<G>;
  { g.setup_string() } -> std::same_as<std::string>;
  { g.to_act() } -> std::same_as<Player>;
  { g.legal_actions(actions) } -> std::same_as<void>;
  { g.chance_outcomes(chances) } -> std::same_as<void>;
  { mutable_g.apply(a) } -> std::same_as<void>;
  { g.is_terminal() } -> std::same_as<bool>;
  { g.outcome() } -> std::same_as<Outcome>;
  { g.action_to_string(a) } -> std::same_as<std::string>;
  { g.parse_action(text) } -> std::same_as<std::optional<Action>>;
  { g.render() } -> std::same_as<std::string>;
  { g.encode(planes) } -> std::same_as<void>;
  { g.policy_index(a) } -> std::same_as<int>;
  { g.symmetric(symmetry) } -> std::same_as<G>;
  { g.symmetric_action(symmetry, a) } -> std::same_as<Action>;
  { g.hash() } -> std::same_as<std::uint64_t>;
};

}  // namespace azg
