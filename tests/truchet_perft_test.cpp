// Truchet perft: the figures and our own regression figures.
#include <gtest/gtest.h>

#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/truchet/truchet.hpp"

namespace azg {
namespace {

TEST(TruchetPerft, AllZeroTiles) {
  const Truchet g = Truchet::from_setup(std::string(49, '0'));
  const std::uint64_t expected[] = {81, 5835, 346193};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(g, d), expected[d - 1]) << "depth " << d;
}

TEST(TruchetPerft, MixedTiles) {
  const Truchet g = Truchet::from_setup("0110100110010110011010011001011001101001100101100");
  const std::uint64_t expected[] = {83, 5671, 371302};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(g, d), expected[d - 1]) << "depth " << d;
}

// Our own figures (regressions) from a random game (azg play-random --game truchet --seed 5):
// after a flip (39 actions in) and at turn 35 (60 actions in, after captures and flips).
constexpr const char* kSetup = "0111111100100111110100011100111010110101010010101";
constexpr const char* kGame =
    "d6<NW c2<ESW e7<NE g2<NW c8-f7 f6<NW c3-c1 done f6-g7 f7<EW e2<NS d6-b4 b4/E1S1 a3-f2 done "
    "h6<NW f2-c7 done f7/S1W3 c7-f2 f1<NE e7-h4 h4/S1W2 e2/N1S1 b7-c8 done a1-d4 e4<SW f6-g5 done "
    "h2-a7 done c8-b7 a7<NE c2-d1 done g5-c5 done Fc7 e4-g6 g6/N1W1 c5-b6 b7<SW Fd5 g6<NW b3-a4 "
    "done Fb2 g1<NW a6-b5 b4<NW Fb2 d1-d3 d3/N1S2 g4/S1W1 g1/N3W1 h6-c5 c5/N1E1 f1-d1 done";

TEST(TruchetPerft, RegressionFigures) {
  const auto moves = split_words(kGame);
  const Truchet after_flip = replay(Truchet::from_setup(kSetup),
                                    std::vector<std::string>(moves.begin(), moves.begin() + 39));
  ASSERT_EQ(after_flip.phase(), Truchet::Phase::kAfterFlip);
  const std::uint64_t flip_expected[] = {36, 1331, 39340};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(after_flip, d), flip_expected[d - 1]) << d;
  const Truchet later = replay(Truchet::from_setup(kSetup), moves);
  ASSERT_EQ(later.turn(), 34);
  const std::uint64_t later_expected[] = {86, 2758, 106920};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(later, d), later_expected[d - 1]) << d;
}

}  // namespace
}  // namespace azg
