// `azg models`: the models the project ships (models/README.md), one row a game with its
// recipe, training minutes and games, the symmetry its agents play with, and rating; each
// is loaded and checked against this build's encoding of its game, and a refused one says
// why (exit status 1).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/agents.hpp"
#include "play/shipped_models.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {

Command add_models(CLI::App& app) {
  auto game = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "models", "List the shipped models (az:model=shipped) with their ratings (models/README.md)");
  cmd->add_option("--game,-g", *game, "This game's model only");
  return {cmd, [game](const Io& io) {
            std::vector<std::string> names;
            for_each_game(kGames, [&](auto type) {
              using G = typename decltype(type)::type;
              if (game->empty() || *game == G::kName) names.emplace_back(G::kName);
            });
            if (names.empty())
              throw Error("unknown game " + quote_input(*game) + " (known: " + game_names(kGames) +
                          ")");
            const auto models = play::shipped_models(names);
            std::vector<std::string> checks, plays;
            bool refused = false;
            for (const auto& m : models)
              with_game(kGames, m.game, [&](auto type) {
                using G = typename decltype(type)::type;
                try {
                  const auto spec =
                      mcts::parse_agent_spec(std::string("az:model=") + play::kShippedModel);
                  const auto model = play::load_agent_model(spec, m.game);
                  play::check_agent_model<G>(*model, spec);
                  checks.emplace_back("ok");
                  // The symmetry its agents read leaves under unless a spec sets symmetry=.
                  const nets::NetConfig& net = model->meta().net;
                  plays.emplace_back("symmetry=" + net.play_symmetry_setting().name());
                } catch (const Error& e) {
                  checks.emplace_back(e.what());
                  plays.emplace_back("?");
                  refused = true;
                }
                return 0;
              });
            if (models.empty()) {
              io.out << "no shipped model" << (game->empty() ? "" : " for " + *game)
                     << " (models/README.md says how one is made)\n";
              return 0;
            }
            io.out << play::format_shipped_models(models, checks, plays);
            return refused ? 1 : 0;
          }};
}

}  // namespace azg::cli
