#pragma once
// The conformance suite every game joins with one line in conformance_test.cpp:
//   INSTANTIATE_TYPED_TEST_SUITE_P(Name, Conformance, ::testing::Types<Game>);
// Over many seeded random games it checks the API contract of env/common/game.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "env/common/game.hpp"
#include "env/common/game_traits.hpp"
#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/common/random_play.hpp"
#include "tests/test_util.hpp"

namespace azg::testing {

// How much work the suite does per game; a game may specialise this.
template <class G>
struct ConformanceBudget {
  static constexpr int kGames = 300;        // random games walked action by action
  static constexpr int kSymmetryEvery = 3;  // check symmetries at every k-th position
  static constexpr int kPerftGames = 20;    // games in which positions get a perft check
  static constexpr int kPerftDepth = 2;
  static constexpr int kMaxActionsPerGame = 100000;
};

template <class G>
class Conformance : public ::testing::Test {};

// Symmetry s of G exchanges the players' roles (Truchet's top-bottom flip).
template <class G>
bool swaps_players(int s) {
  return symmetry_swaps_players<G>(s);
}

inline Player image_player(Player p, bool swap) {
  return swap && p != Player::kChance ? opponent(p) : p;
}
inline Outcome image_outcome(Outcome o, bool swap) {
  return swap ? swapped(o) : o;
}
TYPED_TEST_SUITE_P(Conformance);

// Checks every per-position property; returns false (with gtest failures) on a violation.
template <Game G>
void check_position(const G& g, bool check_symmetries) {
  ASSERT_FALSE(g.is_terminal());
  ActionListFor<G> actions;
  g.legal_actions(actions);
  ASSERT_FALSE(actions.empty()) << "a non-terminal position has no action\n" << g.render();

  // Strings are unique and parse back to the same action.
  std::set<std::string> seen;
  std::set<int> indices;
  for (const Action a : actions) {
    const std::string text = g.action_to_string(a);
    ASSERT_TRUE(seen.insert(text).second) << "duplicate action string " << text;
    const auto parsed = g.parse_action(text);
    ASSERT_TRUE(parsed.has_value()) << "'" << text << "' does not parse\n" << g.render();
    ASSERT_EQ(*parsed, a) << "'" << text << "' parses to another action";
    if (g.to_act() != Player::kChance) {
      const int index = g.policy_index(a);
      ASSERT_GE(index, -1);
      ASSERT_LT(index, G::kPolicySize);
      if (index >= 0) {
        ASSERT_TRUE(indices.insert(index).second) << "policy index shared: " << text;
      }
    }
  }

  // Chance nodes: outcomes are exactly the legal actions, probabilities sum to 1.
  if (g.to_act() == Player::kChance) {
    ChanceListFor<G> outcomes;
    g.chance_outcomes(outcomes);
    ASSERT_EQ(outcomes.size(), actions.size());
    double total = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      ASSERT_EQ(outcomes[i].action, actions[i]);
      ASSERT_GT(outcomes[i].probability, 0.0);
      total += outcomes[i].probability;
    }
    ASSERT_NEAR(total, 1.0, 1e-9);
  } else {
    // The encoding has the declared shape and finite values.
    std::vector<float> planes(static_cast<std::size_t>(G::kPlanes.size()) + 1, 12345.0f);
    g.encode(std::span<float>(planes.data(), planes.size() - 1));
    ASSERT_EQ(planes.back(), 12345.0f) << "encode wrote past kPlanes";
    for (const float v : std::span<float>(planes.data(), planes.size() - 1))
      ASSERT_TRUE(std::isfinite(v));
    ASSERT_TRUE(std::none_of(planes.begin(), planes.end() - 1, [](float v) {
      return v == 12345.0f;
    })) << "encode left values unwritten";
  }

  // Copies are independent: acting on a copy leaves the original as it was.
  const std::uint64_t hash_before = g.hash();
  const std::string picture_before = g.render();
  G copy = g;
  copy.apply(actions[actions.size() / 2]);
  ASSERT_EQ(g.hash(), hash_before);
  ASSERT_EQ(g.render(), picture_before);

