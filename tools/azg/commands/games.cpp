// `azg games`: the games azg plays, one name per line.
#include "games/games.hpp"

#include <ostream>

#include "tools/azg/commands/command.hpp"

namespace azg::cli {

Command add_games(CLI::App& app) {
  auto* cmd = app.add_subcommand("games", "List the games");
  return {cmd, [](const Io& io) {
            for_each_game(kGames,
                          [&](auto type) { io.out << decltype(type)::type::kName << '\n'; });
            return 0;
          }};
}

}  // namespace azg::cli
