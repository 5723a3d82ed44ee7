// `azg bench mcts`: search speed without a network (mcts/search_bench.hpp).
#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>

#include "games/games.hpp"
#include "mcts/search_bench.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct BenchMctsArgs {
  std::string game;
  mcts::SearchBenchOptions o;
};

template <Game G>
int bench_mcts(const mcts::SearchBenchOptions& o, std::ostream& out) {
  const mcts::SearchBenchResult r = mcts::bench_search<G>(o);
  out << G::kName << ": " << o.evaluator << " evaluator, " << o.threads << " thread(s) x "
      << o.searches_per_thread << " searches x " << o.simulations << " simulations, batch "
      << o.batch << '\n'
      << std::fixed << std::setprecision(0) << "simulations/s: " << r.simulations / r.seconds
      << " (" << r.simulations << " in " << std::setprecision(2) << r.seconds << " s)\n"
      << std::setprecision(0) << "nodes/s: " << r.nodes / r.seconds << " (" << std::setprecision(2)
      << static_cast<double>(r.nodes) /
             static_cast<double>(std::max<std::int64_t>(r.simulations, 1))
      << " per simulation)\n";
  return 0;
}

}  // namespace

Command add_bench_mcts(CLI::App& bench) {
  auto args = std::make_shared<BenchMctsArgs>();
  auto& o = args->o;
  auto* cmd = bench.add_subcommand("mcts", "Search speed: simulations/s and nodes");
  add_game_option(cmd, args->game);
  cmd->add_option("--evaluator", o.evaluator, "uniform (default) or rollout");
  cmd->add_option("--sims", o.simulations, "Simulations per search (default 800)");
  cmd->add_option("--threads", o.threads, "Worker threads (default 1)");
  cmd->add_option("--searches", o.searches_per_thread,
                  "Concurrent searches per thread (default 16)");
  cmd->add_option("--batch", o.batch, "Leaves per evaluator call (default 64)");
  cmd->add_option("--seconds", o.seconds, "How long to run (default 3)");
  cmd->add_option("--seed", o.seed, "Seed");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return bench_mcts<typename decltype(type)::type>(args->o, io.out);
            });
          }};
}

}  // namespace azg::cli