  // The identity symmetry is the identity; every symmetry maps the legal set onto the
  // legal set of the transformed state.
  const G same = g.symmetric(0);
  ASSERT_EQ(same.hash(), g.hash());
  if (!check_symmetries) return;
  for (int s = 1; s < G::kNumSymmetries; ++s) {
    const G t = g.symmetric(s);
    const bool swap = swaps_players<G>(s);
    ASSERT_EQ(t.to_act(), image_player(g.to_act(), swap));
    ActionListFor<G> image_actions;
    t.legal_actions(image_actions);
    std::set<Action> image(image_actions.begin(), image_actions.end());
    ASSERT_EQ(image.size(), actions.size())
        << "symmetry " << s << " changes the number of actions\n"
        << g.render() << "image:\n"
        << t.render();
    for (const Action a : actions)
      ASSERT_TRUE(image.count(g.symmetric_action(s, a)))
          << "symmetry " << s << ": image of " << g.action_to_string(a) << " ("
          << t.action_to_string(g.symmetric_action(s, a)) << ") is not legal\n"
          << g.render() << "image:\n"
          << t.render();
    // Acting then transforming equals transforming then acting the image.
    G after = g;
    after.apply(actions[0]);
    G image_after = t;
    image_after.apply(g.symmetric_action(s, actions[0]));
    ASSERT_EQ(after.is_terminal(), image_after.is_terminal());
    if (after.is_terminal()) {
      ASSERT_EQ(image_outcome(after.outcome(), swap), image_after.outcome());
    } else {
      ASSERT_EQ(after.symmetric(s).hash(), image_after.hash());
    }
  }
}

TYPED_TEST_P(Conformance, RandomGamesKeepTheContract) {
  using G = TypeParam;
  using Budget = ConformanceBudget<G>;
  for (int game = 0; game < Budget::kGames; ++game) {
    Rng rng(1000 + game);
    G g = G::random_setup(rng);
    int steps = 0;
    int position = 0;
    while (!g.is_terminal()) {
      ASSERT_LT(++steps, Budget::kMaxActionsPerGame) << "game " << game << " does not end";
      check_position(g, position++ % Budget::kSymmetryEvery == 0);
      if (::testing::Test::HasFatalFailure()) {
        ADD_FAILURE() << "in random game " << game << " after " << steps - 1 << " actions";
        return;
      }
      g.apply(random_action(g, rng));
    }
    (void)g.outcome();
  }
}

TYPED_TEST_P(Conformance, PerftIsTheSumOfChildrenPerft) {
  using G = TypeParam;
  using Budget = ConformanceBudget<G>;
  for (int game = 0; game < Budget::kPerftGames; ++game) {
    Rng rng(7000 + game);
    G g = G::random_setup(rng);
    for (int step = 0; !g.is_terminal(); ++step) {
      if (step % 7 == 0) {
        const auto children = perft_divide(g, Budget::kPerftDepth);
        std::uint64_t sum = 0;
        for (const auto& [a, n] : children) sum += n;
        ASSERT_EQ(perft(g, Budget::kPerftDepth), sum);
        ASSERT_EQ(perft(g, 1), children.size());
      }
      g.apply(random_action(g, rng));
    }
    ASSERT_EQ(perft(g, 1), 0u) << "a terminal state has no continuation";
  }
}

TYPED_TEST_P(Conformance, SameSeedSameGameAndRecordsReplay) {
  using G = TypeParam;
  for (int game = 0; game < 20; ++game) {
    Rng rng_a(42 + game), rng_b(42 + game);
    const G start_a = G::random_setup(rng_a), start_b = G::random_setup(rng_b);
    ASSERT_EQ(start_a.setup_string(), start_b.setup_string());
    const GameRecord a = play_random_game(start_a, rng_a);
    const GameRecord b = play_random_game(start_b, rng_b);
    ASSERT_EQ(a.actions, b.actions);
    ASSERT_EQ(a.outcome, b.outcome);
    // The record replays through the strict string interface to the same result.
    const G replayed = replay(G::from_setup(a.setup), a.actions);
    ASSERT_TRUE(replayed.is_terminal());
    ASSERT_EQ(replayed.outcome(), a.outcome);
  }
}

TYPED_TEST_P(Conformance, MalformedTextIsRejected) {
  using G = TypeParam;
  Rng rng(5);
  const G g = G::random_setup(rng);
  for (const char* text : {"", " ", "\t", "\xff"}) EXPECT_FALSE(g.parse_action(text).has_value());
  // Parsing is strict: surrounding whitespace is never part of an action string.
  for (const std::string& text : legal_set(g)) {
    EXPECT_FALSE(g.parse_action(" " + text).has_value()) << text;
    EXPECT_FALSE(g.parse_action(text + " ").has_value()) << text;
  }
  EXPECT_THROW(replay(g, {"definitely-not-an-action"}), Error);
}

