#pragma once
// Options several commands share: the game, a position (setup and moves), the options of
// a distributed run's processes, and the agent-spec help every --agent shows.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"

namespace azg::cli {

void add_game_option(CLI::App* cmd, std::string& game);

// Where a command starts: the game's setup followed by a list of action strings.
struct PositionArgs {
  std::string setup;
  std::string moves;
  bool setup_given = false;
  std::uint64_t seed = 0;  // draws the random setup when the game has one and none is given
};
void add_position_options(CLI::App* cmd, PositionArgs& pos);

template <Game G>
G position_from(const PositionArgs& args) {
  Rng rng(args.seed);
  const G start = args.setup_given ? G::from_setup(args.setup) : G::random_setup(rng);
  return replay(start, split_words(args.moves));
}

// What every process of a distributed run gives alike (the config hash covers the last two).
void add_run_options(CLI::App* cmd, std::string& redis, std::string& run, std::string& config,
                     std::vector<std::string>& overrides);

// The agent-spec grammar (play/agent_help.hpp) as the command's help footer.
void add_agent_help(CLI::App* cmd);

}  // namespace azg::cli
