// Every game joins the conformance suite with one line.
#include "tests/conformance/conformance.hpp"

#include "env/connect4/connect4.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::testing {

// The variant boards run the same code as the default board: a lighter walk suffices.
template <>
struct ConformanceBudget<Imperator3> : ConformanceBudget<Imperator> {
  static constexpr int kGames = 100;
};
template <>
struct ConformanceBudget<Imperator5> : ConformanceBudget<Imperator> {
  static constexpr int kGames = 100;
};

INSTANTIATE_TYPED_TEST_SUITE_P(TicTacToe, Conformance, ::testing::Types<testgames::TicTacToe>);
INSTANTIATE_TYPED_TEST_SUITE_P(ChancePig, Conformance, ::testing::Types<testgames::ChancePig>);
INSTANTIATE_TYPED_TEST_SUITE_P(Lignes, Conformance, ::testing::Types<Lignes>);
INSTANTIATE_TYPED_TEST_SUITE_P(Imbriqua, Conformance, ::testing::Types<Imbriqua>);
INSTANTIATE_TYPED_TEST_SUITE_P(Truchet, Conformance, ::testing::Types<Truchet>);
INSTANTIATE_TYPED_TEST_SUITE_P(Imperator, Conformance, ::testing::Types<Imperator>);
INSTANTIATE_TYPED_TEST_SUITE_P(Imperator3, Conformance, ::testing::Types<Imperator3>);
INSTANTIATE_TYPED_TEST_SUITE_P(Imperator5, Conformance, ::testing::Types<Imperator5>);
INSTANTIATE_TYPED_TEST_SUITE_P(Intercept, Conformance, ::testing::Types<Intercept>);
INSTANTIATE_TYPED_TEST_SUITE_P(Connect4, Conformance, ::testing::Types<Connect4>);

}  // namespace azg::testing
