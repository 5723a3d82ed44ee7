// `azg match`: a referee plays engine processes against each other over the protocol and
// rates them like an arena (protocol/referee.hpp, play/arena_report.hpp).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/arena_report.hpp"
#include "play/session.hpp"
#include "protocol/referee.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct MatchArgs {
  std::string game;
  std::vector<std::string> engines;  // [NAME=]COMMAND
  std::string format = "round-robin";
  std::string anchor;
  std::string out_dir;
  protocol::RefereeOptions options;
};

template <Game G>
int match(const MatchArgs& args, std::ostream& out) {
  const std::vector<protocol::EngineCommand> engines =
      protocol::parse_engine_commands(args.engines);
  std::vector<std::string> names;
  std::vector<play::ArenaEntry> entries;
  for (const auto& e : engines) {
    names.push_back(e.name);
    entries.push_back({e.name, e.command});
  }
  const auto pairs = play::tournament_pairs(static_cast<int>(engines.size()), args.format);
  const int anchor = play::anchor_index(names, args.anchor);
  const auto played = protocol::referee_games(
      [] { return std::make_unique<play::GameSession<G>>(); }, engines, pairs, args.options, &out);
  play::report_arena(G::kName, entries, played, args.format, anchor, args.out_dir, out);
  return 0;
}

}  // namespace

Command add_match(CLI::App& app) {
  auto args = std::make_shared<MatchArgs>();
  auto& o = args->options;
  auto* cmd = app.add_subcommand(
      "match", "Referee: play engine processes against each other over the protocol");
  add_game_option(cmd, args->game);
  cmd->add_option("--engine", args->engines,
                  "[NAME=]COMMAND (repeatable): an engine process, run with /bin/sh -c")
      ->required();
  cmd->add_option("--games", o.games, "Games per pair of engines (rounded up to even; default 10)");
  cmd->add_option("--concurrency", o.concurrency,
                  "Games at once, each with its own processes (default 1)");
  cmd->add_option("--seed", o.seed,
                  "Seed of setups, chance and the engines' Seed option (default 1)");
  cmd->add_option("--sims", o.simulations,
                  "Simulations per move (go sims N; default: the engine's own)");
  cmd->add_option("--movetime", o.movetime_ms, "Milliseconds per move (go movetime MS)");
  cmd->add_option(
      "--timeout", o.timeout_ms,
      "A move's limit in ms before the engine loses (default movetime + 5000, else 60000)");
  cmd->add_option("--format", args->format, "round-robin (default) or gauntlet");
  cmd->add_option("--anchor", args->anchor, "Engine rated 0 (default: the first)");
  cmd->add_option("--out", args->out_dir,
                  "Folder for ratings.json/.csv/.svg, pairwise.csv and games.jsonl");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return match<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
