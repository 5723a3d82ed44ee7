#pragma once
// What an arena prints and writes, whoever played the games (agents in this process or
// engine processes under a referee): the Elo table with 95% intervals, pairwise scores,
// and ratings.json/.csv/.svg, pairwise.csv and games.jsonl.
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "play/paired_games.hpp"

namespace azg::play {

struct ArenaEntry {
  std::string name;
  std::string spec;  // how it was given: an agent spec or an engine command
};

// The pairs a tournament plays: every pair (round-robin) or the first against each other
// (gauntlet); throws on another format.
std::vector<std::pair<int, int>> tournament_pairs(int agents, const std::string& format);
// The index of the agent named `anchor` (0 when empty); throws when no agent has the name.
int anchor_index(const std::vector<std::string>& names, const std::string& anchor);

void report_arena(std::string_view game, const std::vector<ArenaEntry>& agents,
                  const std::vector<PairedGame>& played, const std::string& format, int anchor,
                  const std::string& out_dir, std::ostream& out);

}  // namespace azg::play
