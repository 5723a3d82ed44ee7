// `azg train`: resolves the configuration (defaults, YAML, --set), then trains by
// self-play, resuming a killed run, and prints the final model's evaluation.
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "trainer/config.hpp"
#include "trainer/training_run.hpp"

namespace azg::cli {
namespace {

struct TrainArgs {
  std::string config_path, run_dir;
  std::vector<std::string> overrides;
  bool print_config = false, help_config = false;
};

int train(const TrainArgs& args, std::ostream& out) {
  if (args.help_config) {
    out << trainer::config_reference();
    return 0;
  }
  const trainer::TrainConfig config =
      trainer::TrainConfig::resolve(args.config_path, args.overrides);
  if (args.print_config) {
    out << config.to_yaml(true);
    return 0;
  }
  const std::string run_dir = args.run_dir.empty() ? "runs/" + config.game : args.run_dir;
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    const trainer::TrainReport r = trainer::run_training<G>(config, run_dir, out);
    if (!r.trained) return 0;
    out << "model: " << r.final_model << '\n';
    if (config.eval_final_games > 0) {
      auto line = [&](const std::string& name, const play::Score& s) {
        out << "  vs " << name << ": " << std::fixed << std::setprecision(1) << 100.0 * s.rate()
            << "% (" << s.wins << " wins, " << s.draws << " draws, " << s.losses << " losses)\n";
      };
      out << "final model, " << config.eval_final_simulations << " simulations:\n";
      line("random", r.vs_random);
      line("uct:" + std::to_string(config.eval_baseline_simulations), r.vs_uct);
    }
    return 0;
  });
}

}  // namespace

Command add_train(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand("train", "Train a network by self-play (resumes a killed run)");
  cmd->add_option("--config,-c", args->config_path, "YAML config (configs/<game>.yaml)");
  cmd->add_option("--run-dir", args->run_dir, "Run directory (default runs/<game>)");
  cmd->add_option("--set", args->overrides, "Override a config key: KEY=VALUE (repeatable)");
  cmd->add_flag("--print-config", args->print_config, "Print the resolved config and exit");
  cmd->add_flag("--help-config", args->help_config,
                "Print every config key with its default and help");
  return {cmd, [args](const Io& io) { return train(*args, io.out); }};
}

}  // namespace azg::cli
