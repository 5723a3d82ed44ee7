// `azg bench env`: random playouts on one thread (games/s, actions/s), and the static
// evaluation's calls per second where the game has one.
#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>

#include "env/common/evaluation_bench.hpp"
#include "env/common/playout_bench.hpp"
#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct BenchEnvArgs {
  std::string game;
  double seconds = 3.0;
  std::uint64_t seed = 0;
};

template <Game G>
int bench_env(const BenchEnvArgs& args, std::ostream& out) {
  if (!(args.seconds > 0)) throw Error("--seconds must be positive");
  const PlayoutBenchResult r = bench_playouts<G>(args.seconds, args.seed);
  out << std::fixed << std::setprecision(0) << G::kName << ": " << r.games << " games, "
      << r.actions << " actions in " << std::setprecision(2) << r.seconds << " s (1 thread)\n"
      << std::setprecision(0) << "games/s:   " << r.games / r.seconds << '\n'
      << "actions/s: " << r.actions / r.seconds << '\n'
      << std::setprecision(1)
      << "actions/game: " << static_cast<double>(r.actions) / static_cast<double>(r.games) << '\n';
  if constexpr (kHasEvaluation<G>) {
    // Timed after the playouts, so it never slows them.
    const EvaluationBenchResult e = bench_evaluation<G>(std::min(args.seconds, 1.0), args.seed);
    out << std::setprecision(0) << "evaluations/s: " << static_cast<double>(e.calls) / e.seconds
        << " (static evaluation, 1 thread, " << std::setprecision(2)
        << 1e6 * e.seconds / static_cast<double>(e.calls) << " us per call)\n";
  }
  return 0;
}

}  // namespace

Command add_bench_env(CLI::App& bench) {
  auto args = std::make_shared<BenchEnvArgs>();
  auto* cmd = bench.add_subcommand("env", "Random playouts on one thread: games/s, actions/s");
  add_game_option(cmd, args->game);
  cmd->add_option("--seconds", args->seconds, "How long to run (default 3)");
  cmd->add_option("--seed", args->seed, "Seed");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return bench_env<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
