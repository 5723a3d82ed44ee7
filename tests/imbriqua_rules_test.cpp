// Imbriqua rules, clause by clause, on hand-built positions (../shared/rules/imbriqua.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "env/common/board64.hpp"
#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "tests/test_util.hpp"

namespace azg {
namespace {

using Phase = Imbriqua::Phase;
using Strings = std::set<std::string>;

std::uint64_t bb(std::initializer_list<const char*> squares) {
  std::uint64_t b = 0;
  for (const char* s : squares) b |= board64::bit(*board64::parse_square(s));
  return b;
}

int sq(const char* name) {
  return *board64::parse_square(name);
}

constexpr const char* kOpening = "d7 e7 e4 b1 d1 h8 f4 e2";

TEST(ImbriquaRules, OpeningPlacementsAnywhereThenInnerSquaresOnly) {
  EXPECT_EQ(legal_set(Imbriqua{}).size(), 64u);
  EXPECT_TRUE(legal_set(Imbriqua{}).count("a1")) << "edges allowed in the opening";
  const Imbriqua g = replay(Imbriqua{}, split_words(kOpening));
  EXPECT_EQ(g.turn(), 1);
  EXPECT_EQ(g.to_act(), Player::kP0);
  const Strings places = legal_set(g);
  EXPECT_EQ(places.size(), 31u);  // 36 inner squares, 5 of them taken
  EXPECT_FALSE(places.count("a4"));
  EXPECT_FALSE(places.count("e4"));
}

TEST(ImbriquaRules, EdgePlacementOnlyWhenEveryInnerSquareIsTaken) {
  const std::uint64_t inner = ~board64::kEdges;
  const Imbriqua g =
      Imbriqua::from_position(inner & 0x5555555555555555ull, inner & 0xAAAAAAAAAAAAAAAAull, 12,
                              "O1 D1 ON DN OJ DJ OL DL O2 D2");
  const Strings places = legal_set(g);
  EXPECT_EQ(places.size(), 28u);
  EXPECT_TRUE(places.count("a1"));
  EXPECT_TRUE(places.count("h8"));
}

TEST(ImbriquaRules, RevealsAreChanceWithEqualProbabilitiesUntilOneCardIsLeft) {
  Imbriqua g = replay(Imbriqua{}, split_words(kOpening));
  EXPECT_EQ(g.card_of_turn(1), Imbriqua::kNoCard) << "nobody knows pile 1";
  g = replay(g, {"c3"});
  ASSERT_EQ(g.to_act(), Player::kChance);
  FixedList<ChanceOutcome, Imbriqua::kMaxActions> outcomes;
  g.chance_outcomes(outcomes);
  ASSERT_EQ(outcomes.size(), 10u);
  for (const auto& o : outcomes) EXPECT_DOUBLE_EQ(o.probability, 0.1);
  EXPECT_EQ(legal_set(g), (Strings{"O1", "D1", "ON", "DN", "OJ", "DJ", "OL", "DL", "O2", "D2"}));
  EXPECT_THROW(replay(g, {"P2"}), Error) << "P2 is never drawn: it lies under pile 1";

  // Turn 9 draws between two cards; the tenth is then known and turn 10 has no reveal.
  Imbriqua late = Imbriqua::from_position(bb({"b2"}), bb({"g7"}), 9, "O1 D1 ON DN OJ DJ OL DL");
  late = replay(late, {"d4"});
  ASSERT_EQ(late.to_act(), Player::kChance);
  late.chance_outcomes(outcomes);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_DOUBLE_EQ(outcomes[0].probability, 0.5);
  late = replay(late, {"D2"});
  EXPECT_EQ(late.card_of_turn(10), Imbriqua::kO2) << "known by elimination";
  EXPECT_EQ(late.current_card(), Imbriqua::kD2);
}

TEST(ImbriquaRules, TheFullOrderOfTheFortyFourCards) {
  const Imbriqua g = Imbriqua::from_position(0, 0, 11, "DL O1 D2 ON OJ DN O2 DJ D1 OL");
  const std::string pile1[] = {"DL", "O1", "D2", "ON", "OJ", "DN", "O2", "DJ", "D1", "OL", "P2"};
  for (int t = 1; t <= 44; ++t) {
    const int i = (t - 1) % 11;
    const bool reversed = ((t - 1) / 11) % 2 == 1;
    const std::string expected = reversed ? pile1[10 - i] : pile1[i];
    EXPECT_EQ(Imbriqua::card_code(g.card_of_turn(t)), expected) << "turn " << t;
  }
}

TEST(ImbriquaRules, HiddenCardsReachNeitherTextNorEncoding) {
  const Imbriqua before = replay(Imbriqua{}, split_words(std::string(kOpening) + " c3"));
  ASSERT_EQ(before.to_act(), Player::kChance);
  EXPECT_NE(before.render().find("cards: ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? P2 | P2 ?? "),
            std::string::npos);
  const Imbriqua after = replay(before, {"OJ"});
  EXPECT_NE(after.render().find("cards: OJ ?? ?? ?? ?? ?? ?? ?? ?? ?? P2 | P2 ?? "),
            std::string::npos)
      << after.render();
  // The encoding shows the revealed card and, for pile 1, only which cards are still hidden.
  std::vector<float> planes(Imbriqua::kPlanes.size());
  after.encode(planes);
  auto plane_value = [&](int plane) { return planes[plane * 64 + 27]; };
  EXPECT_EQ(plane_value(4 + Imbriqua::kOJ), 1.0f) << "current card";
  for (int c = 0; c < Imbriqua::kShuffled; ++c)
    EXPECT_EQ(plane_value(15 + c), c == Imbriqua::kOJ ? 0.0f : 1.0f) << "hidden set, card " << c;
  for (int p = 25; p < 25 + 33; ++p) EXPECT_EQ(plane_value(p), 0.0f) << "next cards are unknown";
  // Every possible reveal gives a different future, but the state before it is one state.
  EXPECT_EQ(replay(Imbriqua{}, split_words(std::string(kOpening) + " c3")).hash(), before.hash());
}

TEST(ImbriquaRules, OrthogonalAndDiagonalSteps) {
  const Imbriqua o1 = Imbriqua::with_card(bb({"d4", "a1"}), bb({"d5"}), 0, sq("d4"), Imbriqua::kO1);
  EXPECT_EQ(legal_set(o1), (Strings{"d4-e4", "d4-d3", "d4-c4", "a1-a2", "a1-b1"}));
  const Imbriqua d1 = Imbriqua::with_card(bb({"d4", "a1"}), bb({"e5"}), 0, sq("d4"), Imbriqua::kD1);
  EXPECT_EQ(legal_set(d1), (Strings{"d4-c5", "d4-c3", "d4-e3", "a1-b2"}));
}

TEST(ImbriquaRules, SlidesNeedEveryPassedSquareEmpty) {
  const Imbriqua on = Imbriqua::with_card(bb({"b2"}), bb({"b5", "e2"}), 0, sq("b2"), Imbriqua::kON);
  EXPECT_EQ(legal_set(on), (Strings{"b2-b3", "b2-b4", "b2-a2", "b2-c2", "b2-d2", "b2-b1"}));
  const Imbriqua dn = Imbriqua::with_card(bb({"b2"}), bb({"e5"}), 0, sq("b2"), Imbriqua::kDN);
  EXPECT_EQ(legal_set(dn), (Strings{"b2-c3", "b2-d4", "b2-a3", "b2-a1", "b2-c1"}));
}

TEST(ImbriquaRules, JumpCaptureAndOptionalFurtherJumpsBackToTheStartSquare) {
  // d4 jumps d5, e6... around the square and lands where it started.
  Imbriqua g =
      Imbriqua::with_card(bb({"d4"}), bb({"d5", "e6", "f5", "e4"}), 0, sq("d4"), Imbriqua::kOJ);
  EXPECT_EQ(legal_set(g), (Strings{"d4xd6", "d4xf4"}));
  g = replay(g, {"d4xd6"});
  EXPECT_EQ(g.phase(), Phase::kChain);
  EXPECT_EQ(g.pawns(1) & bb({"d5"}), 0u) << "the jumped pawn is removed at once";
  EXPECT_EQ(legal_set(g), (Strings{"stop", "d6xf6"}));
  g = replay(g, {"d6xf6", "f6xf4"});
  EXPECT_EQ(legal_set(g), (Strings{"stop", "f4xd4"}));
  g = replay(g, {"f4xd4"});
  EXPECT_EQ(g.pawns(0), bb({"d4"}));
  EXPECT_EQ(g.pawns(1), 0u);
  EXPECT_EQ(g.to_act(), Player::kP1) << "the chain ends by itself when no jump is left";
}

TEST(ImbriquaRules, StopEndsTheChain) {
  Imbriqua g = Imbriqua::with_card(bb({"d4"}), bb({"d5", "e6"}), 0, sq("d4"), Imbriqua::kOJ);
  g = replay(g, {"d4xd6", "stop"});
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.pawns(1), bb({"e6"}));
}

TEST(ImbriquaRules, DiagonalJumpsAndOwnPawnsBlock) {
  const Imbriqua g =
      Imbriqua::with_card(bb({"c3", "b2", "a1"}), bb({"d4", "c1"}), 0, sq("c3"), Imbriqua::kDJ);
  // b2 cannot jump c1 (the landing square is off the board); own pawns are never jumped.
  EXPECT_EQ(legal_set(g), (Strings{"c3xe5"}));
}

TEST(ImbriquaRules, LongCaptureThroughSquaresEmptiedEarlierInTheChain) {
  // c3 flies over c5 to c7, then back down through c5 and its own start square to take c2.
  Imbriqua g = Imbriqua::with_card(bb({"c3"}), bb({"c5", "c2"}), 0, sq("c3"), Imbriqua::kOL);
  EXPECT_EQ(legal_set(g), (Strings{"c3xc6", "c3xc7", "c3xc8", "c3xc1"}));
  g = replay(g, {"c3xc7"});
  EXPECT_EQ(legal_set(g), (Strings{"stop", "c7xc1"}));
  g = replay(g, {"c7xc1"});
  EXPECT_EQ(g.pawns(1), 0u);
  EXPECT_EQ(g.pawns(0), bb({"c1"}));
}

TEST(ImbriquaRules, LongDiagonalCapture) {
  const Imbriqua g = Imbriqua::with_card(bb({"b2", "h8"}), bb({"e5"}), 0, sq("b2"), Imbriqua::kDL);
  EXPECT_EQ(legal_set(g), (Strings{"b2xf6", "b2xg7"})) << "own pawn on h8 blocks";
}

TEST(ImbriquaRules, RedCardsIgnoreCapturesByOtherPawns) {
  // Another Light pawn could capture, but the card belongs to the pawn just placed.
  const Imbriqua g =
      Imbriqua::with_card(bb({"a1", "d4"}), bb({"d6", "a3"}), 0, sq("a1"), Imbriqua::kOL);
  EXPECT_EQ(legal_set(g), (Strings{"a1xa4", "a1xa5", "a1xa6", "a1xa7", "a1xa8"}));
  const Imbriqua none =
      Imbriqua::with_card(bb({"h1", "d4"}), bb({"d6"}), 0, sq("h1"), Imbriqua::kOL);
  EXPECT_EQ(none.phase(), Phase::kPenalty);
  EXPECT_EQ(none.to_act(), Player::kP1);
  const Imbriqua green =
      Imbriqua::with_card(bb({"h1", "d4"}), bb({"d5"}), 0, sq("h1"), Imbriqua::kOJ);
  EXPECT_EQ(legal_set(green), (Strings{"d4xd6"})) << "green cards use any pawn";
}

TEST(ImbriquaRules, DoubleCapturesNeverChain) {
  Imbriqua g =
      Imbriqua::with_card(bb({"a1"}), bb({"a2", "a3", "a5", "a6"}), 0, sq("a1"), Imbriqua::kO2);
  EXPECT_EQ(legal_set(g), (Strings{"a1xa4"}));
  g = replay(g, {"a1xa4"});
  EXPECT_EQ(g.pawns(1), bb({"a5", "a6"}));
  EXPECT_EQ(g.to_act(), Player::kP1) << "no further jump even though a4 could take a5, a6";
  const Imbriqua d2 = Imbriqua::with_card(bb({"a1"}), bb({"b2", "c3"}), 0, sq("a1"), Imbriqua::kD2);
  EXPECT_EQ(legal_set(d2), (Strings{"a1xd4"}));
  const Imbriqua blocked =
      Imbriqua::with_card(bb({"a1", "a4"}), bb({"a2", "a3"}), 0, sq("a1"), Imbriqua::kO2);
  EXPECT_EQ(blocked.phase(), Phase::kPenalty) << "the landing square must be empty";
}

TEST(ImbriquaRules, P2PlacesTwoPawnsAnywhereInOrder) {
  Imbriqua g = Imbriqua::with_card(bb({"d4"}), bb({"e5"}), 0, sq("d4"), Imbriqua::kP2);
  EXPECT_EQ(legal_set(g).size(), 62u);
  EXPECT_TRUE(legal_set(g).count("a1")) << "edge squares allowed";
  g = replay(g, {"a1"});
  EXPECT_EQ(g.phase(), Phase::kSecondPawn);
  EXPECT_EQ(g.to_act(), Player::kP0);
  EXPECT_EQ(legal_set(g).size(), 61u);
  g = replay(g, {"h8"});
  EXPECT_EQ(g.pawns(0), bb({"d4", "a1", "h8"}));
  EXPECT_EQ(g.to_act(), Player::kP1);
}

TEST(ImbriquaRules, PenaltyByTheOpponentEvenWithOnePawn) {
  Imbriqua g = Imbriqua::with_card(bb({"d4"}), bb({"h8"}), 0, sq("d4"), Imbriqua::kOJ);
  ASSERT_EQ(g.phase(), Phase::kPenalty);
  EXPECT_EQ(g.to_act(), Player::kP1) << "the opponent chooses";
  EXPECT_EQ(legal_set(g), (Strings{"-d4"})) << "presented even when it is the only pawn";
  g = replay(g, {"-d4"});
  EXPECT_EQ(g.pawns(0), 0u);
  EXPECT_EQ(g.to_act(), Player::kP1) << "then Dark's own turn";
  EXPECT_EQ(g.phase(), Phase::kPlace);
}

TEST(ImbriquaRules, ScoringOnEdgesAndForBothPlayersOnOneSquare) {
  const Imbriqua g =
      Imbriqua::from_position(bb({"a3", "a5", "d3", "d5", "a8"}), bb({"c4", "e4", "b8"}), 12,
                              "O1 D1 ON DN OJ DJ OL DL O2 D2");
  EXPECT_EQ(g.score(0), 2) << "a4 on the a-file; d4 on the d-file";
  EXPECT_EQ(g.score(1), 1) << "d4 on rank 4 as well";
  // A corner has no line through it with two neighbours: a8 and b8 frame nothing.
  const Imbriqua diag =
      Imbriqua::from_position(bb({"b2", "d4", "b4", "d2"}), 0, 12, "O1 D1 ON DN OJ DJ OL DL O2 D2");
  EXPECT_EQ(diag.score(0), 6) << "c3 on both diagonals; b3, d3, c2, c4 on one line each";
}

TEST(ImbriquaRules, FramePlanesShowTheScoreFromTheViewOfThePlayerToAct) {
  // Turn 12 is Dark's: Dark's frames are "own" (planes 68..71), Light's "opponent" (72..75).
  const Imbriqua g = Imbriqua::from_position(bb({"a3", "a5", "d3", "d5"}), bb({"c4", "e4"}), 12,
                                             "O1 D1 ON DN OJ DJ OL DL O2 D2");
  ASSERT_EQ(g.to_act(), Player::kP1);
  std::vector<float> planes(Imbriqua::kPlanes.size());
  g.encode(planes);
  auto at = [&](int plane, const char* square) { return planes[plane * 64 + sq(square)]; };
  auto count = [&](int first, int n) {
    return std::count(planes.begin() + first * 64, planes.begin() + (first + n) * 64, 1.0f);
  };
  EXPECT_EQ(at(69, "d4"), 1.0f) << "Dark frames d4 on rank 4";
  EXPECT_EQ(count(68, 4), 1) << "and nothing else";
  EXPECT_EQ(at(72, "a4"), 1.0f) << "Light frames a4 on the a-file";
  EXPECT_EQ(at(72, "d4"), 1.0f) << "and d4 on the d-file";
  EXPECT_EQ(count(72, 4), 2);
  EXPECT_EQ(at(76, "b4"), 0.25f) << "Dark: c4 and the empty a4 on rank 4";
  EXPECT_EQ(at(77, "b4"), 0.5f) << "Light: a3 with c5 and a5 with c3, on the diagonals";
  EXPECT_EQ(at(76, "d4"), 0.0f) << "a full frame is not a half frame";
  EXPECT_EQ(at(78, "h8"), -1.0f / 16) << "score 1 v 2 for the player to act";
  EXPECT_EQ(at(79, "a1"), -2.0f / 16) << "pawns 2 v 4";
  // Ownership (the auxiliary target): d4 is framed once for each, a4 once for Light.
  std::vector<float> own(64);
  g.ownership(Player::kP0, own);
  EXPECT_EQ(own[sq("a4")], 0.25f);
  EXPECT_EQ(own[sq("d4")], 0.0f);
  EXPECT_EQ(std::count(own.begin(), own.end(), 0.0f), 63);
  g.ownership(Player::kP1, own);
  EXPECT_EQ(own[sq("a4")], -0.25f);
}

TEST(ImbriquaRules, OwnershipSumsToAQuarterOfTheFinalMargin) {
  Rng rng(17);
  std::vector<float> own(64);
  for (int game = 0; game < 200; ++game) {
    Imbriqua g;
    while (!g.is_terminal()) g.apply(random_action(g, rng));
    for (const Player view : {Player::kP0, Player::kP1}) {
      g.ownership(view, own);
      const double sum = std::accumulate(own.begin(), own.end(), 0.0);
      const double margin = view == Player::kP0 ? g.score_margin() : -g.score_margin();
      EXPECT_DOUBLE_EQ(4 * sum, margin) << "game " << game;
      for (const float x : own) EXPECT_LE(std::abs(x), 1.0f);
    }
  }
}

Imbriqua last_turn(std::uint64_t light, std::uint64_t dark) {
  // Turn 44 is Dark's and plays c1 (here O2, impossible): Light then removes a Dark pawn.
  return replay(Imbriqua::from_position(light, dark, 44, "O2 O1 D1 ON DN OJ DJ OL DL D2"), {"e5"});
}

TEST(ImbriquaRules, ResultsByScoreThenPawnsThenDraw) {
  Imbriqua by_score = last_turn(bb({"b2", "b4"}), bb({"g2", "g4", "g6"}));
  ASSERT_EQ(by_score.phase(), Phase::kPenalty);
  by_score = replay(by_score, {"-e5"});
  ASSERT_TRUE(by_score.is_terminal());
  EXPECT_EQ(by_score.outcome(), Outcome::kP1Win) << "Dark frames g3 and g5";
  EXPECT_EQ(replay(last_turn(bb({"b2", "b4"}), bb({"g2", "g4", "g6"})), {"-g4"}).outcome(),
            Outcome::kP0Win);
  EXPECT_EQ(replay(last_turn(bb({"b2", "b4"}), bb({"g2", "g4", "d7"})), {"-e5"}).outcome(),
            Outcome::kP1Win)
      << "scores 1 v 1, Dark has more pawns";
  EXPECT_EQ(replay(last_turn(bb({"b2", "b4", "a8"}), bb({"g2", "g4"})), {"-e5"}).outcome(),
            Outcome::kP0Win);
  EXPECT_EQ(replay(last_turn(bb({"b2", "b4"}), bb({"g2", "g4"})), {"-e5"}).outcome(),
            Outcome::kDraw);
}

TEST(ImbriquaRules, ActionStringsAreStrict) {
  const Imbriqua g;
  for (const char* bad : {"A1", "a9", "i1", "a1-", "a1-a9", "a1Xa2", "-a", "Stop", "o1", "a1 "})
    EXPECT_FALSE(g.parse_action(bad).has_value()) << bad;
}

}  // namespace
}  // namespace azg
