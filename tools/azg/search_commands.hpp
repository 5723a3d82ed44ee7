#pragma once
// CLI commands built on the search: play-agents and bench mcts.
#include <atomic>
#include <chrono>
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "mcts/driver.hpp"
#include "play/paired_games.hpp"
#include "tools/azg/game_commands.hpp"

namespace azg {

// Plays `games` games between two agents on the arena's paired games (colours swapped
// within a couple, which shares its setup and chance draws); results print in game order.
template <Game G>
int cmd_play_agents(const std::vector<std::string>& specs, int games, std::uint64_t seed, int threads,
                    std::ostream& out) {
  if (specs.size() != 2) throw Error("--agents takes exactly two agent specs");
  if (games < 1) throw Error("--games must be at least 1");
  if (threads < 1) throw Error("--threads must be at least 1");
  const std::vector<play::NamedAgent> agents{{specs[0], mcts::parse_agent_spec(specs[0])},
                                             {specs[1], mcts::parse_agent_spec(specs[1])}};
  const auto played = play::play_pairs<G>(agents, {{0, 1}}, games, threads, seed);
  play::Score a;
  for (std::size_t i = 0; i < played.size(); ++i) {
    const auto& g = played[i];
    out << "game " << i + 1 << ": " << agents[g.first].name << " (player 0) vs " << agents[g.second].name
        << " (player 1): " << outcome_string(g.record.outcome) << ", " << g.record.actions.size() << " actions\n";
    a.add(g.points_of(0));
  }
  out << std::fixed << std::setprecision(1) << agents[0].name << ": " << a.wins << " wins, " << a.draws << " draws, "
      << a.losses << " losses (" << 100.0 * a.rate() << "%)\n"
      << agents[1].name << ": " << a.losses << " wins, " << a.draws << " draws, " << a.wins << " losses ("
      << 100.0 * (1 - a.rate()) << "%)\n";
  return 0;
}

struct MctsBenchOptions {
  std::string evaluator = "uniform";
  int simulations = 800;
  int threads = 1;
  int searches_per_thread = 16;
  int batch = 64;
  double seconds = 3.0;
  std::uint64_t seed = 1;
};

// A decision position a few random actions into a game.
template <Game G>
G bench_position(Rng& rng) {
  for (;;) {
    G g = G::random_setup(rng);
    const int plies = static_cast<int>(rng.below(40));
    for (int i = 0; i < plies && !g.is_terminal(); ++i) g.apply(random_action(g, rng));
    while (!g.is_terminal() && g.to_act() == Player::kChance) g.apply(random_action(g, rng));
    if (!g.is_terminal()) return g;
  }
}

template <Game G>
int cmd_bench_mcts(const MctsBenchOptions& o, std::ostream& out) {
  if (o.evaluator != "uniform" && o.evaluator != "rollout")
    throw Error("--evaluator must be uniform or rollout, got " + quote_input(o.evaluator));
  if (o.simulations < 1 || o.threads < 1 || o.searches_per_thread < 1 || o.batch < 1 || !(o.seconds > 0))
    throw Error("--sims, --threads, --searches, --batch and --seconds must be positive");
  std::shared_ptr<mcts::Evaluator<G>> evaluator;
  if (o.evaluator == "uniform") evaluator = std::make_shared<mcts::UniformEvaluator<G>>();
  else evaluator = std::make_shared<mcts::RolloutEvaluator<G>>();
  mcts::SearchConfig config;
  config.simulations = o.simulations;
  config.reuse_tree = false;
  config.reserve_nodes = static_cast<std::size_t>(o.simulations) * 4 + 64;
  std::vector<std::int64_t> sims(o.threads, 0), nodes(o.threads, 0);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  mcts::run_on_threads(o.threads, [&](int t) {
    Rng rng(o.seed * 1000 + static_cast<std::uint64_t>(t));
    std::vector<std::unique_ptr<mcts::Search<G>>> owned;
    std::vector<mcts::Search<G>*> searches;
    for (int i = 0; i < o.searches_per_thread; ++i) {
      owned.push_back(std::make_unique<mcts::Search<G>>(config, rng.next()));
      searches.push_back(owned.back().get());
    }
    mcts::EvalBatch<G> batch;
    while (std::chrono::duration<double>(Clock::now() - start).count() < o.seconds) {
      for (auto* s : searches) s->start(bench_position<G>(rng), o.simulations);
      mcts::run_searches<G>(searches, *evaluator, batch, o.batch);
      for (auto* s : searches) {
        sims[t] += s->simulations_done();
        nodes[t] += static_cast<std::int64_t>(s->tree_size());
      }
    }
  });
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::int64_t total_sims = 0, total_nodes = 0;
  for (int t = 0; t < o.threads; ++t) total_sims += sims[t], total_nodes += nodes[t];
  out << G::kName << ": " << o.evaluator << " evaluator, " << o.threads << " thread(s) x "
      << o.searches_per_thread << " searches x " << o.simulations << " simulations, batch " << o.batch << '\n'
      << std::fixed << std::setprecision(0) << "simulations/s: " << total_sims / seconds << " (" << total_sims
      << " in " << std::setprecision(2) << seconds << " s)\n"
      << std::setprecision(0) << "nodes/s: " << total_nodes / seconds << " (" << std::setprecision(2)
      << static_cast<double>(total_nodes) / static_cast<double>(std::max<std::int64_t>(total_sims, 1))
      << " per simulation)\n";
  return 0;
}

}  // namespace azg
