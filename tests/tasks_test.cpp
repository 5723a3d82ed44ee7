// tasks/: perft over threads counts exactly what the one-thread perft counts, on every
// game, from random positions, with any number of threads.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/rng.hpp"
#include "env/common/perft.hpp"
#include "env/common/random_play.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "tasks/parallel_perft.hpp"
#include "tests/games/chance_pig.hpp"

namespace azg {
namespace {

template <class G>
class ParallelPerft : public ::testing::Test {};
using Games =
    ::testing::Types<Lignes, Imbriqua, Truchet, Imperator, Intercept, testgames::ChancePig>;
TYPED_TEST_SUITE(ParallelPerft, Games);

// The deepest depth from 3 up (3 and more run the parallel plies) whose tree stays small.
template <Game G>
int test_depth(const G& g) {
  int depth = 3;
  while (depth < 6 && perft(g, depth) < 50'000) ++depth;
  return depth;
}

TYPED_TEST(ParallelPerft, CountsAsTheOneThreadPerft) {
  using G = TypeParam;
  Rng rng(11);
  for (int position = 0; position < 3; ++position) {
    const G g = random_decision_position<G>(rng);
    const int depth = test_depth(g);
    const std::uint64_t expected = perft(g, depth);
    for (const int threads : {1, 2, 3, 0})
      EXPECT_EQ(tasks::parallel_perft(g, depth, threads), expected)
          << "depth " << depth << ", " << threads << " thread(s)";
    const auto divide = perft_divide(g, depth);
    EXPECT_EQ(tasks::parallel_perft_divide(g, depth, 2), divide) << "depth " << depth;
  }
}

TYPED_TEST(ParallelPerft, EdgeCasesMatch) {
  using G = TypeParam;
  Rng rng(5);
  const G g = random_decision_position<G>(rng);
  for (const int depth : {0, 1, 2}) {
    EXPECT_EQ(tasks::parallel_perft(g, depth, 2), perft(g, depth)) << "depth " << depth;
    EXPECT_EQ(tasks::parallel_perft_divide(g, depth, 2), perft_divide(g, depth));
  }
}

}  // namespace
}  // namespace azg
