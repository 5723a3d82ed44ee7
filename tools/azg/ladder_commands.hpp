#pragma once
// `azg ladder` and `azg report --ladder`: argument handling over play/ladder.
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "play/agent_cost.hpp"
#include "play/ladder_report.hpp"

namespace azg {

struct LadderArgs {
  std::vector<std::string> agents;  // SPEC or NAME=SPEC
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

// An agent is SPEC (named agent, agent2, ...) or NAME=SPEC; a spec's own '=' comes after
// its kind's ':', so "az:model=m.pt" is a spec and "net=az:model=m.pt" a named one.
inline std::vector<play::NamedAgent> ladder_agents(const std::vector<std::string>& items) {
  std::vector<std::string> named;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto eq = items[i].find('='), colon = items[i].find(':');
    const bool has_name = eq != std::string::npos && (colon == std::string::npos || eq < colon);
    named.push_back(has_name ? items[i] : (i == 0 ? "agent" : "agent" + std::to_string(i + 1)) + "=" + items[i]);
  }
  return play::parse_named_agents(named);
}

template <Game G>
int cmd_ladder(const LadderArgs& args, std::ostream& out) {
  const auto options = ladder_options(args);
  const auto result = play::run_ladder<G>(ladder_agents(args.agents), options);
  play::print_ladder(result, out);
  if (!args.out.empty()) {
    play::write_ladder(result, args.out);
    out << "wrote " << args.out << "/{ladder.json,ladder.csv,ladder.svg}\n";
  }
  return 0;
}

// `azg bench agent`: milliseconds per decision of one agent spec (a rung's cost).
template <Game G>
int cmd_bench_agent(const std::string& spec, int moves, std::uint64_t seed, std::ostream& out) {
  const auto cost = play::bench_agent<G>(mcts::parse_agent_spec(spec), moves, seed);
  out << std::fixed << std::setprecision(1) << G::kName << " " << spec << ": " << cost.mean_ms()
      << " ms per decision (mean), " << cost.median_ms() << " ms (median), " << cost.ms.size()
      << " positions from random games, 1 thread\n";
  return 0;
}

// Rates a run's models on the ladder: Elo (UCT-400 = 0) against training minutes.
template <Game G>
int cmd_report_ladder(const std::string& run_dir, const LadderArgs& args, int sims, int max_models, std::ostream& out) {
  const auto options = ladder_options(args);
  const auto models = play::run_models_on_clock(run_dir, max_models);
  std::vector<play::NamedAgent> agents;
  for (const auto& m : models)
    agents.push_back({m.name, mcts::parse_agent_spec("az:model=" + m.path + ",sims=" + std::to_string(sims))});
  const auto result = play::run_ladder<G>(agents, options);
  play::print_ladder(result, out);
  out << "model             minutes   games    elo   +/-\n";
  for (const auto& m : models)
    if (const int i = result.index_of(m.name); i >= 0)
      out << std::left << std::setw(16) << m.name << std::right << std::fixed << std::setprecision(1)
          << std::setw(9) << m.minutes << std::setw(8) << m.games << std::showpos << std::setprecision(0)
          << std::setw(7) << result.fit.elo[i] << std::noshowpos << std::setw(6) << result.fit.interval[i] << '\n';
  const std::string dir = args.out.empty() ? run_dir : args.out;
  play::write_ladder_curve(result, models, dir);
  out << "wrote " << dir << "/{ladder-curve.csv,ladder-curve.svg,ladder.json,ladder.csv,ladder.svg}\n";
  return 0;
}

}  // namespace azg
