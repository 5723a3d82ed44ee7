#pragma once
// The ladder's options as `azg ladder` and `azg report --ladder` both take them.
#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdint>
#include <string>

#include "play/ladder.hpp"

namespace azg::cli {

struct LadderArgs {
  std::string rungs;  // "": the game's own ladder (play::default_ladder)
  int games = 100, agent_games = 0, threads = 1, opening_plies = -1;
  bool round_robin = false;
  std::uint64_t seed = 1;
  std::string out, calibration;
};

inline play::LadderOptions ladder_options(const LadderArgs& args) {
  play::LadderOptions o;
  if (!args.rungs.empty()) o.rungs = play::parse_rungs(args.rungs);
  o.games = args.games;
  o.agent_games = args.agent_games;
  o.opening_plies = args.opening_plies;
  o.round_robin = args.round_robin;
  o.threads = args.threads;
  o.seed = args.seed;
  o.calibration_file = args.calibration;
  return o;
}

inline constexpr const char* kRungsHelp =
    "Rungs by family, in order of strength: uct:N,... heur:N,... (MCTS on the static evaluation) "
    "ept:N,... (MCTS on playouts cut after 4 turns) ab:D,... (alpha-beta, D decisions deep) "
    "model:NAME[@SIMS],... (models/ladder/NAME.pt, 100 simulations); a plain list is UCT; UCT-400 "
    "among them (default: the game's ladder, docs/ladder.md)";

// The options that set the ladder's table, as `azg ladder` and `azg report --ladder` both
// take them; `prefix` opens each help line ("With --ladder: " in report).
inline void add_ladder_table_options(CLI::App* cmd, LadderArgs& l, const std::string& prefix) {
  const auto help = [&prefix](std::string text) {
    if (prefix.empty())
      text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return prefix + text;
  };
  cmd->add_option("--rungs", l.rungs, help(kRungsHelp));
  cmd->add_option("--opening-plies", l.opening_plies,
                  help("random decisions opening each colour-swapped couple (default: the game's, "
                       "4 without chance)"))
      ->check(CLI::Range(0, 100));
  cmd->add_flag("--round-robin", l.round_robin,
                help("rungs play every other rung, not only their neighbours (the tables of "
                     "docs/ladder.md)"));
  cmd->add_option("--agent-games", l.agent_games,
                  help("paired games per agent pairing (rounded up to even; default: --games), "
                       "so a model is placed on fewer games than the rungs' table holds"))
      ->check(CLI::PositiveNumber);
  cmd->add_option("--calibration", l.calibration,
                  help("file keeping rung-against-rung results (default "
                       "~/.cache/azg/ladder-GAME.json); a pairing it holds with fewer games is "
                       "extended, not replayed"));
}

}  // namespace azg::cli
