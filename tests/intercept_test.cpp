// Intercept: perft and rules on hand-built positions (../shared/rules/intercept.md).
#include "env/intercept/intercept.hpp"

#include <gtest/gtest.h>

#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/common/random_play.hpp"
#include "tests/test_util.hpp"

namespace azg {
namespace {

using Phase = Intercept::Phase;
using Strings = std::set<std::string>;

Strings starting(const Intercept& g, const std::string& prefix) {
  Strings out;
  for (const auto& s : legal_set(g))
    if (s.rfind(prefix, 0) == 0) out.insert(s);
  return out;
}

TEST(InterceptPerft, InitialPosition) {
  const std::uint64_t expected[] = {52, 1854, 71694};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(Intercept{}, d), expected[d - 1]) << d;
}

// Our own figures (regressions): depth 4 from the start, and 120 actions into a random game
// (azg play-random --game intercept --seed 9).
TEST(InterceptPerft, RegressionFigures) {
  EXPECT_EQ(perft(Intercept{}, 4), 2850586u);
  const Intercept g =
      replay(Intercept{}, split_words("b1-b2 e13-d12 d1xb1 b1xb3 k13xm13 l1-m1 g13xe13 e13xc11 "
                                      "flip g1-b6 keep m13xk13 f1xd1 d1xb1 "
                                      "k13xm13 b6-b4 flip d12-e13 b4-m4 keep h13-i12 b3-c3 c11-e9 "
                                      "flip h1-g2 j13-j12 j1-i2 e9-j9 keep "
                                      "m1-l1 i12-i11 b1-a2 j9-j11 keep i2-j2 j11-j7 keep l1-m1 "
                                      "i11-j10 m1-l1 j12-i12 i1-h1 j7-l7 keep "
                                      "b2-b3 l7-j9 keep m4-m1 flip j9-m12 keep l1-m2 m12-m10 keep "
                                      "g2-g3 b13-a12 a2-a3 m13-l12 e1-f1 "
                                      "m10-d1 flip c3-b2 l13xl11 g3-h2 c13-b12 m2-l1 d1xb1 b1xm12 "
                                      "stop flip h1xh3 e13-d12 m1-m8 flip "
                                      "i12-i11 m8-l9 flip j10-j11 l9-l5 flip f13-e12 h2-h1 m12-m10 "
                                      "keep h1-i1 i13-i12 l5-h9 flip m10-h5 "
                                      "flip k1-j1 l12-k13 j2-j3 i11-j12 h9-f7 flip i12-h12 f7-g8 "
                                      "keep d13xd11 stop g8-k4 keep d12xd10 "
                                      "k4-l5 keep d10-c9 l5-m5 flip l11-l12 b3xb1 stop c9-b9 f1-g2 "
                                      "h5-c10 keep m5-m11 flip c10-l10 keep"));
  const std::uint64_t expected[] = {74, 5611, 274499};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(g, d), expected[d - 1]) << d;
}

TEST(InterceptRules, JumpsOverADoubleOrTheCarrierAreRefused) {
  // e5 (passage) next to the double f5 and the carrier e6.
  const Intercept g = Intercept::from_pawns("e5:LP f5:DD e6:LR a13:DP", "e6", 0);
  EXPECT_FALSE(legal_set(g).count("e5xg5")) << "over a double";
  EXPECT_FALSE(legal_set(g).count("e5xe7")) << "over the carrier";
  const Intercept h = Intercept::from_pawns("e5:LP f5:DR a13:DP", "a1", 0);
  EXPECT_TRUE(legal_set(h).count("e5xg5"));
}

TEST(InterceptRules, TheLoneBallBlocks) {
  const Intercept g = Intercept::from_pawns("g6:LP a13:DP", "g7", 0);
  EXPECT_FALSE(legal_set(g).count("g6-g7"));
  EXPECT_FALSE(legal_set(g).count("g6xg8"));
}

