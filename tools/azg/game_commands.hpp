#pragma once
// The per-game commands of the azg CLI, as templates over the Game concept. Each writes
// its normal output to `out` and reports bad input by throwing azg::Error.
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "env/common/evaluation_bench.hpp"
#include "env/common/game.hpp"
#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/common/random_play.hpp"

namespace azg {

// Where a command starts: the game's setup followed by a list of action strings.
struct PositionArgs {
  std::string setup;
  std::string moves;
  bool setup_given = false;
  std::uint64_t seed = 0;  // draws the random setup when the game has one and none is given
};

template <Game G>
G position_from(const PositionArgs& args) {
  Rng rng(args.seed);
  const G start = args.setup_given ? G::from_setup(args.setup) : G::random_setup(rng);
  return replay(start, split_words(args.moves));
}

template <Game G>
int cmd_legal(const PositionArgs& args, bool with_probabilities, std::ostream& out) {
  const G state = position_from<G>(args);
  if (state.is_terminal()) return 0;
  if (with_probabilities && state.to_act() == Player::kChance) {
    ChanceListFor<G> outcomes;
    state.chance_outcomes(outcomes);
    for (const auto& o : outcomes) out << state.action_to_string(o.action) << ' ' << o.probability << '\n';
    return 0;
  }
  ActionListFor<G> actions;
  state.legal_actions(actions);
  for (const Action a : actions) out << state.action_to_string(a) << '\n';
  return 0;
}

template <Game G>
int cmd_perft(const PositionArgs& args, int depth, bool divide, std::ostream& out) {
  if (depth < 0) throw Error("--depth must be at least 0, got " + std::to_string(depth));
  const G state = position_from<G>(args);
  if (divide) {
    std::uint64_t total = depth == 0 ? 1 : 0;
    for (const auto& [a, n] : perft_divide(state, depth)) {
      total += n;
      out << state.action_to_string(a) << ": " << n << '\n';
    }
    out << total << '\n';
    return 0;
  }
  out << perft(state, depth) << '\n';
  return 0;
}

template <Game G>
int cmd_show(const PositionArgs& args, std::ostream& out) {
  const G state = position_from<G>(args);
  out << state.render();
  return 0;
}

inline void print_record(const GameRecord& record, std::uint64_t seed, std::ostream& out) {
  out << "# seed " << seed << ": " << outcome_string(record.outcome) << ", "
      << record.actions.size() << " actions";
  if (!record.setup.empty()) out << ", setup " << record.setup;
  out << '\n';
  for (std::size_t i = 0; i < record.actions.size(); ++i)
    out << (i ? " " : "") << record.actions[i];
  out << '\n';
}

// Plays `count` random games; game i uses seed + i for its setup and its actions, so any
// record can be replayed alone with --seed.
template <Game G>
int cmd_play_random(const PositionArgs& args, int count, std::ostream& out) {
  if (count < 1) throw Error("--count must be at least 1, got " + std::to_string(count));
  for (int i = 0; i < count; ++i) {
    PositionArgs game_args = args;
    game_args.seed = args.seed + static_cast<std::uint64_t>(i);
    const G start = position_from<G>(game_args);
    Rng rng(game_args.seed);
    print_record(play_random_game(start, rng), game_args.seed, out);
  }
  return 0;
}

struct EnvBenchResult {
  std::uint64_t games = 0;
  std::uint64_t actions = 0;
  double seconds = 0;
};

// Random playouts on one thread for about `seconds`: legal-action generation, a uniform
// choice and apply, the loop MCTS rollouts and self-play run.
template <Game G>
EnvBenchResult bench_env(double seconds, std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  Rng rng(seed);
  EnvBenchResult r;
  const auto start = Clock::now();
  do {
    for (int batch = 0; batch < 16; ++batch) {
      G state = G::random_setup(rng);
      while (!state.is_terminal()) {
        state.apply(random_action(state, rng));
        ++r.actions;
      }
      ++r.games;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (r.seconds < seconds);
  return r;
}

template <Game G>
int cmd_bench_env(double seconds, std::uint64_t seed, std::ostream& out) {
  if (!(seconds > 0)) throw Error("--seconds must be positive");
  const EnvBenchResult r = bench_env<G>(seconds, seed);
  out << std::fixed << std::setprecision(0) << G::kName << ": " << r.games << " games, "
      << r.actions << " actions in " << std::setprecision(2) << r.seconds << " s (1 thread)\n"
      << std::setprecision(0) << "games/s:   " << r.games / r.seconds << '\n'
      << "actions/s: " << r.actions / r.seconds << '\n'
      << std::setprecision(1)
      << "actions/game: " << static_cast<double>(r.actions) / static_cast<double>(r.games)
      << '\n';
  if constexpr (kHasEvaluation<G>) {
    // Timed after the playouts, so it never slows them.
    const EvaluationBenchResult e = bench_evaluation<G>(std::min(seconds, 1.0), seed);
    out << std::setprecision(0) << "evaluations/s: " << static_cast<double>(e.calls) / e.seconds
        << " (static evaluation, 1 thread, " << std::setprecision(2)
        << 1e6 * e.seconds / static_cast<double>(e.calls) << " us per call)\n";
  }
  return 0;
}

}  // namespace azg
