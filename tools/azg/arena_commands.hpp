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
#include "mcts/driver.hpp"
#include "mcts/match.hpp"
#include "tools/azg/agents.hpp"
#include "trainer/ratings.hpp"

namespace azg {

struct NamedAgent {
  std::string name;
  mcts::AgentSpec spec;
};

// NAME=SPEC; `run:DIR[,sims=N]` stands for every exported model of a run (models/*.pt).
inline std::vector<NamedAgent> parse_named_agents(const std::vector<std::string>& items) {
  std::vector<NamedAgent> out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("--agent takes NAME=SPEC, got '" + item + "'");
    const std::string name = item.substr(0, eq);
    const mcts::AgentSpec spec = mcts::parse_agent_spec(item.substr(eq + 1));
    if (spec.kind == "run") {
      mcts::check_spec_keys(spec, {"dir", "sims"});
      const std::string dir = spec.has("dir") ? spec.options.at("dir") : "";
      std::vector<std::string> models;
      if (std::filesystem::is_directory(dir + "/models"))
        for (const auto& e : std::filesystem::directory_iterator(dir + "/models"))
          if (e.path().extension() == ".pt" && e.path().stem().string().rfind("step-", 0) == 0)
            models.push_back(e.path().string());
      if (models.empty()) throw Error("agent '" + item + "': no models/step-*.pt under '" + dir + "'");
      std::sort(models.begin(), models.end());
      for (const auto& m : models) {
        const std::string sims = spec.has("sims") ? spec.options.at("sims") : "100";
        out.push_back({name + "/" + std::filesystem::path(m).stem().string(),
                       mcts::parse_agent_spec("az:model=" + m + ",sims=" + sims)});
      }
      continue;
    }
    out.push_back({name, spec});
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (out[i].name == out[j].name) throw Error("two agents are named '" + out[i].name + "'");
  return out;
}

struct ArenaGame {
  int first = 0, second = 0;  // agents playing player 0 and player 1
  GameRecord record;
};

// Plays `games` games for each pair (i, j) in `pairs`, colours alternating; games 2k and
// 2k+1 of a pair share their chance draws (Imbriqua's card order) with colours swapped.
template <Game G>
std::vector<ArenaGame> play_pairs(const std::vector<NamedAgent>& agents, const std::vector<std::pair<int, int>>& pairs,
                                  int games, int threads, std::uint64_t seed) {
  for (const auto& a : agents) make_agent<G>(a.spec, 0);  // bad specs fail before any game
  std::vector<ArenaGame> out(pairs.size() * static_cast<std::size_t>(games));
  std::atomic<std::size_t> next{0};
  mcts::run_on_threads(threads, [&](int) {
    for (std::size_t k; (k = next++) < out.size();) {
      const std::size_t pair = k / games, g = k % games;
      const auto [a, b] = pairs[pair];
      const bool a_first = g % 2 == 0;
      ArenaGame& game = out[k];
      game.first = a_first ? a : b;
      game.second = a_first ? b : a;
      const std::uint64_t shared = seed * 1000003 + pair * 1009 + g / 2;
      auto p0 = make_agent<G>(agents[game.first].spec, shared * 2 + 1);
      auto p1 = make_agent<G>(agents[game.second].spec, shared * 2 + 2);
      Rng chance(shared), setup(shared);
      game.record = mcts::play_match(G::random_setup(setup), {p0.get(), p1.get()}, chance);
    }
  });
  return out;
}

inline std::vector<trainer::PairScore> pair_scores(int n, const std::vector<ArenaGame>& games) {
  std::vector<trainer::PairScore> scores;
  for (const auto& g : games) {
    const double s = g.record.outcome == Outcome::kP0Win ? 1.0 : g.record.outcome == Outcome::kDraw ? 0.5 : 0.0;
    scores.push_back({g.first, g.second, s, 1});
  }
  (void)n;
  return scores;
}

template <Game G>
int cmd_arena(const std::vector<std::string>& agent_items, int games, const std::string& format, int threads,
              std::uint64_t seed, const std::string& anchor_name, const std::string& out_dir, std::ostream& out) {
  const auto agents = parse_named_agents(agent_items);
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw Error("an arena needs at least two --agent");
  if (games < 1 || threads < 1) throw Error("--games and --threads must be positive");
  if (format != "round-robin" && format != "gauntlet") throw Error("--format must be round-robin or gauntlet");
  int anchor = 0;
  if (!anchor_name.empty()) {
    anchor = -1;
    for (int i = 0; i < n; ++i)
      if (agents[i].name == anchor_name) anchor = i;
    if (anchor < 0) throw Error("--anchor '" + anchor_name + "' is not an agent");
  }
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (format == "round-robin" || i == 0) pairs.push_back({i, j});
  const int per_pair = games + games % 2;  // colour-swapped pairs of games
  const auto played = play_pairs<G>(agents, pairs, per_pair, threads, seed);
  const auto fit = trainer::fit_elo(n, pair_scores(n, played), anchor);
  // Tallies.
  std::vector<double> points(n, 0), total(n, 0);
  std::vector<std::vector<double>> pair_points(n, std::vector<double>(n, 0)), pair_games(n, std::vector<double>(n, 0));
  for (const auto& g : played) {
    const double s = g.record.outcome == Outcome::kP0Win ? 1.0 : g.record.outcome == Outcome::kDraw ? 0.5 : 0.0;
    points[g.first] += s;
    points[g.second] += 1 - s;
    total[g.first] += 1;
    total[g.second] += 1;
    pair_points[g.first][g.second] += s;
    pair_points[g.second][g.first] += 1 - s;
    pair_games[g.first][g.second] += 1;
    pair_games[g.second][g.first] += 1;
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return fit.elo[a] > fit.elo[b]; });
  std::size_t width = 5;
  for (const auto& a : agents) width = std::max(width, a.name.size());
  out << G::kName << ": " << played.size() << " games, " << format << ", Elo anchored on " << agents[anchor].name
      << " (95% intervals)\n";
  out << std::left << std::setw(4) << "#" << std::setw(static_cast<int>(width) + 2) << "agent" << std::right
      << std::setw(8) << "elo" << std::setw(8) << "+/-" << std::setw(8) << "games" << std::setw(8) << "score\n";
  for (int k = 0; k < n; ++k) {
    const int i = order[k];
    out << std::left << std::setw(4) << k + 1 << std::setw(static_cast<int>(width) + 2) << agents[i].name << std::right
        << std::fixed << std::setprecision(0) << std::setw(8) << fit.elo[i] << std::setw(8) << fit.interval[i]
        << std::setw(8) << total[i] << std::setw(7) << std::setprecision(1) << 100.0 * points[i] / total[i] << "%\n";
  }
  out << "pairwise scores (row's points / games against column):\n";
  for (int i = 0; i < n; ++i) {
    out << "  " << agents[i].name << ":";
    for (int j = 0; j < n; ++j)
      if (pair_games[i][j] > 0) out << "  vs " << agents[j].name << " " << pair_points[i][j] << "/" << pair_games[i][j];
    out << '\n';
  }
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    nlohmann::json j = {{"game", std::string(G::kName)}, {"format", format}, {"anchor", agents[anchor].name}};
    std::string csv = "agent,spec,elo,interval95,games,score\n", pairwise = "agent,opponent,points,games\n", records;
    for (int i = 0; i < n; ++i) {
      j["agents"].push_back({{"name", agents[i].name}, {"spec", agents[i].spec.text}, {"elo", fit.elo[i]},
                             {"interval95", fit.interval[i]}, {"games", total[i]}, {"points", points[i]}});
      csv += agents[i].name + "," + agents[i].spec.text + "," + std::to_string(fit.elo[i]) + "," +
             std::to_string(fit.interval[i]) + "," + std::to_string(static_cast<int>(total[i])) + "," +
             std::to_string(points[i] / total[i]) + "\n";
      for (int o = 0; o < n; ++o)
        if (pair_games[i][o] > 0)
          pairwise += agents[i].name + "," + agents[o].name + "," + std::to_string(pair_points[i][o]) + "," +
                      std::to_string(static_cast<int>(pair_games[i][o])) + "\n";
    }
    for (const auto& g : played) {
      nlohmann::json r = {{"player0", agents[g.first].name}, {"player1", agents[g.second].name},
                          {"actions", g.record.actions}, {"result", std::string(outcome_string(g.record.outcome))}};
      if (!g.record.setup.empty()) r["setup"] = g.record.setup;
      records += r.dump() + "\n";
    }
    std::vector<std::string> names;
    for (const auto& a : agents) names.push_back(a.name);
    write_text_atomically(out_dir + "/ratings.json", j.dump(2) + "\n");
    write_text_atomically(out_dir + "/ratings.csv", csv);
    write_text_atomically(out_dir + "/pairwise.csv", pairwise);
    write_text_atomically(out_dir + "/games.jsonl", records);
    write_text_atomically(out_dir + "/ratings.svg", trainer::ratings_svg(names, fit, std::string(G::kName) + " arena"));
    out << "wrote " << out_dir << "/{ratings.json,ratings.csv,pairwise.csv,ratings.svg,games.jsonl}\n";
  }
  return 0;
}