TEST(InterceptRules, TheDoublesLongSlideAndLongJump) {
  const Intercept g = Intercept::from_pawns("a1:LD a5:DP a13:DR", "m13", 0);
  EXPECT_EQ(starting(g, "a1-a"), (Strings{"a1-a2", "a1-a3", "a1-a4"}));
  EXPECT_TRUE(legal_set(g).count("a1xa6")) << "over empty squares, then one pawn";
  EXPECT_TRUE(legal_set(g).count("a1-m13") == 0) << "the carrier's square is occupied";
  // The double may jump another double.
  const Intercept d = Intercept::from_pawns("a1:LD a3:DD a13:DR", "m13", 0);
  EXPECT_TRUE(legal_set(d).count("a1xa4"));
}

TEST(InterceptRules, ChainsStopAndNoRevisiting) {
  // e5 jumps f5 to g5, then may jump g6 to g7... or stop; it may not come back to e5.
  Intercept g = Intercept::from_pawns("e5:LP f5:DP g6:DR a13:DP", "a1", 0);
  g = replay(g, {"e5xg5"});
  ASSERT_EQ(g.phase(), Phase::kChain);
  EXPECT_EQ(legal_set(g), (Strings{"stop", "g5xg7"})) << "g5xe5 would revisit the start square";
  const Intercept stopped = replay(g, {"stop"});
  EXPECT_NE(stopped.phase(), Phase::kChain);
}

TEST(InterceptRules, TheDoubleFlipsOrKeepsAfterMovingAndMayFlipInPlace) {
  Intercept g = Intercept::from_pawns("a1:LD a13:DP", "m13", 0);
  EXPECT_TRUE(legal_set(g).count("Fa1"));
  g = replay(g, {"a1-a2"});
  ASSERT_EQ(g.phase(), Phase::kFlipChoice);
  EXPECT_EQ(legal_set(g), (Strings{"flip", "keep"}));
  const Intercept flipped = replay(g, {"flip"});
  EXPECT_FALSE(flipped.top(13) & 16) << "rest face up";
  // The carrier cannot flip in place.
  EXPECT_FALSE(legal_set(Intercept::from_pawns("a1:LD a13:DP", "a1", 0)).count("Fa1"));
}

TEST(InterceptRules, BallPathsAlongOwnPawnsWithTheMovedPawnOnThePath) {
  // Carrier c3 (Light rest); path c3 - d4 (passage) - e5 (rest) - f6 (passage) - g7 (rest)
  // once h8 slides to g7. e5 is on the way but before the moved pawn, and the path may not
  // come back along the line (distinct squares): g7 is the only destination.
  const Intercept g = Intercept::from_pawns("c3:LR d4:LP e5:LR f6:LP h8:LR a13:DP", "c3", 0);
  const Intercept after = replay(g, {"h8-g7"});
  ASSERT_EQ(after.phase(), Phase::kBall);
  EXPECT_EQ(legal_set(after), (Strings{"pass", "Bg7"}))
      << "only paths through the moved pawn count";
  // The straight-line rule: with f6 off the line (f7 instead), g7 cannot be reached.
  const Intercept bent =
      replay(Intercept::from_pawns("c3:LR d4:LP e5:LR f7:LP h8:LR a13:DP", "c3", 0), {"h8-g7"});
  EXPECT_NE(bent.phase(), Phase::kBall) << "no destination: the ball step is skipped";
}

TEST(InterceptRules, TheFirstHopMayTurnAtP1AndTheBallCanBeTakenFromTheOpponent) {
  // The ball sits on a Dark pawn at e5; Light's passage e6 then rest f7 (a turn at P1).
  const Intercept g = Intercept::from_pawns("e5:DR e6:LP g7:LR a13:DP", "e5", 0);
  const Intercept after = replay(g, {"g7-f7"});
  EXPECT_TRUE(legal_set(after).count("Bf7"));
}

