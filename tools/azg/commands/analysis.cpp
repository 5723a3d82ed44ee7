// `azg analysis`: JSON queries in, JSON lines out: one agent analyses positions
// (protocol/analysis.hpp, docs/protocol.md).
#include "protocol/analysis.hpp"

#include <memory>
#include <string>
#include <utility>

#include "games/games.hpp"
#include "play/session.hpp"
#include "play/shipped_models.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {

Command add_analysis(CLI::App& app) {
  auto args = std::make_shared<std::pair<std::string, std::string>>();  // game, agent spec
  auto* cmd = app.add_subcommand(
      "analysis", "Analyse positions: JSON queries in, JSON lines out (docs/protocol.md)");
  add_game_option(cmd, args->first);
  cmd->add_option("--agent", args->second,
                  "The agent that analyses (a spec, below; default: the game's shipped model, "
                  "az:model=shipped)");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->first, [&](auto type) {
              using G = typename decltype(type)::type;
              protocol::Analysis analysis(
                  std::make_unique<play::GameSession<G>>(),
                  play::agent_or_shipped(args->second, std::string(G::kName)), io.out);
              analysis.run(io.in);
              return 0;
            });
          }};
}

}  // namespace azg::cli
