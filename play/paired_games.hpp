#pragma once
// Paired games between named agents: each pair of agents plays games two by two, colours
// swapped within a couple and the couple sharing its setup and chance draws (Truchet's
// tile layout, Imbriqua's card order), so luck cancels between the two sides.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "mcts/driver.hpp"
#include "mcts/match.hpp"
#include "play/agents.hpp"
#include "play/ratings.hpp"

namespace azg::play {

struct NamedAgent {
  std::string name;
  mcts::AgentSpec spec;
};

// Every models/step-*.pt of a run directory, in step order (zero-padded names sort so).
inline std::vector<std::string> run_models(const std::string& run_dir) {
  std::vector<std::string> models;
  if (std::filesystem::is_directory(run_dir + "/models"))
    for (const auto& e : std::filesystem::directory_iterator(run_dir + "/models"))
      if (e.path().extension() == ".pt" && e.path().stem().string().rfind("step-", 0) == 0)
        models.push_back(e.path().string());
  std::sort(models.begin(), models.end());
  return models;
}

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
      const std::vector<std::string> models = run_models(dir);
      if (models.empty()) throw Error("agent '" + item + "': no models/step-*.pt under '" + dir + "'");
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

struct PairedGame {
  int first = 0, second = 0;  // agents playing player 0 and player 1
  GameRecord record;
};

// Points of player 0: win 1, draw 0.5, loss 0.
inline double first_player_points(Outcome o) { return o == Outcome::kP0Win ? 1.0 : o == Outcome::kDraw ? 0.5 : 0.0; }

// Plays `games` games for each pair (i, j) in `pairs`, colours alternating; games 2k and
// 2k+1 of a pair share their setup and chance draws with colours swapped. The luck of
// couple k of pair p depends only on (seed, luck_keys[p], k), the pair's index when no
// keys are given: pairs with the same key see the same setups and chance draws.
template <Game G>
std::vector<PairedGame> play_pairs(const std::vector<NamedAgent>& agents, const std::vector<std::pair<int, int>>& pairs,
                                   int games, int threads, std::uint64_t seed,
                                   const std::vector<std::uint64_t>& luck_keys = {}) {
  if (!luck_keys.empty() && luck_keys.size() != pairs.size()) throw Error("play_pairs: one luck key per pair");
  for (const auto& a : agents) make_agent<G>(a.spec, 0);  // bad specs fail before any game
  std::vector<PairedGame> out(pairs.size() * static_cast<std::size_t>(games));
  std::atomic<std::size_t> next{0};
  mcts::run_on_threads(threads, [&](int) {
    for (std::size_t k; (k = next++) < out.size();) {
      const std::size_t pair = k / games, g = k % games;
      const auto [a, b] = pairs[pair];
      const bool a_first = g % 2 == 0;
      PairedGame& game = out[k];
      game.first = a_first ? a : b;
      game.second = a_first ? b : a;
      const std::uint64_t key = luck_keys.empty() ? pair : luck_keys[pair];
      const std::uint64_t shared = seed * 1000003 + key * 1009 + g / 2;
      auto p0 = make_agent<G>(agents[game.first].spec, shared * 2 + 1);
      auto p1 = make_agent<G>(agents[game.second].spec, shared * 2 + 2);
      Rng chance(shared), setup(shared);
      game.record = mcts::play_match(G::random_setup(setup), {p0.get(), p1.get()}, chance);
    }
  });
  return out;
}

inline std::vector<PairScore> pair_scores(const std::vector<PairedGame>& games) {
  std::vector<PairScore> scores;
  for (const auto& g : games) scores.push_back({g.first, g.second, first_player_points(g.record.outcome), 1});
  return scores;
}

// Points and games of each agent against each other agent: [i][j] is i's against j.
struct Tally {
  std::vector<std::vector<double>> points, games;
  explicit Tally(int n) : points(n, std::vector<double>(n, 0)), games(n, std::vector<double>(n, 0)) {}
  void add(const PairedGame& g) {
    const double s = first_player_points(g.record.outcome);
    points[g.first][g.second] += s;
    points[g.second][g.first] += 1 - s;
    games[g.first][g.second] += 1;
    games[g.second][g.first] += 1;
  }
  double total_points(int i) const { return sum(points[i]); }
  double total_games(int i) const { return sum(games[i]); }

 private:
  static double sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
  }
};

}  // namespace azg::play
