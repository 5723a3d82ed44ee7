// Lignes perft: the issue's figures and our own deeper regression figures.
#include <gtest/gtest.h>

#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/lignes/lignes.hpp"

namespace azg {
namespace {

constexpr const char* kMidGame =
    "P0,0 P-1,0 P-2,0 P-1,1 P1,0 P1,-1 P1,-2 P2,-1 P0,-2 M1,-2E P-1,2 M1,-1W P-1,-1 M1,-2W "
    "P0,-3 M1,-1E P-1,-1 M1,0E P3,-1 M0,0N";

TEST(LignesPerft, InitialPosition) {
  const std::uint64_t expected[] = {1, 1, 4, 24, 176, 1504, 14560, 156768, 1852512};
  for (int d = 0; d <= 8; ++d) EXPECT_EQ(perft(Lignes{}, d), expected[d]) << "depth " << d;
}

TEST(LignesPerft, IssueMidGamePosition) {
  const Lignes g = replay(Lignes{}, split_words(kMidGame));
  const std::uint64_t expected[] = {15, 99, 1380, 8952};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(g, d), expected[d - 1]) << "depth " << d;
}

// Our own figures (regressions): deeper from the issue's position, and two positions of a
// random game (seed 3): at a capture choice, and late in the game after a capture.
constexpr const char* kAtCaptureChoice =
    "P0,0 P1,0 P1,-1 P-1,0 P2,-1 P0,-1 P2,-2 P2,0 P2,1 M2,-1E P2,2 M1,0N P-1,1 M2,-2S P-2,1 "
    "M2,-1W P1,-3 M2,-3E P1,2 M1,2N P0,1 M-1,1N P-1,0 M2,1E";
constexpr const char* kLate =
    "X1,1 M2,1W P-2,1 M0,0S P4,-3 M0,0N P2,-4 M0,0S P-2,2 M1,1W P1,4 M-2,1S P1,-1 M1,-1S "
    "P0,-2 M2,-1E pass P-1,-1 M-1,-1S P4,-1 M2,0N P4,-2 M1,-2S P5,-3 M4,-1E P-2,2";

TEST(LignesPerft, RegressionFigures) {
  EXPECT_EQ(perft(replay(Lignes{}, split_words(kMidGame)), 5), 158115u);
  const Lignes at_capture = replay(Lignes{}, split_words(kAtCaptureChoice));
  ASSERT_EQ(at_capture.phase(), Lignes::Phase::kCapture);
  const std::uint64_t capture_expected[] = {2, 24, 123, 1982, 13175};
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(perft(at_capture, d), capture_expected[d - 1]) << d;
  const Lignes late = replay(at_capture, split_words(kLate));
  const std::uint64_t late_expected[] = {8, 221, 1585, 45050};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(late, d), late_expected[d - 1]) << d;
}

}  // namespace
}  // namespace azg
