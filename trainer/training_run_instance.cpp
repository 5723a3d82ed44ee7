// One game's training run (trainer/training_run.hpp), explicitly instantiated. CMake
// compiles this file once per game of games/games.hpp, AZG_GAME_INDEX naming the game, so
// that the runs compile in parallel and once for `azg train` and `azg learner` together.
#include "trainer/train.hpp"

static_assert(AZG_GAME_COUNT == azg::game_count(azg::kGames),
              "games/CMakeLists.txt counted another number of games than games/games.hpp lists");
static_assert(AZG_GAME_INDEX < AZG_GAME_COUNT);

namespace azg::trainer {

using InstanceGame = GameAt<AZG_GAME_INDEX, std::remove_const_t<decltype(kGames)>>;
template TrainReport run_training<InstanceGame>(const TrainConfig&, const std::string&,
                                                std::ostream&);
template TrainReport run_fed_training<InstanceGame>(const TrainConfig&, const std::string&,
                                                    std::ostream&,
                                                    std::unique_ptr<GameFeed<InstanceGame>>,
                                                    parallel::LearnerGroup*);

}  // namespace azg::trainer
