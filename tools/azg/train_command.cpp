// `azg train` lives in its own translation unit: it instantiates the training loop for
// every game once.
#include "tools/azg/train_command.hpp"

#include <iomanip>

#include "tools/azg/games.hpp"
#include "trainer/train.hpp"

namespace azg {

trainer::TrainConfig resolve_config(const std::string& path, const std::vector<std::string>& overrides) {
  trainer::TrainConfig config = trainer::TrainConfig::defaults();
  if (!path.empty()) config.load_yaml(path);
  for (const auto& o : overrides) config.set(o);
  config.validate();
  return config;
}

int cmd_train(const TrainArgs& args, std::ostream& out) {
  const trainer::TrainConfig config = resolve_config(args.config_path, args.overrides);
  if (args.print_config) {
    out << config.to_yaml(true);
    return 0;
  }
  const std::string run_dir = args.run_dir.empty() ? "runs/" + config.game : args.run_dir;
  return with_game(kGames, config.game, [&](auto type) -> int {
    using G = typename decltype(type)::type;
    trainer::TrainingRun<G> run(config, run_dir, out);
    const trainer::TrainReport r = run.run();
    if (!r.trained) return 0;
    out << "model: " << r.final_model << '\n';
    if (config.eval_final_games > 0) {
      auto line = [&](const char* name, const play::Score& s) {
        out << "  vs " << name << ": " << std::fixed << std::setprecision(1) << 100.0 * s.rate() << "% (" << s.wins
            << " wins, " << s.draws << " draws, " << s.losses << " losses)\n";
      };
      out << "final model, " << config.eval_final_simulations << " simulations:\n";
      line("random", r.vs_random);
      line(("uct:" + std::to_string(config.eval_baseline_simulations)).c_str(), r.vs_uct);
    }
    return 0;
  });
}

}  // namespace azg