TEST(InterceptRules, ThePathsSquaresAreDistinct) {
  // From the carrier a1 the ball reaches c3 (over b2), then either e5 (over d4; e5 is the
  // pawn just moved) or e3 (over d3). e3 would need the moved pawn on the path: only a
  // walk out to e5 and back through d4 and c3 would give that, and it repeats squares.
  const Intercept g =
      Intercept::from_pawns("a1:LR b2:LP c3:LR d4:LP e6:LR d3:LP e3:LR a13:DP", "a1", 0);
  const Intercept after = replay(g, {"e6-e5"});
  ASSERT_EQ(after.phase(), Phase::kBall);
  EXPECT_EQ(legal_set(after), (Strings{"pass", "Be5"}));
  // With e3 the moved pawn instead, e3 is the one destination.
  const Intercept other =
      replay(Intercept::from_pawns("a1:LR b2:LP c3:LR d4:LP e5:LR d3:LP f3:LR a13:DP", "a1", 0),
             {"f3-e3"});
  EXPECT_EQ(legal_set(other), (Strings{"pass", "Be3"}));
}

TEST(InterceptRules, AnInPlaceFlipCountsAsTheMovedPawn) {
  // d4 shows its rest face: no path. Flipped in place it is a passage pawn on the path.
  const Intercept g = Intercept::from_pawns("c3:LR d4:Ld e5:LR a13:DP", "c3", 0);
  const Intercept after = replay(g, {"Fd4"});
  ASSERT_EQ(after.phase(), Phase::kBall);
  EXPECT_EQ(legal_set(after), (Strings{"pass", "Be5"}));
}

TEST(InterceptRules, TheOpponentsGoalIsOnlyEverTheLastSquare) {
  // A Light passage pawn standing on Dark's goal g13 cannot carry the path on to h12.
  const Intercept g = Intercept::from_pawns("f12:LR g13:LP h11:LR a1:DP", "f12", 0);
  const Intercept after = replay(g, {"h11-h12"});
  EXPECT_NE(after.phase(), Phase::kBall) << "no destination";
  EXPECT_EQ(after.to_act(), Player::kP1);
}

TEST(InterceptRules, ReachingTheOpponentsGoalWins) {
  // Light carries on g11; passage g12 next to Dark's goal g13 (empty): B g13 wins.
  const Intercept g = Intercept::from_pawns("g11:LR f12:LP a1:DP", "g11", 0);
  const Intercept after = replay(g, {"f12-g12"});
  ASSERT_TRUE(legal_set(after).count("Bg13"));
  const Intercept won = replay(after, {"Bg13"});
  ASSERT_TRUE(won.is_terminal());
  EXPECT_EQ(won.outcome(), Outcome::kP0Win);
}

TEST(InterceptRules, CoveringBothWaysAndUncovering) {
  // A rest pawn may cover an opponent pawn on the opponent's goal.
  const Intercept g = Intercept::from_pawns("g12:LR g13:DP a1:DP", "g7", 0);
  ASSERT_TRUE(legal_set(g).count("g12-g13"));
  const Intercept covered = replay(g, {"g12-g13"});
  EXPECT_TRUE(covered.covered(12 * 13 + 6)) << "the Dark pawn is below";
  EXPECT_FALSE(starting(covered, "g13").size()) << "a covered pawn cannot move";
  // A passage pawn may cover next to the goal only when all five neighbours are enemy.
  const std::string ring = "f13:DP h13:DP f12:DP g12:DP h12:DP a1:DR";
  EXPECT_TRUE(legal_set(Intercept::from_pawns(ring + " f11:LP", "a1", 0)).count("f11-f12"));
  EXPECT_FALSE(legal_set(Intercept::from_pawns("f13:DP h13:DP f12:DP g12:DP a1:DR f11:LP", "a1", 0))
                   .count("f11-f12"));
  // Leaving uncovers the pawn below.
  const Intercept back = replay(covered, {"a1-a2", "g13-g12"});
  EXPECT_FALSE(back.covered(12 * 13 + 6));
  EXPECT_EQ(back.top(12 * 13 + 6), Intercept::pawn(1, Intercept::kPassage, true));
}

