// Scores an OpenSpiel alpha_zero_torch checkpoint on azg's solved Connect Four positions
// with azg's metric (play/accuracy.hpp): the share of positions where the agent's move keeps
// the solved value, with its 95% Wilson interval, overall and by phase. Built against
// OpenSpiel's headers by tools/anchor_openspiel/CMakeLists.txt, for tools/anchor_openspiel.sh.
//
//   score_openspiel RUN_DIR CHECKPOINT POSITIONS SIMS
//
// RUN_DIR is an alpha_zero_torch_example --path (its config.json and vpnet.pb), CHECKPOINT
// a step it saved (RUN_DIR/checkpoint-STEP.pt; -1 the latest), POSITIONS azg's JSON lines
// (data/connect4/positions.jsonl: moves and keeping moves as columns "1".."7"). SIMS 0 plays
// the policy's most likely legal move; SIMS > 0 OpenSpiel's MCTSBot as its evaluation games
// run it (PUCT, the run's uct_c, no noise). Prints one JSON line on stdout.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "open_spiel/algorithms/alpha_zero_torch/device_manager.h"
#include "open_spiel/algorithms/alpha_zero_torch/vpevaluator.h"
#include "open_spiel/algorithms/alpha_zero_torch/vpnet.h"
#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

namespace {

namespace az = open_spiel::algorithms::torch_az;
using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "score_openspiel: " << message << "\n";
  std::exit(2);
}

Json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  try {
    return Json::parse(in);
  } catch (const std::exception& e) {
    fail(path + " is not JSON: " + e.what());
  }
}

struct Share {
  int hits = 0, total = 0;
  // The 95% Wilson interval, as play/accuracy.hpp computes it.
  Json to_json() const {
    const double z = 1.959964, n = total, p = total ? hits / n : 0.0;
    double low = 0, high = 1;
    if (total) {
      const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
      const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
      low = std::max(0.0, centre - half);
      high = std::min(1.0, centre + half);
    }
    return {{"positions", total}, {"keeping", p}, {"low", low}, {"high", high}};
  }
};

// azg's connect4 names a move by its column, "1" to "7"; OpenSpiel's action is column - 1.
open_spiel::Action action_of(const std::string& column, const std::string& where) {
  if (column.size() != 1 || column[0] < '1' || column[0] > '7')
    fail(where + ": \"" + column + "\" is not a column 1-7");
  return column[0] - '1';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) fail("usage: score_openspiel RUN_DIR CHECKPOINT POSITIONS SIMS");
  const std::string run = argv[1], positions_path = argv[3];
  const int checkpoint = std::stoi(argv[2]), sims = std::stoi(argv[4]);
  const Json config = read_json(run + "/config.json");
  if (config.value("game", "") != "connect_four") fail(run + " did not train connect_four");

  const std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame("connect_four");
  az::DeviceManager devices;
  devices.AddDevice(az::VPNetModel(*game, run, config.value("graph_def", "vpnet.pb"), "/cpu:0"));
  devices.Get(0)->LoadCheckpoint(run + "/checkpoint-" + std::to_string(checkpoint));
  auto evaluator = std::make_shared<az::VPNetEvaluator>(&devices, /*batch_size=*/1,
                                                        /*threads=*/0, /*cache_size=*/1 << 16);

  std::ifstream in(positions_path);
  if (!in) fail("cannot read " + positions_path);
  Share all;
  std::map<std::string, Share> by_phase;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::string where = positions_path + ":" + std::to_string(number);
    Json p;
    try {
      p = Json::parse(line);
    } catch (const std::exception&) {
      fail(where + " is not JSON");
    }
    std::unique_ptr<open_spiel::State> state = game->NewInitialState();
    for (const auto& m : p.at("moves")) {
      const open_spiel::Action a = action_of(m.get<std::string>(), where);
      const auto legal = state->LegalActions();
      if (state->IsTerminal() || std::find(legal.begin(), legal.end(), a) == legal.end())
        fail(where + ": move " + m.get<std::string>() + " does not replay");
      state->ApplyAction(a);
    }
    if (state->IsTerminal()) fail(where + ": the game is over in this position");

    open_spiel::Action move;
    if (sims == 0) {
      const auto prior = evaluator->Prior(*state);  // legal actions only
      move = std::max_element(prior.begin(), prior.end(), [](auto& a, auto& b) {
               return a.second < b.second;
             })->first;
    } else {
      open_spiel::algorithms::MCTSBot bot(
          *game, evaluator, config.value("uct_c", 2.0), sims, /*max_memory_mb=*/10,
          /*solve=*/false, /*seed=*/number, /*verbose=*/false,
          open_spiel::algorithms::ChildSelectionPolicy::PUCT, /*dirichlet_alpha=*/0,
          /*dirichlet_epsilon=*/0, /*dont_return_chance_node=*/true);
      move = bot.Step(*state);
    }
    bool keeps = false;
    for (const auto& k : p.at("keeping")) keeps |= action_of(k.get<std::string>(), where) == move;
    for (Share* s : {&all, &by_phase[p.value("phase", "all")]}) {
      s->total += 1;
      s->hits += keeps;
    }
  }
  Json out = all.to_json();
  out["checkpoint"] = checkpoint;
  out["sims"] = sims;
  for (const auto& [phase, share] : by_phase) out["phases"][phase] = share.to_json();
  std::cout << out.dump() << std::endl;
  return 0;
}
