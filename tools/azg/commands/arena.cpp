// `azg arena`: agents play each other (round-robin or gauntlet) and are rated: Elo with
// 95% intervals, pairwise scores, JSON/CSV/SVG and replayable game records (play/arena_run.hpp).
#include <memory>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/arena_run.hpp"
#include "play/paired_games.hpp"
#include "play/progress.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct ArenaArgs {
  std::string game;
  std::vector<std::string> agents;
  play::ArenaOptions options;
};

}  // namespace

Command add_arena(CLI::App& app) {
  auto args = std::make_shared<ArenaArgs>();
  auto& o = args->options;
  auto* cmd = app.add_subcommand(
      "arena", "Play agents against each other and rate them (Elo, 95% intervals)");
  add_game_option(cmd, args->game);
  cmd->add_option("--agent", args->agents, "NAME=SPEC (repeatable; specs below)")->required();
  cmd->add_option("--games", o.games, "Games per pair of agents (rounded up to even; default 10)");
  cmd->add_option("--format", o.format,
                  "round-robin (default) or gauntlet (the first agent against each other)");
  cmd->add_option("--threads", o.threads, "Games played at once (default 1)");
  cmd->add_option("--seed", o.seed, "Seed (agents and chance)");
  cmd->add_option("--anchor", o.anchor, "Agent rated 0 (default: the first)");
  cmd->add_option(
         "--opening-plies", o.opening_plies,
         "Random decisions shared by each colour-swapped pair of games before the agents play "
         "(default 0; "
         "deterministic agents in a game without chance otherwise replay one pair of games)")
      ->check(CLI::Range(0, 100));  // the bounds of eval.opening_plies
  cmd->add_option("--out", o.out_dir,
                  "Folder for ratings.json/.csv/.svg, pairwise.csv and games.jsonl");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              play::ProgressLine progress(io.err, "arena", 60.0,
                                          play::games_at_once(args->options.threads));
              play::ArenaOptions options = args->options;
              options.on_game = progress.callback();
              play::run_arena<typename decltype(type)::type>(args->agents, options, io.out);
              return 0;
            });
          }};
}

}  // namespace azg::cli
