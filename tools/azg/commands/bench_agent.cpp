// `azg bench agent`: milliseconds per decision of one agent spec (a ladder rung's cost).
#include <iomanip>
#include <memory>
#include <ostream>

#include "games/games.hpp"
#include "play/agent_cost.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct BenchAgentArgs {
  std::string game, spec;
  int moves = 40;
  std::uint64_t seed = 0;
};

template <Game G>
int bench_agent(const BenchAgentArgs& args, std::ostream& out) {
  const auto cost = play::bench_agent<G>(mcts::parse_agent_spec(args.spec), args.moves, args.seed);
  out << std::fixed << std::setprecision(1) << G::kName << " " << args.spec << ": "
      << cost.mean_ms() << " ms per decision (mean), " << cost.median_ms() << " ms (median), "
      << cost.ms.size() << " positions from random games, 1 thread\n";
  return 0;
}

}  // namespace

Command add_bench_agent(CLI::App& bench) {
  auto args = std::make_shared<BenchAgentArgs>();
  auto* cmd =
      bench.add_subcommand("agent", "Milliseconds per decision of an agent (a ladder rung's cost)");
  add_game_option(cmd, args->game);
  cmd->add_option("--agent", args->spec,
                  "An agent spec, as arena takes it (mcts:sims=400, ab:depth=3, ...)")
      ->required();
  cmd->add_option("--moves", args->moves,
                  "Decisions timed, each at a position from a random game (default 40)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", args->seed, "Seed");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return bench_agent<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
