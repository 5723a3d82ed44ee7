// `azg actor`: self-play for a distributed run, games to the learners through Redis
// (roles/actor.hpp).
#include "roles/actor.hpp"

#include <memory>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"
#include "trainer/config.hpp"

namespace azg::cli {
namespace {

struct ActorArgs {
  std::string config_path;
  std::vector<std::string> overrides;
  roles::ActorOptions options;
};

}  // namespace

Command add_actor(CLI::App& app) {
  auto args = std::make_shared<ActorArgs>();
  auto& o = args->options;
  auto* cmd = app.add_subcommand(
      "actor", "Self-play for a distributed run: games to the learners through Redis");
  add_run_options(cmd, o.redis, o.run, args->config_path, args->overrides);
  cmd->add_option("--threads", o.threads, "Self-play threads (default: selfplay.threads)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--name", o.name, "This actor's name in the stream (default HOST-PID)");
  cmd->add_option("--games", o.games,
                  "Stop once at least this many games are sent (default: never)")
      ->check(CLI::Range(0, 1000000000));
  cmd->add_option("--max-waiting", o.max_waiting,
                  "Pause while more games than this wait for the learner (default 64 per thread)")
      ->check(CLI::Range(0, 1000000000));
  return {cmd, [args](const Io& io) {
            const trainer::TrainConfig config =
                trainer::TrainConfig::resolve(args->config_path, args->overrides);
            return with_game(kGames, config.game, [&](auto type) -> int {
              return roles::run_actor<typename decltype(type)::type>(config, args->options, io.out);
            });
          }};
}

}  // namespace azg::cli
