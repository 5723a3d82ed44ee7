// Imbriqua perft: the issue's figures and our own regression figures.
#include <gtest/gtest.h>

#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/imbriqua/imbriqua.hpp"

namespace azg {
namespace {

TEST(ImbriquaPerft, InitialPosition) {
  const std::uint64_t expected[] = {1, 64, 4032, 249984, 15249024};
  for (int d = 0; d <= 4; ++d) EXPECT_EQ(perft(Imbriqua{}, d), expected[d]) << "depth " << d;
}

TEST(ImbriquaPerft, IssueMidGamePosition) {
  const Imbriqua g = replay(
      Imbriqua{},
      split_words("d7 e7 e4 b1 d1 h8 f4 e2 f2 O1 f2-f1 b2 ON h8-g8 c5 DN d7-a4 f6 DL -f6 d7 DJ "
                  "d1xf3 c4 OJ e7xc7 g2 D1 c5-b4 c3 OL c3xg3 stop g4 D2 -g4 d2 -c7 f2 h4 d7 g4 "
                  "e3 e1 g7 -h4 e5 -c4 d4 d4xd1 d1xa1 c2 g4-f3 c5 f1xd1 g6 f3xh1 g2 -d1 e2"));
  const std::uint64_t expected[] = {40, 850, 49425, 1012999};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(g, d), expected[d - 1]) << "depth " << d;
}

// Our own figures (regressions): the first main turn, with chance reveals inside the tree,
// and a long capture with a chain in pile 1.
TEST(ImbriquaPerft, RegressionFigures) {
  const Imbriqua first_turn = replay(Imbriqua{}, split_words("d7 e7 e4 b1 d1 h8 f4 e2"));
  const std::uint64_t first_expected[] = {31, 310, 4186, 126658};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(first_turn, d), first_expected[d - 1]) << d;
  const Imbriqua long_capture = replay(
      Imbriqua{}, split_words("d7 e7 e4 b1 d1 h8 f4 e2 f2 O1 f2-f1 b2 ON h8-g8 c5 DN d7-a4 f6 DL "
                              "-f6 d7 DJ d1xf3 c4 OJ e7xc7 g2 D1 c5-b4 c3 OL"));
  const std::uint64_t capture_expected[] = {2, 31, 90, 557};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(long_capture, d), capture_expected[d - 1]) << d;
}

}  // namespace
}  // namespace azg
