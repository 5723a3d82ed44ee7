// `azg learner`: training for a distributed run, fed by actors through Redis, alone or as
// data-parallel ranks (roles/learner.hpp).
#include "roles/learner.hpp"

#include <memory>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"
#include "trainer/config.hpp"

namespace azg::cli {
namespace {

struct LearnerArgs {
  std::string config_path;
  std::vector<std::string> overrides;
  roles::LearnerOptions options;
};

}  // namespace

Command add_learner(CLI::App& app) {
  auto args = std::make_shared<LearnerArgs>();
  auto& o = args->options;
  auto* cmd = app.add_subcommand("learner",
                                 "Training for a distributed run: games from actors through Redis");
  add_run_options(cmd, o.redis, o.run, args->config_path, args->overrides);
  cmd->add_option("--run-dir", o.run_dir,
                  "Run directory (default runs/RUN); rank k > 0 keeps its shard in RUN_DIR/rank-k");
  cmd->add_option("--name", o.name,
                  "Its consumer name in the stream; keep it across restarts (default learner)");
  cmd->add_option("--learners", o.learners,
                  "Data-parallel learner processes (torch.distributed Gloo); train.batch_size is "
                  "per learner")
      ->check(CLI::Range(1, 256));
  cmd->add_option(
      "--rank", o.rank,
      "This process's rank in 0..N-1 (default: rank 0, which starts the others on this machine)");
  cmd->add_option(
      "--rendezvous", o.rendezvous,
      "HOST:PORT of rank 0's TCPStore, where the learners meet (default 127.0.0.1:29500)");
  cmd->add_option(
      "--bind", o.bind,
      "The address the other learners reach this one at (default: 127.0.0.1 for a loopback "
      "rendezvous, else this host's name)");
  cmd->add_option("--group-timeout", o.group_timeout_s,
                  "Seconds a learner waits for a silent one (rank 0's evaluations pause the "
                  "others; default 1800)")
      ->check(CLI::Range(1, 86400));
  return {cmd, [args](const Io& io) {
            args->options.relaunch = io.argv;
            const trainer::TrainConfig config =
                trainer::TrainConfig::resolve(args->config_path, args->overrides);
            return with_game(kGames, config.game, [&](auto type) -> int {
              return roles::run_learner<typename decltype(type)::type>(config, args->options,
                                                                       io.out);
            });
          }};
}

}  // namespace azg::cli
