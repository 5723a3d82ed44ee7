// Connect Four's rules, notation, symmetry and evaluation. The perft figures match an
// independent count (tools/connect4_perft.py, a plain-grid engine written apart).
#include "env/connect4/connect4.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "env/common/game_traits.hpp"
#include "env/common/perft.hpp"

namespace azg {
namespace {

TEST(Connect4Perft, FromTheStartAndMidGame) {
  const std::uint64_t start[] = {1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
  for (int d = 0; d <= 8; ++d) EXPECT_EQ(perft(Connect4{}, d), start[d]) << "depth " << d;
  const std::uint64_t early[] = {7, 49, 343, 2317, 16218};
  for (int d = 1; d <= 5; ++d)
    EXPECT_EQ(perft(Connect4::from_moves("4453"), d), early[d - 1]) << "depth " << d;
  const std::uint64_t mid[] = {7, 42, 251, 1531, 8964, 52671};
  for (int d = 1; d <= 6; ++d)
    EXPECT_EQ(perft(Connect4::from_moves("4334445563211"), d), mid[d - 1]) << "depth " << d;
}

TEST(Connect4Rules, FourInEveryDirectionWins) {
  // Across (X on row 1, columns 1-4), up (O in column 7), and both diagonals.
  const Connect4 across = Connect4::from_moves("1122334");
  EXPECT_TRUE(across.is_terminal());
  EXPECT_EQ(across.outcome(), Outcome::kP0Win);
  const Connect4 up = Connect4::from_moves("17171727");
  EXPECT_TRUE(up.is_terminal());
  EXPECT_EQ(up.outcome(), Outcome::kP1Win);
  const Connect4 rising = Connect4::from_moves("12234334744");  // X: 1/1 2/2 3/3 4/4
  EXPECT_TRUE(rising.is_terminal());
  EXPECT_EQ(rising.outcome(), Outcome::kP0Win);
  const Connect4 falling = Connect4::from_moves("76654554144");  // X: 7/1 6/2 5/3 4/4
  EXPECT_TRUE(falling.is_terminal());
  EXPECT_EQ(falling.outcome(), Outcome::kP0Win);
  // Three in a row is not four, and the game goes on; the diagonal one stone short.
  EXPECT_FALSE(Connect4::from_moves("1223433474").is_terminal());
  const Connect4 three = Connect4::from_moves("112233");
  EXPECT_FALSE(three.is_terminal());
  EXPECT_EQ(three.to_act(), Player::kP0);
}

TEST(Connect4Rules, FullBoardWithoutFourIsADraw) {
  const Connect4 full = Connect4::from_moves("442761225377252342545563474175371666631311");
  EXPECT_EQ(full.stones_played(), 42);
  EXPECT_TRUE(full.is_terminal());
  EXPECT_EQ(full.outcome(), Outcome::kDraw);
  ActionListFor<Connect4> actions;
  full.legal_actions(actions);
  EXPECT_TRUE(actions.empty());
}

TEST(Connect4Rules, FullColumnsAreNotLegal) {
  const Connect4 g = Connect4::from_moves("444444");
  ActionListFor<Connect4> actions;
  g.legal_actions(actions);
  EXPECT_EQ(actions.size(), 6u);
  for (const Action a : actions) EXPECT_NE(g.action_to_string(a), "4");
  EXPECT_EQ(g.stone_at(3, 5), 1);
  EXPECT_EQ(g.stone_at(3, 0), 0);
}

TEST(Connect4Notation, StrictParsing) {
  const Connect4 g;
  EXPECT_EQ(g.parse_action("1"), std::optional<Action>(0));
  EXPECT_EQ(g.parse_action("7"), std::optional<Action>(6));
  for (const char* bad : {"0", "8", "a", "44", "", " 4", "-1"})
    EXPECT_EQ(g.parse_action(bad), std::nullopt) << bad;
  EXPECT_EQ(g.action_to_string(3), "4");
  EXPECT_EQ(Connect4::from_moves("4 4 5 3").hash(), Connect4::from_moves("4453").hash());
  // The seventh stone in column 4 is illegal, and the error names it.
  try {
    Connect4::from_moves("4444444");
    FAIL() << "a full column accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("action 6 '4': illegal"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Connect4::from_moves("48"), Error);
  EXPECT_THROW(Connect4::from_setup("x"), Error);
  // Moves after the game is won are refused.
  EXPECT_THROW(Connect4::from_moves("11223345"), Error);
}

TEST(Connect4Notation, RenderShowsStonesAndMover) {
  const std::string text = Connect4::from_moves("45").render();
  EXPECT_NE(text.find("1 . . . X O . ."), std::string::npos) << text;
  EXPECT_NE(text.find("to act: player 0 (X), stone 3"), std::string::npos) << text;
}

TEST(Connect4Symmetry, MirrorAndTranspositions) {
  const Connect4 g = Connect4::from_moves("4453");
  const Connect4 mirrored = g.symmetric(1);
  EXPECT_EQ(mirrored.hash(), Connect4::from_moves("4435").hash());
  EXPECT_EQ(mirrored.stone_at(2, 0), 0);  // X's stone in 5 went to 3
  EXPECT_EQ(mirrored.stone_at(4, 0), 1);  // O's in 3 went to 5
  EXPECT_EQ(g.symmetric_action(1, 0), 6u);
  EXPECT_EQ(g.symmetric_action(1, 3), 3u);
  // The same stones reached in another order are the same position.
  EXPECT_EQ(Connect4::from_moves("1234").hash(), Connect4::from_moves("3214").hash());
  EXPECT_NE(Connect4::from_moves("1234").hash(), Connect4::from_moves("2143").hash());
}

TEST(Connect4Encoding, PlanesFromTheMoversSide) {
  const Connect4 g = Connect4::from_moves("45");  // X on 4, O on 5; X to move
  std::vector<float> planes(Connect4::kPlanes.size());
  g.encode(planes);
  const int bottom = (Connect4::kRows - 1) * Connect4::kColumns;  // plane row 5 = board row 1
  EXPECT_EQ(planes[bottom + 3], 1.0f);                            // the mover's stone
  EXPECT_EQ(planes[42 + bottom + 4], 1.0f);                       // the opponent's
  EXPECT_EQ(planes[84 + bottom + 3], 0.0f);
  EXPECT_EQ(planes[84 + 0], 1.0f);  // top-left is empty
  float sum = 0;
  for (const float x : planes) sum += x;
  EXPECT_EQ(sum, 42.0f);  // every cell is in exactly one plane
}

TEST(Connect4Evaluation, ImmediateWinsAndThreats) {
  EXPECT_TRUE(is_reference_game<Connect4>());
  // X to move with three on the bottom row and the fourth cell open: a win now.
  EXPECT_GT(Connect4::from_moves("112233").evaluate(), 0.9);
  // O to move against X's three with both ends open (2 and 6 on row 1): lost.
  EXPECT_GT(Connect4::from_moves("37475").evaluate(), 0.85);
  // The centre column lies on more lines than the edge.
  EXPECT_GT(Connect4::from_moves("41").evaluate(), 0.0);
  EXPECT_NEAR(Connect4{}.evaluate(), 0.0, 1e-9);
}

}  // namespace
}  // namespace azg
