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

}  // namespace
}  // namespace azg
