#pragma once
// CLI commands for clients: `azg engine` (the text protocol), `azg analysis` (JSON lines)
// and `azg match` (a referee over engine processes). The work is in protocol/.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "play/arena_report.hpp"
#include "play/session.hpp"
#include "protocol/analysis.hpp"
#include "protocol/engine.hpp"
#include "protocol/referee.hpp"

namespace azg {

template <Game G>
int cmd_engine(const std::string& agent, std::istream& in, std::ostream& out) {
  protocol::Engine engine(std::make_unique<play::GameSession<G>>(), mcts::parse_agent_spec(agent), out);
  engine.run(in);
  return 0;
}

template <Game G>
int cmd_analysis(const std::string& agent, std::istream& in, std::ostream& out) {
  protocol::Analysis analysis(std::make_unique<play::GameSession<G>>(), mcts::parse_agent_spec(agent), out);
  analysis.run(in);
  return 0;
}

struct MatchArgs {
  std::vector<std::string> engines;  // [NAME=]COMMAND
  std::string format = "round-robin";
  std::string anchor;
  std::string out_dir;
  protocol::RefereeOptions options;
};

template <Game G>
int cmd_match(const MatchArgs& args, std::ostream& out) {
  const std::vector<protocol::EngineCommand> engines = protocol::parse_engine_commands(args.engines);
  std::vector<std::string> names;
  std::vector<play::ArenaEntry> entries;
  for (const auto& e : engines) {
    names.push_back(e.name);
    entries.push_back({e.name, e.command});
  }
  const auto pairs = play::tournament_pairs(static_cast<int>(engines.size()), args.format);
  const int anchor = play::anchor_index(names, args.anchor);
  const auto played = protocol::referee_games([] { return std::make_unique<play::GameSession<G>>(); }, engines,
                                              pairs, args.options, &out);
  play::report_arena(G::kName, entries, played, args.format, anchor, args.out_dir, out);
  return 0;
}

}  // namespace azg