template <Game G>
int cmd_sprt(const std::vector<std::string>& agent_items, double elo0, double elo1, double alpha, double beta,
             int max_games, int threads, std::uint64_t seed, std::ostream& out) {
  const auto agents = parse_named_agents(agent_items);
  if (agents.size() != 2) throw Error("sprt takes exactly two --agent (the first is tested against the second)");
  if (!(elo1 > elo0) || alpha <= 0 || alpha >= 0.5 || beta <= 0 || beta >= 0.5)
    throw Error("sprt needs elo1 > elo0 and alpha, beta in (0, 0.5)");
  trainer::Sprt sprt(elo0, elo1, alpha, beta);
  out << "SPRT " << agents[0].name << " vs " << agents[1].name << ": H0 elo " << elo0 << ", H1 elo " << elo1
      << ", bounds [" << std::setprecision(3) << sprt.lower() << ", " << sprt.upper() << "]\n";
  int played = 0;
  double points = 0;
  for (int round = 0; played < max_games && sprt.decision() == trainer::Sprt::Decision::kContinue; ++round) {
    const int batch = std::min(max_games - played, 2 * threads);
    const auto games = play_pairs<G>(agents, {{0, 1}}, batch + batch % 2, threads, seed + static_cast<std::uint64_t>(round) * 7919);
    for (const auto& g : games) {
      const double s0 = g.record.outcome == Outcome::kP0Win ? 1.0 : g.record.outcome == Outcome::kDraw ? 0.5 : 0.0;
      const double s = g.first == 0 ? s0 : 1 - s0;
      points += s;
      ++played;
      sprt.add(s);
      out << "game " << played << ": " << s << "  LLR " << std::fixed << std::setprecision(3) << sprt.llr() << '\n';
      if (sprt.decision() != trainer::Sprt::Decision::kContinue) break;
    }
  }
  const auto d = sprt.decision();
  out << (d == trainer::Sprt::Decision::kAcceptH1   ? "H1 accepted"
          : d == trainer::Sprt::Decision::kAcceptH0 ? "H0 accepted"
                                                    : "no decision (max games)")
      << " after " << played << " games, score " << std::setprecision(1) << 100.0 * points / std::max(1, played)
      << "%\n";
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
  const auto fit = trainer::fit_elo(n, pair_scores(n, played), 0);
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
  write_text_atomically(run_dir + "/report.svg", trainer::progress_svg(steps, fit, std::string(G::kName) + ": Elo over training"));
  out << "wrote " << run_dir << "/report.svg and report.json\n";
  return 0;
}

}  // namespace azg
