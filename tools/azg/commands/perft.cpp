// `azg perft`: how many action sequences of a given length leave a position (--divide:
// below each legal action first), the engines' standard correctness check, over threads
// (tasks/parallel_perft.hpp).
#include <memory>
#include <ostream>
#include <string>

#include "games/games.hpp"
#include "tasks/parallel_perft.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct PerftArgs {
  std::string game;
  PositionArgs pos;
  int depth = 1;
  int threads = 0;  // 0: every core
  bool divide = false;
};

template <Game G>
int perft_command(const PerftArgs& args, std::ostream& out) {
  if (args.depth < 0) throw Error("--depth must be at least 0, got " + std::to_string(args.depth));
  if (args.threads < 0)
    throw Error("--threads must be at least 0 (0: every core), got " +
                std::to_string(args.threads));
  const G state = position_from<G>(args.pos);
  if (args.divide) {
    std::uint64_t total = args.depth == 0 ? 1 : 0;
    for (const auto& [a, n] : tasks::parallel_perft_divide(state, args.depth, args.threads)) {
      total += n;
      out << state.action_to_string(a) << ": " << n << '\n';
    }
    out << total << '\n';
    return 0;
  }
  out << tasks::parallel_perft(state, args.depth, args.threads) << '\n';
  return 0;
}

}  // namespace

Command add_perft(CLI::App& app) {
  auto args = std::make_shared<PerftArgs>();
  auto* cmd = app.add_subcommand("perft", "Count action sequences of a given length");
  add_game_option(cmd, args->game);
  add_position_options(cmd, args->pos);
  cmd->add_option("--depth,-d", args->depth, "Depth (actions)")->required();
  cmd->add_flag("--divide", args->divide, "Print the count below each legal action first");
  cmd->add_option("--threads", args->threads,
                  "Threads counting subtrees at once (default 0: every core; the counts do not "
                  "depend on it)");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return perft_command<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
