#pragma once
// `azg arena` as a library call: named agents play paired games (round-robin or
// gauntlet), then the Elo table, pairwise scores and files of play/arena_report.hpp.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "play/arena_report.hpp"
#include "play/paired_games.hpp"

namespace azg::play {

struct ArenaOptions {
  int games = 10;  // per pair of agents, rounded up to even (colour-swapped couples)
  std::string format = "round-robin";
  int threads = 1;
  std::uint64_t seed = 1;
  std::string anchor;   // rated 0; empty: the first agent
  std::string out_dir;  // empty: print only
  int opening_plies = 0;
  GameDone on_game;  // hears of each finished game (a progress line)
};

template <Game G>
void run_arena(const std::vector<std::string>& agent_items, const ArenaOptions& o,
               std::ostream& out) {
  const auto agents = parse_named_agents(agent_items);
  const int n = static_cast<int>(agents.size());
  if (n < 2) throw Error("an arena needs at least two --agent");
  if (o.games < 1 || o.threads < 1) throw Error("--games and --threads must be positive");
  std::vector<std::string> names;
  for (const auto& a : agents) names.push_back(a.name);
  const auto pairs = tournament_pairs(n, o.format);
  const int anchor = anchor_index(names, o.anchor);
  const int per_pair = o.games + o.games % 2;
  const auto played =
      play_pairs<G>(agents, pairs, per_pair, o.threads, o.seed, {}, o.opening_plies, o.on_game);
  std::vector<ArenaEntry> entries;
  for (const auto& a : agents) entries.push_back({a.name, a.spec.text});
  report_arena(G::kName, entries, played, o.format, anchor, o.out_dir, out);
}

}  // namespace azg::play
