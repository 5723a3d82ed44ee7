// `azg actor` and `azg learner` in their own translation unit: they instantiate self-play
// and training for every game once.
#include "tools/azg/actor_command.hpp"

#include "tools/azg/games.hpp"

namespace azg {

namespace {

trainer::TrainConfig resolve(const std::string& path, const std::vector<std::string>& overrides) {
  trainer::TrainConfig config = trainer::TrainConfig::defaults();
  if (!path.empty()) config.load_yaml(path);
  for (const auto& o : overrides) config.set(o);
  config.validate();
  return config;
}

}  // namespace

int cmd_actor(const ActorArgs& args, std::ostream& out) {
  const trainer::TrainConfig config = resolve(args.config_path, args.overrides);
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    return roles::run_actor<G>(config, args.options, out);
  });
}

int cmd_learner(const LearnerArgs& args, std::ostream& out) {
  const trainer::TrainConfig config = resolve(args.config_path, args.overrides);
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    return roles::run_learner<G>(config, args.options, out);
  });
}

}  // namespace azg
