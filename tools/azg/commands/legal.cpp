// `azg legal`: the legal actions of a position, one per line (at a chance node, with
// --probabilities, each outcome's probability).
#include <memory>
#include <ostream>

#include "games/games.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct LegalArgs {
  std::string game;
  PositionArgs pos;
  bool probabilities = false;
};

template <Game G>
int legal(const LegalArgs& args, std::ostream& out) {
  const G state = position_from<G>(args.pos);
  if (state.is_terminal()) return 0;
  if (args.probabilities && state.to_act() == Player::kChance) {
    ChanceListFor<G> outcomes;
    state.chance_outcomes(outcomes);
    for (const auto& o : outcomes)
      out << state.action_to_string(o.action) << ' ' << o.probability << '\n';
    return 0;
  }
  ActionListFor<G> actions;
  state.legal_actions(actions);
  for (const Action a : actions) out << state.action_to_string(a) << '\n';
  return 0;
}

}  // namespace

Command add_legal(CLI::App& app) {
  auto args = std::make_shared<LegalArgs>();
  auto* cmd = app.add_subcommand("legal", "Print the legal actions, one per line");
  add_game_option(cmd, args->game);
  add_position_options(cmd, args->pos);
  cmd->add_flag("--probabilities", args->probabilities,
                "At a chance node, print each outcome's probability after it");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->game, [&](auto type) {
              return legal<typename decltype(type)::type>(*args, io.out);
            });
          }};
}

}  // namespace azg::cli
