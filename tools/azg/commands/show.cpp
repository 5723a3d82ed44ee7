// `azg show`: a position as text (board, who acts, phase).
#include <memory>
#include <ostream>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct ShowArgs {
  std::string game;
  PositionArgs pos;
};

}  // namespace

Command add_show(CLI::App& app) {
  auto args = std::make_shared<ShowArgs>();
  auto* cmd = app.add_subcommand("show", "Print the position as text: board, who acts, phase");
  add_game_option(cmd, args->game);
  add_position_options(cmd, args->pos);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              io.out << position_from<typename decltype(type)::type>(args->pos).render();
              return 0;
            });
          }};
}

}  // namespace azg::cli