TEST(InterceptRules, NoMoveLosesAndTheCapDraws) {
  // Dark's only pawn is the carrier: no move for Dark after Light's turn.
  const Intercept g = Intercept::from_pawns("a1:LP m13:DP", "m13", 0);
  const Intercept after = replay(g, {"a1-a2"});
  ASSERT_TRUE(after.is_terminal());
  EXPECT_EQ(after.outcome(), Outcome::kP0Win);
  const Intercept capped = replay(Intercept::from_pawns("a1:LP m1:DP", "g7", 0, 299), {"a1-a2"});
  ASSERT_TRUE(capped.is_terminal());
  EXPECT_EQ(capped.outcome(), Outcome::kDraw);
}

}  // namespace
}  // namespace azg

namespace azg {
namespace {

// Encoding 2: plane 21 (where the player to act could take the ball, whichever pawn
// moved) holds every ball destination the rules offer in the ball phase, which also
// needs the moved pawn on the path.
TEST(InterceptEncoding, BallReachPlaneHoldsEveryBallDestination) {
  Rng rng(3);
  std::vector<float> planes(Intercept::kPlanes.size());
  int destinations = 0;
  for (int game = 0; game < 40; ++game) {
    Intercept s;
    for (int k = 0; k < 400 && !s.is_terminal(); ++k) {
      if (s.phase() == Phase::kBall) {
        s.encode(planes);
        ActionListFor<Intercept> actions;
        s.legal_actions(actions);
        for (const Action a : actions)
          if (Intercept::kind_of(a) == Intercept::kBallKind) {
            EXPECT_EQ(planes[21 * Intercept::kSquares + Intercept::to_of(a)], 1.0f) << s.render();
            ++destinations;
          }
      }
      s.apply(random_action(s, rng));
    }
  }
  EXPECT_GT(destinations, 20) << "random games reach the ball phase with destinations";
}

}  // namespace
}  // namespace azg

