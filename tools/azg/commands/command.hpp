#pragma once
// The azg subcommands, one file each in this folder. A file's add_* function declares its
// command's options (their storage lives in the run closure) and returns what runs it once
// the command line is parsed; the run calls library code and throws azg::Error on bad
// input, which main() prints as one line. main() only dispatches.
#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace azg::cli {

// What a command may read and write besides its options.
struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;              // progress lines, apart from the results on out
  std::vector<std::string> argv;  // the whole command line (a learner relaunches its ranks with it)
};

struct Command {
  CLI::App* app = nullptr;  // true (*app) when it is the command given
  std::function<int(const Io&)> run;
};
using Commands = std::vector<Command>;

// Every command, in `azg --help` order.
Commands add_all_commands(CLI::App& app);

// One per file (the file is named after the command).
Command add_games(CLI::App& app);
Command add_legal(CLI::App& app);
Command add_perft(CLI::App& app);
Command add_solve(CLI::App& app);
Command add_accuracy(CLI::App& app);
Command add_models(CLI::App& app);
Command add_show(CLI::App& app);
Command add_play_random(CLI::App& app);
Command add_records(CLI::App& app);
Command add_bench_env(CLI::App& bench);
Command add_bench_mcts(CLI::App& bench);
Command add_bench_agent(CLI::App& bench);
Command add_bench_nn(CLI::App& bench);
Command add_play_agents(CLI::App& app);
Command add_export(CLI::App& app);
Command add_train(CLI::App& app);
Command add_arena(CLI::App& app);
Command add_sprt(CLI::App& app);
Command add_ladder(CLI::App& app);
Command add_report(CLI::App& app);
Command add_actor(CLI::App& app);
Command add_learner(CLI::App& app);
Command add_serve(CLI::App& app);
Command add_engine(CLI::App& app);
Command add_analysis(CLI::App& app);
Command add_match(CLI::App& app);

}  // namespace azg::cli
