// `azg actor` in its own translation unit: it instantiates self-play for every game once.
#include "tools/azg/actor_command.hpp"

#include "tools/azg/games.hpp"

namespace azg {

int cmd_actor(const ActorArgs& args, std::ostream& out) {
  trainer::TrainConfig config = trainer::TrainConfig::defaults();
  if (!args.config_path.empty()) config.load_yaml(args.config_path);
  for (const auto& o : args.overrides) config.set(o);
  config.validate();
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    return roles::run_actor<G>(config, args.options, out);
  });
}

}  // namespace azg
