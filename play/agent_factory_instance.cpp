// One game's agent factory (play/agents.hpp), explicitly instantiated. CMake compiles this
// file once per game of games/games.hpp, AZG_GAME_INDEX naming the game, so that the games'
// searches and evaluators compile in parallel and once for the whole build.
#include "games/games.hpp"
#include "play/agents.hpp"

static_assert(AZG_GAME_COUNT == azg::game_count(azg::kGames),
              "games/CMakeLists.txt counted another number of games than games/games.hpp lists");
static_assert(AZG_GAME_INDEX < AZG_GAME_COUNT);

namespace azg::play {

using InstanceGame = GameAt<AZG_GAME_INDEX, std::remove_const_t<decltype(kGames)>>;
template AgentFactory<InstanceGame> agent_factory<InstanceGame>(
    const mcts::AgentSpec&, std::shared_ptr<nets::InferenceModel>);

}  // namespace azg::play
