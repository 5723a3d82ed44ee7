// Truchet rules, clause by clause, on hand-built positions (../shared/rules/truchet.md).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "env/common/board64.hpp"
#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"
#include "env/truchet/truchet.hpp"
#include "tests/test_util.hpp"

namespace azg {
namespace {

using Strings = std::set<std::string>;
using Phase = Truchet::Phase;
const std::string kZeros(49, '0');  // every tile "/": rivers run south-west to north-east

Strings with_prefix(const Truchet& g, const std::string& prefix) {
  Strings out;
  for (const auto& s : legal_set(g))
    if (s.rfind(prefix, 0) == 0) out.insert(s);
  return out;
}

int sq(const char* name) {
  return *board64::parse_square(name);
}

TEST(TruchetRules, RiverMovesOnlyThroughEmptyJunctionsOfTheStacksRegion) {
  // c3 lies on the a1-h8 river; e5 blocks it.
  const Truchet g = Truchet::from_stacks("c3:L1 e5:D1", kZeros, 0);
  EXPECT_EQ(with_prefix(g, "c3-"), (Strings{"c3-a1", "c3-b2", "c3-d4"}));
  // Flipping the tile a2 ("\\" joins a3 and b2) links b2 to a3, whose "/" river goes on to f8.
  std::string setup = kZeros;
  setup[7] = '1';  // tile a2
  const Truchet h = Truchet::from_stacks("c3:L1 e5:D1", setup, 0);
  EXPECT_EQ(with_prefix(h, "c3-"), (Strings{"c3-a1", "c3-b2", "c3-d4", "c3-a3", "c3-b4", "c3-c5",
                                            "c3-d6", "c3-e7", "c3-f8"}));
}

TEST(TruchetRules, TheRegionIsTheJunctionsNotTheChips) {
  // A Light stack on a dark junction (d4: 3 + 3 even) moves along d4's river.
  const Truchet g = Truchet::from_stacks("d4:L1 h8:D1", kZeros, 0);
  EXPECT_EQ(with_prefix(g, "d4-"), (Strings{"d4-a1", "d4-b2", "d4-c3", "d4-e5", "d4-f6", "d4-g7"}));
}

TEST(TruchetRules, SplitsShareAllChipsOverTwoToFourNeighbours) {
  // d4:L3; e4 is Light's own (no destination), d3:D2 needs 2 or more, c4:D1 needs 1.
  const Truchet g = Truchet::from_stacks("d4:L3 e4:L1 d3:D2 c4:D1 h8:D1", kZeros, 0);
  EXPECT_EQ(with_prefix(g, "d4/"), (Strings{"d4/N1S2", "d4/N1W2", "d4/N2W1", "d4/S2W1"}));
  EXPECT_FALSE(g.parse_action("d4/N3").has_value() && legal_set(g).count("d4/N3"))
      << "one destination is no split";
  const Truchet after = replay(g, {"d4/S2W1"});
  EXPECT_EQ(after.colour_at(sq("d4")), -1);
  EXPECT_EQ(after.colour_at(sq("d3")), 0);
  EXPECT_EQ(after.height_at(sq("d3")), 2) << "the Dark pair is captured, not stacked on";
  EXPECT_EQ(after.colour_at(sq("c4")), 0);
  EXPECT_EQ(after.height_at(sq("c4")), 1);
  EXPECT_EQ(after.to_act(), Player::kP1);
}

TEST(TruchetRules, MergesNeedTwoSourcesAtMostFourAndEnoughForTheDefender) {
  // Centre d4 holds D3; Light has d5:L1, e4:L2, c4:L1 around it.
  const Truchet g = Truchet::from_stacks("d4:D3 d5:L1 e4:L2 c4:L1 h8:D1", kZeros, 0);
  EXPECT_EQ(with_prefix(g, "d4<"), (Strings{"d4<NE", "d4<EW", "d4<NEW"}));
  const Truchet after = replay(g, {"d4<NEW"});
  EXPECT_EQ(after.colour_at(sq("d4")), 0);
  EXPECT_EQ(after.height_at(sq("d4")), 4);
  for (const char* s : {"d5", "e4", "c4"}) EXPECT_EQ(after.colour_at(sq(s)), -1) << s;
  // Never onto one's own chips, never above 4.
  const Truchet own = Truchet::from_stacks("d4:L1 d5:L1 e4:L1 h8:D1", kZeros, 0);
  EXPECT_TRUE(with_prefix(own, "d4<").empty());
  const Truchet tall = Truchet::from_stacks("d4:D1 d5:L3 e4:L2 h8:D1", kZeros, 0);
  EXPECT_TRUE(with_prefix(tall, "d4<").empty());
}

TEST(TruchetRules, AfterARiverMoveOnlyTheMovedStackSplitsOrMerges) {
  // b2 and d2 could merge onto c2, but after c6-b5 (an unrelated stack) only the moved
  // stack may act: merges onto b6 or c5? none has a second source; done is offered.
  const Truchet g = Truchet::from_stacks("b2:L1 d2:L1 c6:L2 h8:D1", kZeros, 0);
  EXPECT_TRUE(legal_set(g).count("c2<EW"));
  const Truchet after = replay(g, {"c6-b5"});
  EXPECT_EQ(after.phase(), Phase::kAfterRiver);
  EXPECT_EQ(legal_set(after),
            (Strings{"done", "b5/N1E1", "b5/N1S1", "b5/N1W1", "b5/E1S1", "b5/E1W1", "b5/S1W1"}));
  // With a partner next to the landing square, merges must include the moved stack.
  const Truchet partner =
      replay(Truchet::from_stacks("b2:L1 d2:L1 c6:L1 a4:L1 h8:D1", kZeros, 0), {"c6-b5"});
  EXPECT_EQ(with_prefix(partner, "a5<"), (Strings{"a5<ES"}));
  EXPECT_FALSE(legal_set(partner).count("c2<EW"));
}

TEST(TruchetRules, FlipsOnlyOnEmptyTilesAndThenAStackAction) {
  const Truchet g = Truchet::from_stacks("a1:L1 h8:D1", kZeros, 0);
  // Every tile except a1 (corner a1 taken) and g7 (corner h8 taken) can flip.
  EXPECT_EQ(with_prefix(g, "F").size(), 47u);
  EXPECT_FALSE(legal_set(g).count("Fa1"));
  EXPECT_FALSE(legal_set(g).count("Fg7"));
  const Truchet flipped = replay(g, {"Fb2"});
  EXPECT_EQ(flipped.phase(), Phase::kAfterFlip);
  EXPECT_TRUE(with_prefix(flipped, "F").empty()) << "one flip per turn";
  EXPECT_TRUE(flipped.tile(1, 1));
  EXPECT_EQ(flipped.to_act(), Player::kP0) << "the flip is followed by the stack action";
}

TEST(TruchetRules, BaseWinWithThreeOfFour) {
  // Light holds a1 and e1; d2 slides to c1 along the river: three of Dark's bases.
  const Truchet g = Truchet::from_stacks("a1:L1 e1:L1 d2:L1 h8:D1 h6:D1", kZeros, 0);
  const Truchet moved = replay(g, {"d2-c1"});
  EXPECT_FALSE(moved.is_terminal()) << "the turn is not over before done";
  const Truchet won = replay(moved, {"done"});
  ASSERT_TRUE(won.is_terminal());
  EXPECT_EQ(won.outcome(), Outcome::kP0Win);
  const Truchet two =
      replay(Truchet::from_stacks("a1:L1 d2:L1 h8:D1 h6:D1", kZeros, 0), {"d2-c1", "done"});
  EXPECT_FALSE(two.is_terminal()) << "two bases are not enough";
}

TEST(TruchetRules, WipeOutWins) {
  const Truchet g = Truchet::from_stacks("c4:L1 e4:L1 d4:D1", kZeros, 0);
  const Truchet won = replay(g, {"d4<EW"});
  ASSERT_TRUE(won.is_terminal());
  EXPECT_EQ(won.outcome(), Outcome::kP0Win);
}

TEST(TruchetRules, NoStackActionLosesFlipsDoNotCount) {
  // Dark's lone a1 is blocked by b2 on its river: after Light's turn Dark cannot act.
  const Truchet g = Truchet::from_stacks("b2:L1 h8:L1 a1:D1", kZeros, 0);
  const Truchet after = replay(g, {"h8-g7", "done"});
  ASSERT_TRUE(after.is_terminal());
  EXPECT_EQ(after.outcome(), Outcome::kP0Win);
}

TEST(TruchetRules, ThreefoldRepetitionIsADraw) {
  Truchet g = Truchet::from_stacks("h8:L1 a1:D1", kZeros, 0);
  const std::vector<std::string> cycle = {"h8-g7", "done", "a1-b2", "done",
                                          "g7-h8", "done", "b2-a1", "done"};
  g = replay(g, cycle);
  EXPECT_EQ(g.repetitions(), 2);
  EXPECT_FALSE(g.is_terminal());
  g = replay(g, std::vector<std::string>(cycle.begin(), cycle.end() - 2));
  EXPECT_FALSE(g.is_terminal());
  g = replay(g, {"b2-a1", "done"});
  ASSERT_TRUE(g.is_terminal());
  EXPECT_EQ(g.outcome(), Outcome::kDraw);
}

TEST(TruchetRules, TheCapEndsInADrawButAWinOnTheLastTurnStands) {
  const Truchet capped =
      replay(Truchet::from_stacks("h8:L1 a1:D1", kZeros, 0, 299), {"h8-g7", "done"});
  ASSERT_TRUE(capped.is_terminal());
  EXPECT_EQ(capped.outcome(), Outcome::kDraw);
  const Truchet won = replay(Truchet::from_stacks("c4:L1 e4:L1 d4:D1", kZeros, 0, 299), {"d4<EW"});
  EXPECT_EQ(won.outcome(), Outcome::kP0Win);
}

TEST(TruchetRules, ActionStringsAreStrict) {
  const Truchet g = Truchet::from_stacks("d4:L3 h8:D1", kZeros, 0);
  for (const char* bad : {"d4/E2N1", "d4/N0E3", "d4/N5", "d4/", "d4<", "d4<EN", "Fh1", "Fa8",
                          "d4-d9", "Done", "d4 -e5"})
    EXPECT_FALSE(g.parse_action(bad).has_value()) << bad;
  EXPECT_EQ(g.action_to_string(*g.parse_action("d4/N1E2")), "d4/N1E2");
  EXPECT_EQ(g.action_to_string(*g.parse_action("Fc3")), "Fc3");
}

TEST(TruchetRules, SetupIsValidated) {
  EXPECT_THROW(Truchet::from_setup("01"), Error);
  EXPECT_THROW(Truchet::from_setup(std::string(48, '0') + "2"), Error);
  EXPECT_EQ(Truchet::from_setup(kZeros).setup_string(), kZeros);
}

}  // namespace
}  // namespace azg

