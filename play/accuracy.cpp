// The accuracy table (accuracy.hpp).
#include "play/accuracy.hpp"

#include <cstdio>

namespace azg::play {
namespace {

std::string percent(const Share& s) {
  if (s.total == 0) return "-";
  const auto [low, high] = s.interval();
  char text[64];
  std::snprintf(text, sizeof text, "%5.1f%% [%4.1f, %4.1f]", 100 * s.rate(), 100 * low, 100 * high);
  return text;
}

}  // namespace

std::string format_accuracy(const AccuracyReport& report, const std::string& agent) {
  std::string out = "agent " + agent + "\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-10s %9s  %-24s %-24s\n", "phase", "positions",
                "keeps the value (95%)", "keeps the score (95%)");
  out += line;
  for (const AccuracyGroup& g : report.groups) {
    std::snprintf(line, sizeof line, "%-10s %9d  %-24s %-24s\n", g.phase.c_str(), g.keeping.total,
                  percent(g.keeping).c_str(), percent(g.optimal).c_str());
    out += line;
  }
  return out;
}

}  // namespace azg::play
