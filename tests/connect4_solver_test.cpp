// The Connect Four solver against published values: positions and scores from Pascal
// Pons's benchmark set Test_L1_R1 ("Solving Connect 4", blog.gamesolver.org, part 2: a
// move sequence, then the score for the side to move, 22 minus the winner's stones when
// it makes four).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "solver/connect4_analysis.hpp"

namespace azg::solver {
namespace {

struct Published {
  const char* moves;
  int score;
};

constexpr Published kTestL1R1[] = {
    {"32164625", 11},        {"6146", 18},          {"243335424257", 12},    {"5512243243536", 13},
    {"22144426444", 15},     {"265756512", -12},    {"65444437612", 13},     {"17516442226766", 8},
    {"51756773145177", -10}, {"165746146225", -11}, {"43745416472735", -13}, {"33375546411", -12},
    {"37416146447", -9},     {"24657443354", -9},   {"1242536267", -11},
};

TEST(Connect4Solver, PublishedScores) {
  Connect4Solver solver(20);
  for (const auto& p : kTestL1R1) {
    const Connect4 position = Connect4::from_moves(p.moves);
    EXPECT_EQ(solver.solve(position), p.score) << p.moves;
    EXPECT_EQ(solver.solve_weak(position), sign_of(p.score)) << p.moves;
  }
}

TEST(Connect4Solver, ScoresAsWordsCountPlies) {
  // 6146: X to move with 2 stones wins with its 4th stone, the 7th on the board.
  EXPECT_EQ(plies_to_end(18, 4), 3);
  EXPECT_EQ(describe_score(18, 4), "win in 3 plies");
  // O to move (5 stones) loses with X's 21st-minus-12 = 10th stone, the 19th on the board.
  EXPECT_EQ(plies_to_end(-12, 9), 10);
  EXPECT_EQ(describe_score(0, 9), "draw");
  EXPECT_EQ(describe_score(18, 6), "win in 1 ply");
}

TEST(Connect4Solver, AnalysisListsOptimalAndKeepingMoves) {
  Connect4Solver solver(20);
  // X to move with 1, 2, 3 and 6, 7 on row 1 (O above them): 4 wins now with X's sixth
  // stone, the only optimal move.
  const Connect4Analysis a = analyse(solver, Connect4::from_moves("1122337766"), true);
  EXPECT_EQ(a.score, 16);
  ASSERT_EQ(a.optimal.size(), 1u);
  EXPECT_EQ(a.optimal[0], 3u);
  EXPECT_EQ(a.moves.size(), 7u);
  for (const MoveValue& m : a.moves) EXPECT_LE(m.score, a.score);
  // The class analysis finds the same optimal and winning moves with null windows.
  const Connect4Analysis weak = analyse(solver, Connect4::from_moves("1122337766"), false);
  EXPECT_EQ(weak.keeping, a.keeping);
  EXPECT_EQ(weak.optimal, a.optimal);
  for (const MoveValue& m : weak.moves) EXPECT_EQ(m.score, sign_of(a.moves[m.action].score));
  // A published lost position: every move keeps the loss.
  const Connect4Analysis lost = analyse(solver, Connect4::from_moves("265756512"), false);
  EXPECT_EQ(lost.score, -12);
  EXPECT_EQ(lost.keeping.size(), lost.moves.size());
}

TEST(Connect4Solver, RefusesFinishedGamesAndBadTables) {
  Connect4Solver solver(12);
  EXPECT_THROW(solver.solve(Connect4::from_moves("1122334")), Error);
  EXPECT_THROW(Connect4Solver(5), Error);
}

}  // namespace
}  // namespace azg::solver
