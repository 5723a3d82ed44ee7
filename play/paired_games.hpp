#pragma once
// Paired games between named agents: each pair of agents plays games two by two, colours
// swapped within a couple and the couple sharing its setup and chance draws (Truchet's
// tile layout, Imbriqua's card order), so luck cancels between the two sides.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "env/common/random_play.hpp"
#include "mcts/driver.hpp"
#include "play/agents.hpp"
#include "play/progress.hpp"
#include "play/ratings.hpp"
#include "play/score.hpp"

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
    if (eq == std::string::npos || eq == 0)
      throw Error("--agent takes NAME=SPEC, got " + quote_input(item));
    const std::string name = item.substr(0, eq);
    const mcts::AgentSpec spec = mcts::parse_agent_spec(item.substr(eq + 1));
    if (spec.kind == "run") {
      mcts::check_spec_keys(spec, {"dir", "sims"});
      const std::string dir = spec.has("dir") ? spec.options.at("dir") : "";
      const std::vector<std::string> models = run_models(dir);
      if (models.empty())
        throw Error("agent " + quote_input(item) + ": no models/step-*.pt under " +
                    quote_input(dir));
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
      if (out[i].name == out[j].name)
        throw Error("two agents are named " + quote_input(out[i].name));
  return out;
}

// Items that are SPEC (named agent, agent2, ...) or NAME=SPEC; a spec's own '=' comes
// after its kind's ':', so "az:model=m.pt" is a spec and "net=az:model=m.pt" a named one.
inline std::vector<NamedAgent> parse_agents_maybe_named(const std::vector<std::string>& items) {
  std::vector<std::string> named;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto eq = items[i].find('='), colon = items[i].find(':');
    const bool has_name = eq != std::string::npos && (colon == std::string::npos || eq < colon);
    named.push_back(has_name
                        ? items[i]
                        : (i == 0 ? "agent" : "agent" + std::to_string(i + 1)) + "=" + items[i]);
  }
  return parse_named_agents(named);
}

// Points of player 0: win 1, draw 0.5, loss 0.
inline double first_player_points(Outcome o) {
  return o == Outcome::kP0Win ? 1.0 : o == Outcome::kDraw ? 0.5 : 0.0;
}

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

// The arena's seeding rule, shared by every match (and azg match's referee): couple k of a
// pairing with luck key `key` draws its setup and chance from couple_seed(seed, key, k),
// and the agent playing `side` (0 or 1) in it is seeded with agent_seed(that, side).
inline std::uint64_t couple_seed(std::uint64_t seed, std::uint64_t key, std::uint64_t couple) {
  return seed * 1000003 + key * 1009 + couple;
}
inline std::uint64_t agent_seed(std::uint64_t couple, int side) {
  return couple * 2 + 1 + static_cast<std::uint64_t>(side);
}
// The random opening plies of a couple (opening_plies > 0) come from their own stream.
inline std::uint64_t opening_seed(std::uint64_t couple) {
  return couple ^ 0x6f70656e696e6773ULL;
}

// How many games each thread plays at once in play_pairs: their searches share evaluator
// calls (a network sees one batch of leaves from all of them).
inline constexpr int kGamesPerThread = 8;

// How many games play_pairs plays at the same time on `threads` threads (fewer when the
// match has fewer games).
inline std::size_t games_at_once(int threads) {
  return static_cast<std::size_t>(std::max(1, threads)) * kGamesPerThread;
}

namespace detail {

// One game in progress on a match thread.
template <Game G>
struct LiveGame {
  std::size_t slot = 0;  // its place in the output
  G state;
  Rng chance{0};
  std::unique_ptr<mcts::Agent<G>> players[2];
  int agent[2] = {0, 0};              // the agents' indices (their factories)
  int searcher = -1;                  // the side whose search is running, or -1
  mcts::Search<G>* search = nullptr;  // that search
  GameRecord record;

  void apply(Action a) {
    record.actions.push_back(state.action_to_string(a));
    for (auto& p : players) p->observe(a);
    state.apply(a);
  }
  // `plies` uniformly random player decisions (chance drawn as in the game) before the
  // agents take over; recorded and observed like any move.
  void play_opening(int plies, Rng rng) {
    for (int played = 0; played < plies && !state.is_terminal();) {
      const bool chance_node = state.to_act() == Player::kChance;
      apply(random_action(state, chance_node ? chance : rng));
      played += chance_node ? 0 : 1;
    }
  }
  // Plays chance outcomes and agents that do not search until a search starts or the game
  // ends (true).
  bool advance() {
    while (!state.is_terminal()) {
      const Player p = state.to_act();
      if (p == Player::kChance) {
        apply(sample_chance(state, chance));
        continue;
      }
      const int side = index_of(p);
      if ((search = players[side]->begin_search(state)) != nullptr) {
        searcher = side;
        return false;
      }
      apply(players[side]->act(state));
    }
    record.outcome = state.outcome();
    return true;
  }
};

}  // namespace detail

