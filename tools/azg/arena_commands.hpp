#pragma once
// Evaluation gauntlets: `azg arena` (round-robin or gauntlet, Elo with 95% intervals,
// pairwise scores, JSON/CSV/SVG and replayable game records), `azg sprt`, `azg report`.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "env/common/atomic_file.hpp"
#include "play/arena_report.hpp"
#include "play/paired_games.hpp"
#include "play/sprt_match.hpp"

namespace azg {

using play::NamedAgent;
using play::parse_named_agents;
using play::play_pairs;

template <Game G>
int cmd_arena(const std::vector<std::string>& agent_items, int games, const std::string& format, int threads,
              std::uint64_t seed, const std::string& anchor_name, const std::string& out_dir, std::ostream& out,
              int opening_plies = 0) {
  const auto agents = parse_named_agents(agent_items);
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw Error("an arena needs at least two --agent");
  if (games < 1 || threads < 1) throw Error("--games and --threads must be positive");
  std::vector<std::string> names;
  for (const auto& a : agents) names.push_back(a.name);
  const auto pairs = play::tournament_pairs(n, format);
  const int anchor = play::anchor_index(names, anchor_name);
  const int per_pair = games + games % 2;  // colour-swapped pairs of games
  const auto played = play_pairs<G>(agents, pairs, per_pair, threads, seed, {}, opening_plies);
  std::vector<play::ArenaEntry> entries;
  for (const auto& a : agents) entries.push_back({a.name, a.spec.text});
  play::report_arena(G::kName, entries, played, format, anchor, out_dir, out);
  return 0;
}

template <Game G>
int cmd_sprt(const std::vector<std::string>& agent_items, double elo0, double elo1, double alpha, double beta,
             int max_games, int threads, std::uint64_t seed, std::ostream& out) {
  const auto agents = parse_named_agents(agent_items);
  if (agents.size() != 2) throw Error("sprt takes exactly two --agent (the first is tested against the second)");
  if (!(elo1 > elo0) || alpha <= 0 || alpha >= 0.5 || beta <= 0 || beta >= 0.5)
    throw Error("sprt needs elo1 > elo0 and alpha, beta in (0, 0.5)");
  play::Sprt sprt(elo0, elo1, alpha, beta);
  out << "SPRT " << agents[0].name << " vs " << agents[1].name << ": H0 elo " << elo0 << ", H1 elo " << elo1
      << ", bounds [" << std::setprecision(3) << sprt.lower() << ", " << sprt.upper() << "]\n";
  const auto factories = play::factories_of<G>(agents);
  int played = 0;
  const play::SprtMatch m = play::run_sprt<G>(factories[0], factories[1], sprt, max_games, threads, seed,
                                              [&](double points, const play::Sprt& s) {
                                                out << "game " << ++played << ": " << points << "  LLR " << std::fixed
                                                    << std::setprecision(3) << s.llr() << '\n';
                                              });
  out << (m.decision == play::Sprt::Decision::kAcceptH1   ? "H1 accepted"
          : m.decision == play::Sprt::Decision::kAcceptH0 ? "H0 accepted"
                                                          : "no decision (max games)")
      << " after " << m.score.games() << " games, score " << std::setprecision(1) << 100.0 * m.score.rate() << "%\n";
  return 0;
}

}  // namespace azg

namespace azg {

// Elo of a run's successive exported models (models/step-*.pt): each plays the next one
// and the first one; the fit is anchored on the first. Writes report.svg and report.json.
template <Game G>
int cmd_report(const std::string& run_dir, int games, int sims, int threads, std::uint64_t seed, std::ostream& out) {
  const auto agents = parse_named_agents({"net=run:dir=" + run_dir + ",sims=" + std::to_string(sims)});
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw Error(run_dir + " has fewer than two evaluated models (models/step-*.pt)");
  std::vector<std::pair<int, int>> pairs;
  for (int i = 1; i < n; ++i) {
    pairs.push_back({i - 1, i});
    if (i > 1) pairs.push_back({0, i});
  }
  const auto played = play_pairs<G>(agents, pairs, games + games % 2, threads, seed);
  const auto fit = play::fit_elo(n, play::pair_scores(played), 0);
  std::vector<double> steps;
  nlohmann::json j = {{"game", std::string(G::kName)}, {"run_dir", run_dir}, {"games_per_pair", games + games % 2}};
  out << "Elo of " << run_dir << "'s models (first = 0, 95% intervals, " << sims << " simulations):\n";
  for (int i = 0; i < n; ++i) {
    const std::string stem = agents[i].name.substr(agents[i].name.find('/') + 1);
    steps.push_back(std::stod(stem.substr(5)));
    out << "  step " << std::setw(8) << static_cast<long>(steps.back()) << "  " << std::fixed << std::setprecision(0)
        << std::setw(6) << fit.elo[i] << " +/- " << fit.interval[i] << '\n';
    j["models"].push_back({{"model", stem}, {"step", steps.back()}, {"elo", fit.elo[i]}, {"interval95", fit.interval[i]}});
  }
  write_text_atomically(run_dir + "/report.json", j.dump(2) + "\n");
  write_text_atomically(run_dir + "/report.svg", play::progress_svg(steps, fit, std::string(G::kName) + ": Elo over training"));
  out << "wrote " << run_dir << "/report.svg and report.json\n";
  return 0;
}

}  // namespace azg
