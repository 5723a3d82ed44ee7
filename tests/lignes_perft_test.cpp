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

}  // namespace
}  // namespace azg
