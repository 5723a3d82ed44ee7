// azg: the command-line entry point. It only dispatches: each command declares its options
// and calls library code in its own file (commands/). Every bad input ends as one line on
// stderr and exit status 2.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "core/error.hpp"
#include "games/games.hpp"
#include "nets/allocator.hpp"
#include "nets/cpu_support.hpp"
#include "nets/inference.hpp"
#include "tools/azg/commands/command.hpp"

namespace {

constexpr int kUsageError = 2;

}  // namespace

int main(int argc, char** argv) {
  // azg parallelises over games and searches; BLAS threads inside each call would only
  // compete with them (`azg train` sets torch_threads for both).
  azg::nets::set_blas_threads(1);
  azg::nets::reexec_for_blas_kernels(argv);
  // Tensor-sized blocks stay with the process between forwards (nets/allocator.hpp).
  azg::nets::keep_freed_memory_for_reuse();
  CLI::App app{
      "azg: AlphaZero-style self-play training for five board games.\n"
      "Games: " +
      azg::game_names(azg::kGames)};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  const azg::cli::Commands commands = azg::cli::add_all_commands(app);

  // An unknown first word is reported as such rather than as CLI11's "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const auto known =
        app.get_subcommands([&](CLI::App* cmd) { return cmd->get_name() == argv[1]; });
    if (known.empty()) {
      std::cerr << "azg: error: unknown command '" << argv[1] << "' (see azg --help)\n";
      return kUsageError;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (const auto nl = message.find('\n'); nl != std::string::npos) message.resize(nl);
    std::cerr << "azg: error: " << message << " (see azg --help)\n";
    return kUsageError;
  }

  try {
    const azg::cli::Io io{std::cin, std::cout, std::cerr,
                          std::vector<std::string>(argv, argv + argc)};
    for (const auto& command : commands)
      if (*command.app) return command.run(io);
    return kUsageError;
  } catch (const azg::Error& e) {
    std::cerr << "azg: error: " << e.what() << '\n';
    return kUsageError;
  } catch (const std::exception& e) {
    std::cerr << "azg: internal error: " << e.what() << '\n';
    return 1;
  }
}
