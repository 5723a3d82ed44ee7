// `azg ladder`: agents rated on the game's ladder of fixed rungs (UCT-400 = 0), the rungs'
// own results kept in a calibration file (play/ladder.hpp).
#include "play/ladder.hpp"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/paired_games.hpp"
#include "play/progress.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/ladder_options.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct LadderCommandArgs {
  std::string game;
  std::vector<std::string> agents;  // SPEC or NAME=SPEC
  LadderArgs ladder;
};

template <Game G>
int ladder(const LadderCommandArgs& args, std::ostream& out, std::ostream& err) {
  play::ProgressLine progress(err, "ladder", 60.0, play::games_at_once(args.ladder.threads));
  play::LadderOptions options = ladder_options(args.ladder);
  options.on_game = progress.callback();
  options.on_pairing = [&err](const std::string& a, const std::string& b, double points,
                              int games) {
    err << "ladder: " << a << " vs " << b << ": " << play::pairing_score_text(points, games) << '\n'
        << std::flush;
  };
  const auto result = play::run_ladder<G>(play::parse_agents_maybe_named(args.agents), options);
  play::print_ladder(result, out);
  if (!args.ladder.out.empty()) {
    play::write_ladder(result, args.ladder.out);
    out << "wrote " << args.ladder.out << "/{ladder.json,ladder.csv,ladder.svg}\n";
  }
  return 0;
}

}  // namespace

Command add_ladder(CLI::App& app) {
  auto args = std::make_shared<LadderCommandArgs>();
  auto& l = args->ladder;
  auto* cmd = app.add_subcommand(
      "ladder",
      "Rate agents on the game's ladder: Elo with UCT-400 = 0, the same anchor for every game");
  add_game_option(cmd, args->game);
  cmd->add_option("--agent", args->agents,
                  "SPEC or NAME=SPEC (repeatable; specs below); none: the rungs alone");
  add_ladder_table_options(cmd, l, "");
  cmd->add_option("--games", l.games, "Paired games per pairing (rounded up to even; default 100)");
  cmd->add_option("--threads", l.threads, "Games played at once (default 1)");
  cmd->add_option("--seed", l.seed, "Seed of setups and chance (default 1)");
  cmd->add_option("--out", l.out, "Folder for ladder.json, ladder.csv and ladder.svg");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return ladder<typename decltype(type)::type>(*args, io.out, io.err);
            });
          }};
}

}  // namespace azg::cli