// The planes a game declares constant (kConstantPlanes) hold one value on every cell, in
// every position and under every symmetry: inference graphs rely on it.
TYPED_TEST_P(Conformance, ConstantPlanesAreConstant) {
  using G = TypeParam;
  const std::vector<int> planes = constant_planes<G>();
  const int cells = G::kPlanes.height * G::kPlanes.width;
  for (const int plane : planes) ASSERT_TRUE(plane >= 0 && plane < G::kPlanes.channels) << plane;
  if (planes.empty()) return;
  std::vector<float> out(static_cast<std::size_t>(G::kPlanes.size()));
  int checked = 0;
  for (int game = 0; game < 6; ++game) {
    Rng rng(500 + game);
    G g = G::random_setup(rng);
    while (!g.is_terminal()) {
      if (g.to_act() != Player::kChance) {
        for (int s = 0; s < G::kNumSymmetries; s += (G::kNumSymmetries > 2 ? 3 : 1)) {
          (s == 0 ? g : g.symmetric(s)).encode(out);
          for (const int plane : planes)
            for (int c = 1; c < cells; ++c)
              ASSERT_EQ(out[static_cast<std::size_t>(plane) * cells + c],
                        out[static_cast<std::size_t>(plane) * cells])
                  << "plane " << plane << " cell " << c << " in game " << game << ", symmetry "
                  << s;
          ++checked;
        }
      }
      g.apply(random_action(g, rng));
    }
  }
  EXPECT_GT(checked, 0);
}

// A game's policy map (policy_slot) gives every policy index its own slot among the
// logit planes and globals, so a convolutional head never gives two actions one logit.
TYPED_TEST_P(Conformance, PolicyMapGivesEveryIndexItsOwnSlot) {
  using G = TypeParam;
  const PolicyMap map = policy_map<G>();
  if (map.slots.empty()) return;
  const int cells = G::kPlanes.height * G::kPlanes.width;
  ASSERT_GT(map.planes, 0);
  ASSERT_GE(map.globals, 0);
  ASSERT_EQ(static_cast<int>(map.slots.size()), G::kPolicySize);
  std::vector<bool> taken(static_cast<std::size_t>(map.planes * cells + map.globals), false);
  for (int i = 0; i < G::kPolicySize; ++i) {
    const int slot = map.slots[static_cast<std::size_t>(i)];
    ASSERT_TRUE(slot >= 0 && slot < static_cast<int>(taken.size()))
        << "index " << i << " slot " << slot;
    ASSERT_FALSE(taken[static_cast<std::size_t>(slot)]) << "index " << i << " shares slot " << slot;
    taken[static_cast<std::size_t>(slot)] = true;
  }
}

// A game's static evaluation (game_traits.hpp) stays in [-1, 1], is zero-sum between the
// players, is exact at the end, and respects the game's symmetries: an image position gets
// the same value, negated where the symmetry exchanges the players' roles.
TYPED_TEST_P(Conformance, EvaluationIsBoundedZeroSumAndSymmetric) {
  using G = TypeParam;
  if constexpr (!kHasEvaluation<G>) {
    GTEST_SKIP() << "no evaluate() hook";
  } else {
    int checked = 0;
    for (int game = 0; game < 30; ++game) {
      Rng rng(900 + game);
      G g = G::random_setup(rng);
      for (int step = 0;; ++step) {
        const float v = evaluation(g, Player::kP0);
        ASSERT_TRUE(std::isfinite(v) && v >= -1.0f && v <= 1.0f) << v << "\n" << g.render();
        ASSERT_EQ(evaluation(g, Player::kP1), -v);
        if (g.is_terminal()) {
          ASSERT_EQ(v, outcome_value(g.outcome(), Player::kP0));
          break;
        }
        if (step % 5 == 0) {
          for (int s = 1; s < G::kNumSymmetries; ++s) {
            const float image = evaluation(g.symmetric(s), Player::kP0);
            ASSERT_NEAR(image, swaps_players<G>(s) ? -v : v, 1e-5)
                << "symmetry " << s << " in game " << game << " at step " << step << "\n"
                << g.render();
          }
          ++checked;
        }
        g.apply(random_action(g, rng));
      }
    }
    EXPECT_GT(checked, 30);
  }
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, RandomGamesKeepTheContract, PerftIsTheSumOfChildrenPerft,
                            SameSeedSameGameAndRecordsReplay, MalformedTextIsRejected,
                            ConstantPlanesAreConstant, PolicyMapGivesEveryIndexItsOwnSlot,
                            EvaluationIsBoundedZeroSumAndSymmetric);

}  // namespace azg::testing
