// OpenSpiel's connect_four as an independent perft for azg's connect4 engine (issue #60,
// clause 1): the number of move sequences of DEPTH moves from a position, a finished game
// counting as a leaf not searched past its end, as `azg perft` counts. Built by
// tools/anchor_openspiel/CMakeLists.txt; tools/anchor_openspiel.sh compares the two.
//
//   perft_openspiel DEPTH [MOVES]   MOVES: columns 1-7, compact ("4453")
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "open_spiel/spiel.h"

namespace {

long long perft(const open_spiel::State& state, int depth) {
  if (depth == 0) return 1;
  if (state.IsTerminal()) return 0;
  long long leaves = 0;
  for (open_spiel::Action a : state.LegalActions()) leaves += perft(*state.Child(a), depth - 1);
  return leaves;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: perft_openspiel DEPTH [MOVES]\n";
    return 2;
  }
  const int depth = std::stoi(argv[1]);
  const auto game = open_spiel::LoadGame("connect_four");
  std::unique_ptr<open_spiel::State> state = game->NewInitialState();
  for (char c : std::string(argc == 3 ? argv[2] : "")) {
    const auto legal = state->LegalActions();
    const open_spiel::Action a = c - '1';
    if (c < '1' || c > '7' || state->IsTerminal() ||
        std::find(legal.begin(), legal.end(), a) == legal.end()) {
      std::cerr << "perft_openspiel: move '" << c << "' does not replay\n";
      return 2;
    }
    state->ApplyAction(a);
  }
  std::cout << perft(*state, depth) << "\n";
  return 0;
}
