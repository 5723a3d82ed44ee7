// `azg perft`: how many action sequences of a given length leave a position (--divide:
// below each legal action first), the engines' standard correctness check.
#include "env/common/perft.hpp"

#include <memory>
#include <ostream>
#include <string>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct PerftArgs {
  std::string game;
  PositionArgs pos;
  int depth = 1;
  bool divide = false;
};

template <Game G>
int perft_command(const PerftArgs& args, std::ostream& out) {
  if (args.depth < 0) throw Error("--depth must be at least 0, got " + std::to_string(args.depth));
  const G state = position_from<G>(args.pos);
  if (args.divide) {
    std::uint64_t total = args.depth == 0 ? 1 : 0;
    for (const auto& [a, n] : perft_divide(state, args.depth)) {
      total += n;
      out << state.action_to_string(a) << ": " << n << '\n';
    }
    out << total << '\n';
    return 0;
  }
  out << perft(state, args.depth) << '\n';
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
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return perft_command<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
