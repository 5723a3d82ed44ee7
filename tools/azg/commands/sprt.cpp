// `azg sprt`: a sequential probability ratio test, game by game: is the first agent elo1
// better than the second (H1) or no better than elo0 (H0)?
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "play/paired_games.hpp"
#include "play/sprt_match.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct SprtArgs {
  std::string game;
  std::vector<std::string> agents;
  double elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05;
  int max_games = 2000, threads = 1;
  std::uint64_t seed = 1;
};

template <Game G>
int sprt(const SprtArgs& args, std::ostream& out) {
  const auto agents = play::parse_named_agents(args.agents);
  if (agents.size() != 2)
    throw Error("sprt takes exactly two --agent (the first is tested against the second)");
  if (!(args.elo1 > args.elo0) || args.alpha <= 0 || args.alpha >= 0.5 || args.beta <= 0 ||
      args.beta >= 0.5)
    throw Error("sprt needs elo1 > elo0 and alpha, beta in (0, 0.5)");
  play::Sprt test(args.elo0, args.elo1, args.alpha, args.beta);
  out << "SPRT " << agents[0].name << " vs " << agents[1].name << ": H0 elo " << args.elo0
      << ", H1 elo " << args.elo1 << ", bounds [" << std::setprecision(3) << test.lower() << ", "
      << test.upper() << "]\n";
  const auto factories = play::factories_of<G>(agents);
  int played = 0;
  const play::SprtMatch m =
      play::run_sprt<G>(factories[0], factories[1], test, args.max_games, args.threads, args.seed,
                        [&](double points, const play::Sprt& s) {
                          out << "game " << ++played << ": " << points << "  LLR " << std::fixed
                              << std::setprecision(3) << s.llr() << '\n';
                        });
  out << (m.decision == play::Sprt::Decision::kAcceptH1   ? "H1 accepted"
          : m.decision == play::Sprt::Decision::kAcceptH0 ? "H0 accepted"
                                                          : "no decision (max games)")
      << " after " << m.score.games() << " games, score " << std::setprecision(1)
      << 100.0 * m.score.rate() << "%\n";
  return 0;
}

}  // namespace

Command add_sprt(CLI::App& app) {
  auto args = std::make_shared<SprtArgs>();
  auto* cmd = app.add_subcommand(
      "sprt", "Sequential probability ratio test: is the first agent elo1 better?");
  add_game_option(cmd, args->game);
  cmd->add_option("--agent", args->agents, "NAME=SPEC, twice: the tested agent, then the reference")
      ->required();
  cmd->add_option("--elo0", args->elo0, "Elo difference under H0 (default 0)");
  cmd->add_option("--elo1", args->elo1, "Elo difference under H1 (default 20)");
  cmd->add_option("--alpha", args->alpha, "False positive rate (default 0.05)");
  cmd->add_option("--beta", args->beta, "False negative rate (default 0.05)");
  cmd->add_option("--max-games", args->max_games,
                  "Stop without a decision after this many games (default 2000)");
  cmd->add_option("--threads", args->threads, "Games played at once (default 1)");
  cmd->add_option("--seed", args->seed, "Seed");
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return sprt<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
