#pragma once
// azg records: read game record files back and replay every game (play/game_record_reader.hpp).
#include <ostream>
#include <string>
#include <vector>

#include "play/game_record_reader.hpp"

namespace azg {

template <Game G>
int cmd_records(const std::vector<std::string>& files, std::ostream& out) {
  play::RecordFileSummary total;
  for (const auto& path : files) {
    const auto s = play::check_record_file<G>(path);
    out << path << ": " << s.games << " games, " << s.actions << " actions (1-0 " << s.p0_wins << ", 0-1 "
        << s.p1_wins << ", draws " << s.draws;
    if (s.terminated > 0) out << ", stopped early " << s.terminated;
    out << ")\n";
    total.games += s.games;
    total.actions += s.actions;
  }
  if (files.size() > 1) out << "total: " << total.games << " games, " << total.actions << " actions, all legal\n";
  return 0;
}

}  // namespace azg
