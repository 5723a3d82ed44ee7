// `azg actor` and `azg learner` in their own translation unit: they instantiate self-play
// and training for every game once.
#include "tools/azg/actor_command.hpp"

#include "roles/actor.hpp"
#include "roles/learner.hpp"
#include "tools/azg/games.hpp"
#include "tools/azg/train_command.hpp"

namespace azg {

int cmd_actor(const ActorArgs& args, std::ostream& out) {
  const trainer::TrainConfig config = resolve_config(args.config_path, args.overrides);
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    return roles::run_actor<G>(config, args.options, out);
  });
}

int cmd_learner(const LearnerArgs& args, std::ostream& out) {
  const trainer::TrainConfig config = resolve_config(args.config_path, args.overrides);
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    return roles::run_learner<G>(config, args.options, out);
  });
}

}  // namespace azg
