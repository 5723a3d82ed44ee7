// `azg engine`: one agent speaks the engine protocol on stdin/stdout (protocol/engine.hpp,
// docs/protocol.md).
#include "protocol/engine.hpp"

#include <memory>
#include <string>
#include <utility>

#include "games/games.hpp"
#include "play/session.hpp"
#include "play/shipped_models.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {

Command add_engine(CLI::App& app) {
  auto args = std::make_shared<std::pair<std::string, std::string>>();  // game, agent spec
  auto* cmd =
      app.add_subcommand("engine", "Speak the engine protocol on stdin/stdout (docs/protocol.md)");
  add_game_option(cmd, args->first);
  cmd->add_option("--agent", args->second,
                  "The agent that thinks (a spec, below; default: the game's shipped model, "
                  "az:model=shipped)");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->first, [&](auto type) {
              using G = typename decltype(type)::type;
              protocol::Engine engine(std::make_unique<play::GameSession<G>>(),
                                      play::agent_or_shipped(args->second, std::string(G::kName)),
                                      io.out);
              engine.run(io.in);
              return 0;
            });
          }};
}

}  // namespace azg::cli
