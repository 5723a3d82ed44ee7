#pragma once
// The ladder's options as `azg ladder` and `azg report --ladder` both take them.
#include <cstdint>
#include <string>

#include "play/ladder.hpp"

namespace azg::cli {

struct LadderArgs {
  std::string rungs;  // "": the game's own ladder (play::default_ladder)
  int games = 100, threads = 1, opening_plies = -1;
  bool round_robin = false;
  std::uint64_t seed = 1;
  std::string out, calibration;
};

inline play::LadderOptions ladder_options(const LadderArgs& args) {
  play::LadderOptions o;
  if (!args.rungs.empty()) o.rungs = play::parse_rungs(args.rungs);
  o.games = args.games;
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

}  // namespace azg::cli
