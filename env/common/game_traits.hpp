#pragma once
// Every optional hook of a game, and the one place the other layers ask about them
// (env/common/game.hpp documents the hooks every game must have). A game declares a hook
// by having the member; the traits here say whether it has it, or give the default.
//
//   kEncodingVersion   the version of its input planes, bumped whenever their meaning
//                      changes; models record it and refuse to load across versions (1).
//   kConstantPlanes    planes with one value on every cell in every position (cards, phase,
//                      counters); inference applies the first convolution to them as a
//                      vector; the conformance suite checks the claim (none).
//   kPolicyLayout      how policy indices map to actions, in words; written to meta.json
//                      for clients that read a model's logits ("").
//   kPolicyPlanes, kPolicyGlobals, policy_slot(index)  where a convolutional policy
//                      head (net.policy_head=conv) finds each policy index's logit: slot
//                      plane * cells + cell for an action tied to a cell of the planes, or
//                      kPolicyPlanes * cells + g for the g-th of the global ones (stop,
//                      pass); slots are distinct (none: such games keep the dense head).
//   policy_plane_target(plane)  for a plane whose actions all go to one cell (a move named
//                      by its from- and to-cells, read at the from-cell), that cell's
//                      offset in a plane (row * width + column); -1 for the others. The
//                      pair head (net.policy_head=pairs) scores such a move from both
//                      cells' features (none: that head is refused).
//   kVariant           the rules options this game type fixes, as "key=value" words (for
//                      Imperator the board's side); written to meta.json ("").
//   symmetry_swaps_players(s)  true when symmetry s also exchanges the players' roles
//                      (to_act() and the outcome are then mirrored too) (false).
//   score_margin()     at a terminal state of a game decided by points, player 0's score
//                      minus player 1's: a value target (train.margin_mix) (absent).
//   progress()         at any state, a heuristic in [-1, 1] of how far player 0 is towards
//                      winning, not a rule: drawn self-play games may be scored by it
//                      (train.draw_progress; Intercept: the ball's advance) (absent).
//   ownership(view, out)  at a terminal state, per cell of the planes, what the cell adds
//                      to `view`'s score minus the opponent's, in [-1, 1]: an auxiliary
//                      training target (net.ownership) (absent).
//   kReferenceGame     true for a game azg plays to be compared with other systems (Connect
//                      Four), not one of the seed games; `azg games` lists it apart (false).
//   evaluate()         at a non-terminal state, a hand-written static evaluation: player
//                      0's prospects in [-1, 1], built from terms the rules make cheap
//                      (docs/heuristics.md gives each game's terms and weights). Leaf
//                      values of the heuristic agents (mcts evaluator=heuristic or ept,
//                      ab:...); read it through evaluation() below (absent).
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "env/common/game.hpp"

namespace azg {

template <class G>
constexpr int encoding_version() {
  if constexpr (requires { G::kEncodingVersion; })
    return G::kEncodingVersion;
  else
    return 1;
}

template <class G>
std::vector<int> constant_planes() {
  if constexpr (requires { G::kConstantPlanes; })
    return std::vector<int>(G::kConstantPlanes.begin(), G::kConstantPlanes.end());
  else
    return {};
}

template <class G>
std::string policy_layout() {
  if constexpr (requires { G::kPolicyLayout; })
    return std::string(G::kPolicyLayout);
  else
    return "";
}

// A game's policy_slot hook as data: slots[index] for every policy index; empty when the
// game has none.
struct PolicyMap {
  int planes = 0, globals = 0;
  std::vector<int> slots;
  std::vector<int> targets;  // per plane: policy_plane_target, or empty without the hook
};

template <class G>
PolicyMap policy_map() {
  if constexpr (requires { G::policy_slot(0); }) {
    PolicyMap map{G::kPolicyPlanes, G::kPolicyGlobals, std::vector<int>(G::kPolicySize), {}};
    for (int i = 0; i < G::kPolicySize; ++i)
      map.slots[static_cast<std::size_t>(i)] = G::policy_slot(i);
    if constexpr (requires { G::policy_plane_target(0); })
      for (int p = 0; p < G::kPolicyPlanes; ++p) map.targets.push_back(G::policy_plane_target(p));
    return map;
  } else {
    return {};
  }
}

template <class G>
std::string variant() {
  if constexpr (requires { G::kVariant; })
    return std::string(G::kVariant);
  else
    return "";
}

template <class G>
constexpr bool is_reference_game() {
  if constexpr (requires { G::kReferenceGame; })
    return G::kReferenceGame;
  else
    return false;
}

template <class G>
bool symmetry_swaps_players(int s) {
  if constexpr (requires { G::symmetry_swaps_players(s); })
    return G::symmetry_swaps_players(s);
  else
    return false;
}

template <class G>
constexpr bool kDecidedByPoints = requires(const G& g) {
  g.score_margin();
};

template <class G>
constexpr bool kHasProgress = requires(const G& g) {
  g.progress();
};

template <class G>
constexpr bool kHasOwnership = requires(const G& g, Player view, std::span<float> out) {
  g.ownership(view, out);
};

// Games whose rules end in a draw after G::kTurnCap turns (turn(): the turns completed).
template <class G>
constexpr bool kHasTurnCap = requires(const G& g) {
  { G::kTurnCap } -> std::convertible_to<int>;
  { g.turn() } -> std::convertible_to<int>;
};

// True for a finished game that the turn cap cut (a draw by the cap, not by the rules of
// play): its result says nothing about who stood better.
template <class G>
bool ended_by_cap(const G& g) {
  if constexpr (kHasTurnCap<G>)
    return g.is_terminal() && g.outcome() == Outcome::kDraw && g.turn() >= G::kTurnCap;
  else
    return false;
}

template <class G>
constexpr bool kHasEvaluation = requires(const G& g) {
  { g.evaluate() } -> std::convertible_to<double>;
};

// The game's static evaluation from `view`'s side (a player, not chance): the exact
// result at a terminal state, else evaluate() clamped to [-1, 1] and negated for player 1,
// so the two players' values always sum to zero.
template <class G>
requires kHasEvaluation<G>
float evaluation(const G& g, Player view) {
  if (g.is_terminal()) return outcome_value(g.outcome(), view);
  const float v = static_cast<float>(std::clamp(static_cast<double>(g.evaluate()), -1.0, 1.0));
  return view == Player::kP1 ? -v : v;
}

}  // namespace azg
