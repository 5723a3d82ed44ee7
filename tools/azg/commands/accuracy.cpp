// `azg accuracy`: how often an agent's move keeps the solved value of the positions of a
// test set (play/accuracy.hpp), overall and by phase, with 95% intervals.
#include "play/accuracy.hpp"

#include <memory>
#include <ostream>

#include "games/games.hpp"
#include "play/agents.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct AccuracyArgs {
  std::string game;
  std::vector<std::string> agents;
  std::string positions;
  std::uint64_t seed = 1;
};

}  // namespace

Command add_accuracy(CLI::App& app) {
  auto args = std::make_shared<AccuracyArgs>();
  auto* cmd = app.add_subcommand(
      "accuracy", "Share of a solved test set's positions where an agent keeps the value");
  add_game_option(cmd, args->game);
  cmd->add_option("--agent", args->agents, "Agent spec (below); repeat to compare several")
      ->required();
  cmd->add_option("--positions", args->positions,
                  "Solved positions, JSON lines (azg solve --batch; data/connect4/)")
      ->required();
  cmd->add_option("--seed", args->seed, "Seed of the agents");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              using G = typename decltype(type)::type;
              const auto positions = play::read_test_positions(args->positions);
              // Every spec is checked before the first one plays.
              std::vector<mcts::AgentFactory<G>> factories;
              for (const auto& spec : args->agents)
                factories.push_back(play::agent_factory<G>(mcts::parse_agent_spec(spec)));
              for (std::size_t i = 0; i < factories.size(); ++i) {
                const auto report = play::measure_accuracy<G>(positions, factories[i], args->seed);
                io.out << (i ? "\n" : "") << play::format_accuracy(report, args->agents[i]);
              }
              return 0;
            });
          }};
}

}  // namespace azg::cli