// The evaluation treats the colours alike: the half-turn image of a position with the
// colours exchanged (declared as symmetry 2, built here independently from the pawn list)
// gets the negated value. Checked at the start of turns of random games, before any
// covering.
namespace azg {
namespace {

std::string pawn_list(const Intercept& g, bool half_turn) {
  std::string out;
  for (int sq = 0; sq < Intercept::kSquares; ++sq) {
    const std::uint8_t p = g.top(sq);
    if (!p) continue;
    const int image = half_turn ? Intercept::kSquares - 1 - sq : sq;
    const int colour = ((p >> 1) & 1) ^ (half_turn ? 1 : 0);
    const int kind = (p >> 2) & 3;
    const bool passage = p & 16;
    out += std::string(1, static_cast<char>('a' + image % 13)) + std::to_string(image / 13 + 1) +
           ":" + (colour == 0 ? "L" : "D") +
           (kind == 0   ? "P"
            : kind == 1 ? "R"
            : passage   ? "D"
                        : "d") +
           " ";
  }
  return out;
}

std::string square_name(int sq) {
  return std::string(1, static_cast<char>('a' + sq % 13)) + std::to_string(sq / 13 + 1);
}

// The path cost counts the pawn moves a side needs before a ball path runs to its goal.
TEST(InterceptEvaluation, ThePathCostCountsTheMissingMoves) {
  const Intercept start;
  EXPECT_EQ(start.path_cost(0), start.path_cost(1)) << "the start is symmetric";
  EXPECT_GT(start.path_cost(0), 30) << "every path square is far from the back rows";
  // Light's ball on g7 with P and R alternating up the g file to the open goal g13.
  const std::string ladder = "g7:LR g8:LP g9:LR g11:LR g12:LP a13:DR m13:DP ";
  const Intercept ready = Intercept::from_pawns(ladder + "g10:LP", "g7", 0);
  EXPECT_EQ(ready.path_cost(0), 0);
  EXPECT_NEAR(ready.evaluate(), 0.9, 1e-12) << "the mover can score";
  // The passage pawn of g10 stands three squares off: three moves, no cheaper detour.
  const Intercept missing = Intercept::from_pawns(ladder + "d10:LP", "g7", 0);
  EXPECT_EQ(missing.path_cost(0), 3);
  // A Dark pawn on g10 must leave as well: dearer than the empty square.
  const Intercept blocked = Intercept::from_pawns(ladder + "d10:LP g10:DR", "g7", 0);
  EXPECT_GT(blocked.path_cost(0), missing.path_cost(0));
  // Light to move with the cheaper path is ahead; Dark to move in the same position less so.
  EXPECT_GT(missing.evaluate(), 0);
  const Intercept dark_to_move = Intercept::from_pawns(ladder + "d10:LP", "g7", 1);
  EXPECT_LT(dark_to_move.evaluate(), missing.evaluate());
}

TEST(InterceptEvaluation, TheColourSwappedHalfTurnImageHasTheNegatedValue) {
  int checked = 0;
  for (int game = 0; game < 20; ++game) {
    Rng rng(40 + game);
    Intercept g;
    while (!g.is_terminal()) {
      bool covered = false;
      for (int sq = 0; sq < Intercept::kSquares; ++sq) covered = covered || g.covered(sq);
      if (g.phase() == Intercept::Phase::kMove && !covered) {
        const Intercept same = Intercept::from_pawns(pawn_list(g, false), square_name(g.ball()),
                                                     static_cast<int>(g.to_act()), g.turn());
        const Intercept image = Intercept::from_pawns(
            pawn_list(g, true), square_name(Intercept::kSquares - 1 - g.ball()),
            1 - static_cast<int>(g.to_act()), g.turn());
        ASSERT_NEAR(same.evaluate(), g.evaluate(), 1e-12) << "the builder keeps the position";
        ASSERT_NEAR(image.evaluate(), -g.evaluate(), 1e-9) << g.render() << image.render();
        ++checked;
      }
      g.apply(random_action(g, rng));
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace azg

namespace azg {
namespace {

// The rules treat the colours alike: a position and its colour-swapped half-turn image
// have the same number of continuations (perft 2: the move, then jumps, flips or ball),
// and the declared symmetry 2 builds that image (the conformance suite checks that every
// symmetry commutes with the rules; this pins down which image 2 is).
TEST(InterceptRules, TheColourSwappedHalfTurnImageHasTheSamePerft) {
  int checked = 0;
  for (int game = 0; game < 6; ++game) {
    Rng rng(70 + game);
    Intercept g;
    int step = 0;
    while (!g.is_terminal()) {
      bool covered = false;
      for (int sq = 0; sq < Intercept::kSquares; ++sq) covered = covered || g.covered(sq);
      if (g.phase() == Intercept::Phase::kMove && !covered && ++step % 5 == 0) {
        const Intercept same = Intercept::from_pawns(pawn_list(g, false), square_name(g.ball()),
                                                     static_cast<int>(g.to_act()), g.turn());
        const Intercept image = Intercept::from_pawns(
            pawn_list(g, true), square_name(Intercept::kSquares - 1 - g.ball()),
            1 - static_cast<int>(g.to_act()), g.turn());
        ASSERT_EQ(perft(same, 2), perft(image, 2)) << same.render() << image.render();
        ASSERT_EQ(same.symmetric(2).hash(), image.hash()) << same.render() << image.render();
        ASSERT_EQ(same.symmetric(3).hash(), image.symmetric(1).hash());
        ++checked;
      }
      g.apply(random_action(g, rng));
    }
  }
  EXPECT_GT(checked, 50);
}

// The start is its own colour-swapped half-turn image, with Dark to move: the symmetry
// shows the network each opening from both sides.
TEST(InterceptRules, TheStartsHalfTurnImageIsTheStartWithDarkToMove) {
  const Intercept start;
  const Intercept image = start.symmetric(2);
  EXPECT_EQ(image.to_act(), Player::kP1);
  EXPECT_EQ(image.hash(), Intercept::from_pawns(pawn_list(start, false), "g7", 1).hash());
  EXPECT_TRUE(Intercept::symmetry_swaps_players(2) && Intercept::symmetry_swaps_players(3));
  EXPECT_FALSE(Intercept::symmetry_swaps_players(1));
  // Light's b1-b2 is Dark's l13-l12 in the image.
  const Action b1b2 = *start.parse_action("b1-b2");
  EXPECT_EQ(image.action_to_string(start.symmetric_action(2, b1b2)), "l13-l12");
}

}  // namespace
}  // namespace azg
