// `azg play-random`: random games printed as records; game i uses seed + i for its setup
// and its actions, so any record can be replayed alone with --seed.
#include <memory>
#include <ostream>
#include <string>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct PlayRandomArgs {
  std::string game;
  PositionArgs pos;
  int count = 1;
};

void print_record(const GameRecord& record, std::uint64_t seed, std::ostream& out) {
  out << "# seed " << seed << ": " << outcome_string(record.outcome) << ", "
      << record.actions.size() << " actions";
  if (!record.setup.empty()) out << ", setup " << record.setup;
  out << '\n';
  for (std::size_t i = 0; i < record.actions.size(); ++i)
    out << (i ? " " : "") << record.actions[i];
  out << '\n';
}

template <Game G>
int play_random(const PlayRandomArgs& args, std::ostream& out) {
  if (args.count < 1) throw Error("--count must be at least 1, got " + std::to_string(args.count));
  for (int i = 0; i < args.count; ++i) {
    PositionArgs game_args = args.pos;
    game_args.seed = args.pos.seed + static_cast<std::uint64_t>(i);
    const G start = position_from<G>(game_args);
    Rng rng(game_args.seed);
    print_record(play_random_game(start, rng), game_args.seed, out);
  }
  return 0;
}

}  // namespace

Command add_play_random(CLI::App& app) {
  auto args = std::make_shared<PlayRandomArgs>();
  auto* cmd = app.add_subcommand("play-random", "Play random games and print records");
  add_game_option(cmd, args->game);
  add_position_options(cmd, args->pos);
  cmd->add_option("--count,-n", args->count, "Number of games (game i uses seed + i)");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return play_random<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
