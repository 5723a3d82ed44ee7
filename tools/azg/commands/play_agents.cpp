// `azg play-agents`: two agents play each other on the arena's paired games (colours
// swapped within a couple, which shares its setup and chance draws); each game's result
// prints in game order.
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/paired_games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct PlayAgentsArgs {
  std::string game;
  std::vector<std::string> specs;
  int games = 2, threads = 1;
  std::uint64_t seed = 1;
};

template <Game G>
int play_agents(const PlayAgentsArgs& args, std::ostream& out) {
  if (args.specs.size() != 2) throw Error("--agents takes exactly two agent specs");
  if (args.games < 1) throw Error("--games must be at least 1");
  if (args.threads < 1) throw Error("--threads must be at least 1");
  const std::vector<play::NamedAgent> agents{
      {args.specs[0], mcts::parse_agent_spec(args.specs[0])},
      {args.specs[1], mcts::parse_agent_spec(args.specs[1])}};
  const auto played = play::play_pairs<G>(agents, {{0, 1}}, args.games, args.threads, args.seed);
  play::Score a;
  for (std::size_t i = 0; i < played.size(); ++i) {
    const auto& g = played[i];
    out << "game " << i + 1 << ": " << agents[g.first].name << " (player 0) vs "
        << agents[g.second].name << " (player 1): " << outcome_string(g.record.outcome) << ", "
        << g.record.actions.size() << " actions\n";
    a.add(g.points_of(0));
  }
  out << std::fixed << std::setprecision(1) << agents[0].name << ": " << a.wins << " wins, "
      << a.draws << " draws, " << a.losses << " losses (" << 100.0 * a.rate() << "%)\n"
      << agents[1].name << ": " << a.losses << " wins, " << a.draws << " draws, " << a.wins
      << " losses (" << 100.0 * (1 - a.rate()) << "%)\n";
  return 0;
}

}  // namespace

Command add_play_agents(CLI::App& app) {
  auto args = std::make_shared<PlayAgentsArgs>();
  auto* cmd =
      app.add_subcommand("play-agents", "Play two agents against each other, alternating colours");
  add_game_option(cmd, args->game);
  cmd->add_option("--agents", args->specs, "Two agent specs (below)")->required()->expected(2);
  cmd->add_option("--games", args->games, "Number of games (colours alternate; default 2)");
  cmd->add_option("--seed", args->seed, "Seed (agents and chance)");
  cmd->add_option("--threads", args->threads, "Games played at once (default 1)");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return play_agents<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