// The one match loop. Plays `games` games for each pair (i, j) in `pairs`, colours
// alternating; games 2k and 2k+1 of a pair share their setup and chance draws with colours
// swapped. The luck of couple k of pair p depends only on (seed, luck_keys[p], k), the
// pair's index when no keys are given: pairs with the same key see the same setups and
// chance draws. Agents are seeded from the same numbers. Each thread plays up to
// kGamesPerThread games at once and runs their searches together, one evaluator call per
// agent for the leaves of all its games; a search goes exactly as it would alone, so the
// games do not depend on the thread count (a network may differ in the last bits of its
// floating-point sums with the batch size).
// With opening_plies = N > 0 each couple starts from its own position after N uniformly
// random decisions, shared by both games: deterministic agents in a game without chance
// (Lignes) would otherwise replay the same two games in every couple. `on_game`, if given,
// hears of every finished game (one call at a time). With first_game = F (even) each pair
// plays its games F to F + games - 1: the rest of a longer pairing whose first F games were
// played before, since game k is the same game whatever the pairing's length.
template <Game G>
std::vector<PairedGame> play_pairs(const std::vector<AgentFactory<G>>& agents,
                                   const std::vector<std::pair<int, int>>& pairs, int games,
                                   int threads, std::uint64_t seed,
                                   const std::vector<std::uint64_t>& luck_keys = {},
                                   int opening_plies = 0, const GameDone& on_game = {},
                                   int first_game = 0) {
  if (!luck_keys.empty() && luck_keys.size() != pairs.size())
    throw Error("play_pairs: one luck key per pair");
  if (games < 0) throw Error("play_pairs: a negative number of games");
  if (first_game < 0 || first_game % 2 != 0)
    throw Error("play_pairs: the first game must be even and not negative (a couple's first)");
  if (opening_plies < 0)
    throw Error("opening plies must be 0 or more, got " + std::to_string(opening_plies));
  std::vector<PairedGame> out(pairs.size() * static_cast<std::size_t>(games));
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  std::size_t done = 0;
  auto finished = [&] {
    if (!on_game) return;
    const std::lock_guard<std::mutex> lock(done_mutex);
    on_game(++done, out.size());
  };
  auto start = [&](std::size_t k) {
    const std::size_t pair = k / games, g = static_cast<std::size_t>(first_game) + k % games;
    const auto [a, b] = pairs[pair];
    const bool a_first = g % 2 == 0;
    out[k].first = a_first ? a : b;
    out[k].second = a_first ? b : a;
    const std::uint64_t key = luck_keys.empty() ? pair : luck_keys[pair];
    const std::uint64_t shared = couple_seed(seed, key, g / 2);
    auto live = std::make_unique<detail::LiveGame<G>>();
    live->slot = k;
    live->agent[0] = out[k].first;
    live->agent[1] = out[k].second;
    for (int side = 0; side < 2; ++side)
      live->players[side] = agents[live->agent[side]](agent_seed(shared, side));
    Rng setup(shared);
    live->state = G::random_setup(setup);
    live->chance = Rng(shared);
    live->record.setup = live->state.setup_string();
    live->play_opening(opening_plies, Rng(opening_seed(shared)));
    return live;
  };
  mcts::run_on_threads(std::max(1, std::min<int>(threads, static_cast<int>(out.size()))), [&](int) {
    std::vector<std::unique_ptr<detail::LiveGame<G>>> live;
    mcts::EvalBatch<G> batch;
    for (;;) {
      for (std::size_t k;
           live.size() < static_cast<std::size_t>(kGamesPerThread) && (k = next++) < out.size();)
        live.push_back(start(k));
      if (live.empty()) return;
      // Every game to its next search; finished games leave.
      for (std::size_t i = 0; i < live.size();) {
        if (!live[i]->advance()) {
          ++i;
          continue;
        }
        out[live[i]->slot].record = std::move(live[i]->record);
        finished();
        live[i] = std::move(live.back());
        live.pop_back();
      }
      // The searches of each agent run together on one evaluator (agents of one factory
      // evaluate alike), each with its own share of every call.
      for (std::size_t i = 0; i < agents.size(); ++i) {
        std::vector<mcts::Search<G>*> searches;
        mcts::Evaluator<G>* evaluator = nullptr;
        int leaves = 0;
        for (auto& g : live) {
          if (g->searcher < 0 || g->agent[g->searcher] != static_cast<int>(i)) continue;
          searches.push_back(g->search);
          evaluator = g->players[g->searcher]->evaluator();
          leaves += g->search->config().leaves_per_batch;
        }
        if (!searches.empty()) mcts::run_searches<G>(searches, *evaluator, batch, leaves);
      }
      for (auto& g : live) {
        if (g->searcher < 0) continue;
        const Action a = g->players[g->searcher]->end_search();
        g->searcher = -1;
        g->search = nullptr;
        g->apply(a);
      }
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
std::vector<PairedGame> play_pairs(const std::vector<NamedAgent>& agents,
                                   const std::vector<std::pair<int, int>>& pairs, int games,
                                   int threads, std::uint64_t seed,
                                   const std::vector<std::uint64_t>& luck_keys = {},
                                   int opening_plies = 0, const GameDone& on_game = {}) {
  return play_pairs<G>(factories_of<G>(agents), pairs, games, threads, seed, luck_keys,
                       opening_plies, on_game);
}

// `games` paired games (rounded up to even) of `a` against `b`: a's score.
template <Game G>
Score match_score(const AgentFactory<G>& a, const AgentFactory<G>& b, int games, int threads,
                  std::uint64_t seed, int opening_plies = 0) {
  Score s;
  for (const auto& g :
       play_pairs<G>({a, b}, {{0, 1}}, games + games % 2, threads, seed, {}, opening_plies))
    s.add(g.points_of(0));
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
    for (const Score& s : against[i]) t += s;
    return t;
  }
};

// The games' results for the Elo fit.
inline std::vector<PairScore> pair_scores(const std::vector<PairedGame>& games) {
  std::vector<PairScore> scores;
  for (const auto& g : games)
    scores.push_back({g.first, g.second, first_player_points(g.record.outcome), 1});
  return scores;
}

}  // namespace azg::play
