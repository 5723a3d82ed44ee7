#pragma once
// Accuracy against a solved test set: the share of positions where an agent's move keeps
// the solved value (a win stays a win, a draw a draw), and where it keeps the exact score
// when the set knows it, each with a 95% interval, overall and by game phase.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "env/common/notation.hpp"
#include "mcts/agent_factory.hpp"
#include "play/test_positions.hpp"

namespace azg::play {

// A share with its 95% Wilson interval.
struct Share {
  int hits = 0, total = 0;
  double rate() const { return total ? static_cast<double>(hits) / total : 0.0; }
  // [low, high] of the 95% Wilson score interval.
  std::pair<double, double> interval() const {
    if (total == 0) return {0.0, 1.0};
    constexpr double z = 1.959964;
    const double n = total, p = rate();
    const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
  }
};

struct AccuracyGroup {
  std::string phase;  // "all" for the whole set
  Share keeping;      // the move keeps the solved value
  Share optimal;      // the move keeps the exact score (positions that list "optimal")
};

// Groups in the order: "all", then each phase in order of first appearance.
struct AccuracyReport {
  std::vector<AccuracyGroup> groups;
};

// Plays `agent`'s move at each position (a fresh agent per position, seeded by `seed`
// and the position's index). Throws azg::Error for a position whose moves do not replay
// or that is over.
template <Game G>
AccuracyReport measure_accuracy(const std::vector<TestPosition>& positions,
                                const mcts::AgentFactory<G>& agent, std::uint64_t seed) {
  AccuracyReport report;
  report.groups.push_back({"all", {}, {}});
  std::map<std::string, std::size_t> group_of;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const TestPosition& p = positions[i];
    G state;
    try {
      state = replay(G::from_setup(""), p.moves);
    } catch (const Error& e) {
      throw Error(p.where + ": " + e.what());
    }
    if (state.is_terminal()) throw Error(p.where + ": the game is over in this position");
    auto player = agent(seed + i);
    const std::string move = state.action_to_string(player->act(state));
    auto [it, added] = group_of.emplace(p.phase, report.groups.size());
    if (added) report.groups.push_back({p.phase, {}, {}});
    const auto contains = [&](const std::vector<std::string>& list) {
      return std::find(list.begin(), list.end(), move) != list.end();
    };
    for (AccuracyGroup* g : {&report.groups[0], &report.groups[it->second]}) {
      g->keeping.total += 1;
      g->keeping.hits += contains(p.keeping);
      if (!p.optimal.empty()) {
        g->optimal.total += 1;
        g->optimal.hits += contains(p.optimal);
      }
    }
  }
  return report;
}

// The report as a table, one line per group.
std::string format_accuracy(const AccuracyReport& report, const std::string& agent);

}  // namespace azg::play
