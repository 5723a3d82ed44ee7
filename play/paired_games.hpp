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
    if (eq == std::string::npos || eq == 0) throw Error("--agent takes NAME=SPEC, got " + quote_input(item));
    const std::string name = item.substr(0, eq);
    const mcts::AgentSpec spec = mcts::parse_agent_spec(item.substr(eq + 1));
    if (spec.kind == "run") {
      mcts::check_spec_keys(spec, {"dir", "sims"});
      const std::string dir = spec.has("dir") ? spec.options.at("dir") : "";
      const std::vector<std::string> models = run_models(dir);
      if (models.empty()) throw Error("agent " + quote_input(item) + ": no models/step-*.pt under " + quote_input(dir));
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
      if (out[i].name == out[j].name) throw Error("two agents are named " + quote_input(out[i].name));
  return out;
}

// Points of player 0: win 1, draw 0.5, loss 0.
inline double first_player_points(Outcome o) { return o == Outcome::kP0Win ? 1.0 : o == Outcome::kDraw ? 0.5 : 0.0; }

struct PairedGame {
  int first = 0, second = 0;  // agents playing player 0 and player 1
  GameRecord record;
  std::string termination;  // empty for a game played to its end; else why it was decided
  // The points `agent` (first or second) made in this game.
  double points_of(int agent) const {
    const double p0 = first_player_points(record.outcome);
    return agent == first ? p0 : 1 - p0;
  }
};

// One side's wins, draws and losses: the one score type of matches, gates and reports.
struct Score {
  int wins = 0, draws = 0, losses = 0;
  void add(double points) { (points >= 1 ? wins : points <= 0 ? losses : draws)++; }
  int games() const { return wins + draws + losses; }
  double points() const { return wins + 0.5 * draws; }
  double rate() const { return games() ? points() / games() : 0.0; }  // in [0, 1]
};

// The one match loop. Plays `games` games for each pair (i, j) in `pairs`, colours
// alternating; games 2k and 2k+1 of a pair share their setup and chance draws with colours
// swapped. The luck of couple k of pair p depends only on (seed, luck_keys[p], k), the
// pair's index when no keys are given: pairs with the same key see the same setups and
// chance draws. Agents are seeded from the same numbers; the thread count changes nothing.
template <Game G>
std::vector<PairedGame> play_pairs(const std::vector<AgentFactory<G>>& agents,
                                   const std::vector<std::pair<int, int>>& pairs, int games, int threads,
                                   std::uint64_t seed, const std::vector<std::uint64_t>& luck_keys = {}) {
  if (!luck_keys.empty() && luck_keys.size() != pairs.size()) throw Error("play_pairs: one luck key per pair");
  if (games < 0) throw Error("play_pairs: a negative number of games");
  std::vector<PairedGame> out(pairs.size() * static_cast<std::size_t>(games));
  std::atomic<std::size_t> next{0};
  mcts::run_on_threads(std::max(1, std::min<int>(threads, static_cast<int>(out.size()))), [&](int) {
    for (std::size_t k; (k = next++) < out.size();) {
      const std::size_t pair = k / games, g = k % games;
      const auto [a, b] = pairs[pair];
      const bool a_first = g % 2 == 0;
      PairedGame& game = out[k];
      game.first = a_first ? a : b;
      game.second = a_first ? b : a;
      const std::uint64_t key = luck_keys.empty() ? pair : luck_keys[pair];
      const std::uint64_t shared = seed * 1000003 + key * 1009 + g / 2;
      auto p0 = agents[game.first](shared * 2 + 1);
      auto p1 = agents[game.second](shared * 2 + 2);
      Rng chance(shared), setup(shared);
      game.record = mcts::play_match(G::random_setup(setup), {p0.get(), p1.get()}, chance);
    }
  });
  return out;
}

// The factories of named agents: each model is read once.
template <Game G>
std::vector<AgentFactory<G>> factories_of(const std::vector<NamedAgent>& agents) {
  std::vector<AgentFactory<G>> factories;
  for (const auto& a : agents) factories.push_back(agent_factory<G>(a.spec));
  return factories;
}

template <Game G>
std::vector<PairedGame> play_pairs(const std::vector<NamedAgent>& agents, const std::vector<std::pair<int, int>>& pairs,
                                   int games, int threads, std::uint64_t seed,
                                   const std::vector<std::uint64_t>& luck_keys = {}) {
  return play_pairs<G>(factories_of<G>(agents), pairs, games, threads, seed, luck_keys);
}

// `games` paired games (rounded up to even) of `a` against `b`: a's score, and a's points
// in each game when `per_game` is given.
template <Game G>
Score match_score(const AgentFactory<G>& a, const AgentFactory<G>& b, int games, int threads, std::uint64_t seed,
                 std::vector<double>* per_game = nullptr) {
  Score s;
  for (const auto& g : play_pairs<G>({a, b}, {{0, 1}}, games + games % 2, threads, seed)) {
    s.add(g.points_of(0));
    if (per_game) per_game->push_back(g.points_of(0));
  }
  return s;
}

// Each agent's score against each other agent: [i][j] is i's against j.
struct Tally {
  std::vector<std::vector<Score>> against;
  explicit Tally(int n) : against(n, std::vector<Score>(n)) {}
  explicit Tally(int n, const std::vector<PairedGame>& games) : Tally(n) {
    for (const auto& g : games) add(g);
  }
  void add(const PairedGame& g) {
    against[g.first][g.second].add(g.points_of(g.first));
    against[g.second][g.first].add(g.points_of(g.second));
  }
  Score total(int i) const {
    Score t;
    for (const Score& s : against[i]) t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
    return t;
  }
};

// The games' results for the Elo fit.
inline std::vector<PairScore> pair_scores(const std::vector<PairedGame>& games) {
  std::vector<PairScore> scores;
  for (const auto& g : games) scores.push_back({g.first, g.second, first_player_points(g.record.outcome), 1});
  return scores;
}

}  // namespace azg::play
