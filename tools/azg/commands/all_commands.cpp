// The list of azg's commands, in `azg --help` order; `bench` groups the benchmarks.
#include "tools/azg/commands/command.hpp"

namespace azg::cli {

Commands add_all_commands(CLI::App& app) {
  Commands all;
  for (auto add : {add_games, add_legal, add_perft, add_show, add_play_random, add_records})
    all.push_back(add(app));
  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  for (auto add : {add_bench_env, add_bench_mcts, add_bench_agent, add_bench_nn})
    all.push_back(add(*bench));
  for (auto add : {add_play_agents, add_export, add_train, add_arena, add_sprt, add_ladder,
                   add_report, add_actor, add_learner, add_serve, add_engine, add_analysis,
                   add_match, add_solve, add_accuracy, add_models})
    all.push_back(add(app));
  return all;
}

}  // namespace azg::cli
