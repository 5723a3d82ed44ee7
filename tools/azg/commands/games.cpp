// `azg games`: the games azg plays, one name per line: the seed games and their variants,
// then, after a comment line, the reference games (Connect Four), which are there to
// compare azg with other systems.
#include "games/games.hpp"

#include <ostream>

#include "env/common/game_traits.hpp"
#include "tools/azg/commands/command.hpp"

namespace azg::cli {

Command add_games(CLI::App& app) {
  auto* cmd = app.add_subcommand("games", "List the games");
  return {cmd, [](const Io& io) {
            for_each_game(kGames, [&](auto type) {
              using G = typename decltype(type)::type;
              if (!is_reference_game<G>()) io.out << G::kName << '\n';
            });
            io.out << "# reference games, to compare azg with other systems:\n";
            for_each_game(kGames, [&](auto type) {
              using G = typename decltype(type)::type;
              if (is_reference_game<G>()) io.out << G::kName << '\n';
            });
            return 0;
          }};
}

}  // namespace azg::cli
