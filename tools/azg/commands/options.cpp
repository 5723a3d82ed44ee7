#include "tools/azg/commands/options.hpp"

#include "games/games.hpp"
#include "play/agent_help.hpp"

namespace azg::cli {

void add_game_option(CLI::App* cmd, std::string& game) {
  cmd->add_option("--game,-g", game, "Game: " + game_names(kGames))->required();
}

void add_position_options(CLI::App* cmd, PositionArgs& pos) {
  cmd->add_option("--setup", pos.setup,
                  "Game-specific setup (Truchet: 49 tile bits a1..g7); default: the game's "
                  "standard start, or a random one drawn from --seed")
      ->each([&pos](const std::string&) { pos.setup_given = true; });
  cmd->add_option("--moves", pos.moves,
                  "Action strings replayed from the start, separated by spaces");
  cmd->add_option("--seed", pos.seed, "Seed for a random setup (games that have one)");
}

void add_run_options(CLI::App* cmd, std::string& redis, std::string& run, std::string& config,
                     std::vector<std::string>& overrides) {
  cmd->add_option("--redis", redis, "Redis HOST:PORT (password in AZG_REDIS_PASSWORD)")->required();
  cmd->add_option("--run", run, "The run's name: the same for the learner and its actors")
      ->required();
  cmd->add_option("--config", config, "The run's YAML config: the same in every process")
      ->required();
  cmd->add_option("--set", overrides, "KEY=VALUE overrides: the same in every process");
}

void add_agent_help(CLI::App* cmd) {
  cmd->footer(play::agent_spec_help());
}

}  // namespace azg::cli