namespace azg {
namespace {

// Encoding 2: at the start of a turn plane 20 is exactly the set of river-move
// destinations of the player to act; the colour-swapping flip maps each side's reach
// plane onto the other's image.
TEST(TruchetEncoding, RiverReachPlanesAreTheRiverMoveDestinations) {
  Rng rng(5);
  std::vector<float> planes(Truchet::kPlanes.size());
  int checked = 0;
  for (int game = 0; game < 30; ++game) {
    Truchet s = Truchet::random_setup(rng);
    const int stop = static_cast<int>(rng.below(60));
    for (int k = 0; k < stop && !s.is_terminal(); ++k) s.apply(random_action(s, rng));
    if (s.is_terminal() || s.phase() != Phase::kStart) continue;
    s.encode(planes);
    std::uint64_t destinations = 0;
    ActionListFor<Truchet> actions;
    s.legal_actions(actions);
    for (const Action a : actions)
      if (Truchet::kind_of(a) == Truchet::kRiverKind)
        destinations |= std::uint64_t{1} << Truchet::to_of(a);
    std::uint64_t own = 0, opponent = 0;
    for (int j = 0; j < 64; ++j) {
      if (planes[20 * 64 + j] == 1.0f) own |= std::uint64_t{1} << j;
      if (planes[21 * 64 + j] == 1.0f) opponent |= std::uint64_t{1} << j;
    }
    EXPECT_EQ(own, destinations) << s.render();
    std::vector<float> flipped(Truchet::kPlanes.size());
    s.symmetric(1).encode(flipped);
    std::uint64_t own_image = 0, opponent_image = 0;
    for (int j = 0; j < 64; ++j) {
      const std::uint64_t image = std::uint64_t{1} << ((7 - j / 8) * 8 + j % 8);
      if (flipped[20 * 64 + j] == 1.0f) own_image |= image;
      if (flipped[21 * 64 + j] == 1.0f) opponent_image |= image;
    }
    EXPECT_EQ(own_image, own);
    EXPECT_EQ(opponent_image, opponent);
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace azg
