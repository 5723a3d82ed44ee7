#pragma once
// Reports on a training run's exported models (`azg report`): their Elo against each
// other, or their learning curve on the game's ladder.
#include <cstdint>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"
#include "play/arena_report.hpp"
#include "play/ladder_report.hpp"
#include "play/paired_games.hpp"

namespace azg::play {

// Elo of a run's successive exported models (models/step-*.pt): each plays the next one
// and the first one; the fit is anchored on the first. Writes report.svg and report.json.
template <Game G>
void report_run_models(const std::string& run_dir, int games, int sims, int threads,
                       std::uint64_t seed, std::ostream& out) {
  const auto agents =
      parse_named_agents({"net=run:dir=" + run_dir + ",sims=" + std::to_string(sims)});
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw Error(run_dir + " has fewer than two evaluated models (models/step-*.pt)");
  std::vector<std::pair<int, int>> pairs;
  for (int i = 1; i < n; ++i) {
    pairs.push_back({i - 1, i});
    if (i > 1) pairs.push_back({0, i});
  }
  const auto played = play_pairs<G>(agents, pairs, games + games % 2, threads, seed);
  const auto fit = fit_elo(n, pair_scores(played), 0);
  std::vector<double> steps;
  nlohmann::json j = {
      {"game", std::string(G::kName)}, {"run_dir", run_dir}, {"games_per_pair", games + games % 2}};
  out << "Elo of " << run_dir << "'s models (first = 0, 95% intervals, " << sims
      << " simulations):\n";
  for (int i = 0; i < n; ++i) {
    const std::string stem = agents[i].name.substr(agents[i].name.find('/') + 1);
    steps.push_back(std::stod(stem.substr(5)));
    out << "  step " << std::setw(8) << static_cast<long>(steps.back()) << "  " << std::fixed
        << std::setprecision(0) << std::setw(6) << fit.elo[i] << " +/- " << fit.interval[i] << '\n';
    j["models"].push_back({{"model", stem},
                           {"step", steps.back()},
                           {"elo", fit.elo[i]},
                           {"interval95", fit.interval[i]}});
  }
  write_text_atomically(run_dir + "/report.json", j.dump(2) + "\n");
  write_text_atomically(run_dir + "/report.svg",
                        progress_svg(steps, fit, std::string(G::kName) + ": Elo over training"));
  out << "wrote " << run_dir << "/report.svg and report.json\n";
}

// A run's models (at most `max_models`, evenly spaced) on the ladder at `sims`
// simulations: Elo (UCT-400 = 0) against training minutes, written to `out_dir` (the run
// directory when empty).
template <Game G>
void report_run_on_ladder(const std::string& run_dir, const LadderOptions& options, int sims,
                          int max_models, const std::string& out_dir, std::ostream& out) {
  const auto models = run_models_on_clock(run_dir, max_models);
  std::vector<NamedAgent> agents;
  for (const auto& m : models)
    agents.push_back(
        {m.name, mcts::parse_agent_spec("az:model=" + m.path + ",sims=" + std::to_string(sims))});
  const auto result = run_ladder<G>(agents, options);
  print_ladder(result, out);
  out << "model             minutes   games    elo   +/-\n";
  for (const auto& m : models)
    if (const int i = result.index_of(m.name); i >= 0)
      out << std::left << std::setw(16) << m.name << std::right << std::fixed
          << std::setprecision(1) << std::setw(9) << m.minutes << std::setw(8) << m.games
          << std::showpos << std::setprecision(0) << std::setw(7) << result.fit.elo[i]
          << std::noshowpos << std::setw(6) << result.fit.interval[i] << '\n';
  const std::string dir = out_dir.empty() ? run_dir : out_dir;
  write_ladder_curve(result, models, dir);
  out << "wrote " << dir
      << "/{ladder-curve.csv,ladder-curve.svg,ladder.json,ladder.csv,ladder.svg}\n";
}

}  // namespace azg::play
