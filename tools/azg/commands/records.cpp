// `azg records`: read game record files back (games/*.jsonl, arena games.jsonl) and replay
// every game strictly (play/game_record_reader.hpp).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/game_record_reader.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct RecordsArgs {
  std::string game;
  std::vector<std::string> files;
};

template <Game G>
int records(const std::vector<std::string>& files, std::ostream& out) {
  play::RecordFileSummary total;
  for (const auto& path : files) {
    const auto s = play::check_record_file<G>(path);
    out << path << ": " << s.games << " games, " << s.actions << " actions (1-0 " << s.p0_wins
        << ", 0-1 " << s.p1_wins << ", draws " << s.draws;
    if (s.terminated > 0) out << ", stopped early " << s.terminated;
    out << ")\n";
    total.games += s.games;
    total.actions += s.actions;
  }
  if (files.size() > 1)
    out << "total: " << total.games << " games, " << total.actions << " actions, all legal\n";
  return 0;
}

}  // namespace

Command add_records(CLI::App& app) {
  auto args = std::make_shared<RecordsArgs>();
  auto* cmd = app.add_subcommand(
      "records",
      "Read game records back (games/*.jsonl, arena games.jsonl) and replay every game strictly");
  add_game_option(cmd, args->game);
  cmd->add_option("files", args->files, "JSON-lines record files")->required();
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return records<typename decltype(type)::type>(args->files, io.out);
            });
          }};
}

}  // namespace azg::cli
