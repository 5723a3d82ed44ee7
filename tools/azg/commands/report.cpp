// `azg report`: a run's successive models rated against each other, or placed on the
// game's ladder against training minutes (--ladder; play/run_report.hpp).
#include <memory>
#include <string>

#include "games/games.hpp"
#include "play/paired_games.hpp"
#include "play/progress.hpp"
#include "play/run_report.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/ladder_options.hpp"
#include "trainer/config.hpp"

namespace azg::cli {
namespace {

struct ReportArgs {
  std::string run_dir;
  int games = 6, sims = 32, threads = 1, models = 6;
  bool ladder = false;
  LadderArgs ladder_args;
};

}  // namespace

Command add_report(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report",
      "Elo of a run's successive models: against each other, or on the game's ladder (--ladder)");
  cmd->add_option("--run-dir", args->run_dir, "Run directory")->required();
  auto* games = cmd->add_option("--games", args->games,
                                "Games per pair of models, or per model and rung with --ladder "
                                "(default 6; 40 with --ladder; with --agent-games, per rung "
                                "pairing)");
  auto* sims =
      cmd->add_option("--sims", args->sims, "Simulations per move (default 32; 100 with --ladder)");
  cmd->add_option("--threads", args->threads, "Games played at once (default 1)");
  cmd->add_flag("--ladder", args->ladder,
                "Rate the models on the game's ladder; writes ladder-curve.svg/.csv (Elo against "
                "training minutes)");
  cmd->add_option("--models", args->models,
                  "With --ladder: at most this many models, evenly spaced (default 6)");
  add_ladder_table_options(cmd, args->ladder_args, "With --ladder: ");
  cmd->add_option("--seed", args->ladder_args.seed,
                  "With --ladder: seed of setups and chance (default 1)");
  cmd->add_option("--out", args->ladder_args.out,
                  "With --ladder: output folder (default the run directory)");
  return {cmd, [args, games, sims](const Io& io) {
            trainer::TrainConfig run_config = trainer::TrainConfig::defaults();
            run_config.load_yaml(args->run_dir + "/config.yaml");
            return with_game(kGames, run_config.game, [&](auto type) {
              using G = typename decltype(type)::type;
              if (!args->ladder) {
                play::report_run_models<G>(args->run_dir, args->games, args->sims, args->threads, 1,
                                           io.out);
                return 0;
              }
              LadderArgs l = args->ladder_args;
              l.games = games->count() ? args->games : 40;
              l.threads = args->threads;
              play::ProgressLine progress(io.err, "ladder", 60.0, play::games_at_once(l.threads));
              play::LadderOptions options = ladder_options(l);
              options.on_game = progress.callback();
              play::report_run_on_ladder<G>(args->run_dir, options,
                                            sims->count() ? args->sims : 100, args->models, l.out,
                                            io.out);
              return 0;
            });
          }};
}

}  // namespace azg::cli
