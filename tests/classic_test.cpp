// The classical searcher (classic/alphabeta.hpp) and the heuristic leaf evaluators
// (mcts/heuristic_evaluators.hpp): alpha-beta with its table and ordering finds the
// values plain expectiminimax finds, on games with chance and with several decisions in a
// row; it keeps its time; the agents come from specs with one-line errors.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "classic/agent_factory.hpp"
#include "env/connect4/connect4.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "mcts/heuristic_evaluators.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::classic {
namespace {

using testgames::ChancePig;
using testgames::TicTacToe;

// Plain expectiminimax by player identity, no pruning, no table: the reference. Leaves are
// scored as the searcher scores them (AlphaBeta::leaf).
template <Game G>
double reference(const G& g, int depth, int ply) {
  if (g.is_terminal() || depth <= 0) return AlphaBeta<G>::leaf(g, ply);
  if (g.to_act() == Player::kChance) {
    ChanceListFor<G> outcomes;
    g.chance_outcomes(outcomes);
    double sum = 0;
    for (const auto& o : outcomes) {
      G child = g;
      child.apply(o.action);
      sum += o.probability * reference(child, depth, ply + 1);
    }
    return sum;
  }
  ActionListFor<G> actions;
  g.legal_actions(actions);
  const bool maximise = g.to_act() == Player::kP0;
  double best = maximise ? -1e9 : 1e9;
  for (const Action a : actions) {
    G child = g;
    child.apply(a);
    const double v = reference(child, depth - 1, ply + 1);
    best = maximise ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

// Positions after about `plies` random actions (chance resolved), from several seeds.
template <Game G>
std::vector<G> sample_positions(int count, int plies) {
  std::vector<G> out;
  for (int seed = 0; static_cast<int>(out.size()) < count && seed < 10 * count; ++seed) {
    Rng rng(100 + seed);
    G g = G::random_setup(rng);
    const int n = plies + seed % 5;
    for (int i = 0; i < n && !g.is_terminal(); ++i) g.apply(random_action(g, rng));
    while (!g.is_terminal() && g.to_act() == Player::kChance) g.apply(random_action(g, rng));
    if (!g.is_terminal()) out.push_back(g);
  }
  return out;
}

template <Game G>
void expect_reference_values(int depth, int count, int plies, bool table_cutoffs = true) {
  int checked = 0;
  for (const G& g : sample_positions<G>(count, plies)) {
    AlphaBeta<G> search(16, table_cutoffs);
    const AlphaBetaResult r = search.search(g, {depth, 0});
    ASSERT_EQ(r.depth, std::abs(r.raw) > 1.5f ? r.depth : depth);
    EXPECT_NEAR(r.raw, reference(g, r.depth, 0), 1e-4) << G::kName << "\n" << g.render();
    ++checked;
  }
  EXPECT_GT(checked, count / 2);
}

TEST(AlphaBeta, FindsThePlainMinimaxValueWithChanceAndSeveralDecisionsInARow) {
  // Chance nodes, and the opponent deciding inside a turn. Positions there repeat along
  // paths of different lengths, where the table rightly answers from a deeper search: the
  // exact comparison runs with the table ordering actions only.
  expect_reference_values<ChancePig>(6, 12, 3, /*table_cutoffs=*/false);
  expect_reference_values<Intercept>(2, 6, 20);  // move, jumps, flip and ball: one player in a row
  expect_reference_values<Truchet>(2, 4, 30);    // flip, river move, split or merge
  expect_reference_values<Lignes>(3, 6, 12);
  expect_reference_values<Imbriqua>(2, 4, 12);  // card reveals are chance
  expect_reference_values<Imperator>(2, 4, 24);
}

// Light to move in Intercept: its passage pawn f12 slides to g12, then the ball goes from
// its carrier g11 over g12 onto Dark's empty goal g13. A win in two decisions of one player.
Intercept two_decision_win() {
  return Intercept::from_pawns("f12:LP g11:LR a1:LR b1:LP a13:DP m13:DR c13:DR", "g11", 0, 10);
}

TEST(AlphaBeta, FindsAWinInTwoDecisionsOfOnePlayer) {
  const Intercept g = two_decision_win();
  AlphaBeta<Intercept> search;
  const AlphaBetaResult r = search.search(g, {2, 0});
  EXPECT_EQ(r.value, 1.0f) << g.render();
  Intercept after = g;
  after.apply(r.best);
  ASSERT_EQ(after.to_act(), Player::kP0);
  const AlphaBetaResult next = search.search(after, {2, 0});
  after.apply(next.best);
  EXPECT_TRUE(after.is_terminal() && after.outcome() == Outcome::kP0Win) << after.render();
}

TEST(AlphaBeta, KeepsItsTimeAndStopsWhenAsked) {
  AlphaBetaAgent<Truchet> agent("ab", {0, 0.05});
  Rng rng(3);
  Truchet g = Truchet::random_setup(rng);
  for (int i = 0; i < 40 && !g.is_terminal(); ++i) g.apply(random_action(g, rng));
  const auto start = std::chrono::steady_clock::now();
  const Action a = agent.act(g);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 0.5)
      << "50 ms asked";  // generous: a loaded machine, the clock read every 256 nodes
  ActionListFor<Truchet> legal;
  g.legal_actions(legal);
  EXPECT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
  // Stopped before it starts, a search of no limit returns at once with a legal action.
  agent.set_budget({0, 0, true});
  agent.stop();
  EXPECT_NE(std::find(legal.begin(), legal.end(), agent.act(g)), legal.end());
}

// The one-line error a spec gets for game G ("no error" when it builds).
template <Game G>
std::string spec_error(const std::string& text) {
  try {
    network_free_agent_factory<G>(mcts::parse_agent_spec(text));
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(AgentSpecs, BuildTheHeuristicAgentsAndRefuseBadOnes) {
  using mcts::parse_agent_spec;
  EXPECT_TRUE(network_free_agent_factory<Intercept>(parse_agent_spec("ab:depth=2")));
  EXPECT_TRUE(network_free_agent_factory<Intercept>(parse_agent_spec("ab:ms=20,depth=4")));
  EXPECT_TRUE(
      network_free_agent_factory<Intercept>(parse_agent_spec("mcts:sims=50,evaluator=heuristic")));
  EXPECT_TRUE(network_free_agent_factory<Intercept>(
      parse_agent_spec("mcts:evaluator=ept,playout_turns=6,decisive=0")));
  EXPECT_TRUE(network_free_agent_factory<Intercept>(parse_agent_spec("random")));
  EXPECT_FALSE(network_free_agent_factory<Intercept>(parse_agent_spec("az:model=x.pt")));
  EXPECT_EQ(
      spec_error<TicTacToe>("ab:depth=2"),
      "agent spec 'ab:depth=2': tictactoe has no static evaluation for the alpha-beta player");
  EXPECT_EQ(spec_error<TicTacToe>("mcts:evaluator=heuristic"),
            "agent spec 'mcts:evaluator=heuristic': tictactoe has no static evaluation for "
            "evaluator=heuristic");
  EXPECT_EQ(spec_error<Intercept>("ab"),
            "agent spec 'ab': ab needs depth=D (decisions) or ms=T (per decision)");
  EXPECT_EQ(spec_error<Intercept>("ab:depth=2.5"),
            "agent spec 'ab:depth=2.5': depth must be a whole number");
  EXPECT_EQ(spec_error<Intercept>("ab:depth=0"),
            "agent spec 'ab:depth=0': depth must be a number in [1, 64], got '0'");
  EXPECT_EQ(spec_error<Intercept>("ab:sims=3"), "agent spec 'ab:sims=3': unknown option 'sims'");
  EXPECT_EQ(spec_error<Intercept>("mcts:playout_turns=3"),
            "agent spec 'mcts:playout_turns=3': playout_turns and decisive go with evaluator=ept");
  EXPECT_EQ(
      spec_error<Intercept>("mcts:evaluator=magic"),
      "agent spec 'mcts:evaluator=magic': evaluator must be rollout, uniform, heuristic or ept");
}

// A fixed value for every leaf, and the whole prior on the first action: what the mix adds
// to is known.
struct ConstantValue final : mcts::Evaluator<Intercept> {
  void evaluate(mcts::EvalBatch<Intercept>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      for (float& p : batch.priors(i)) p = 0.0f;
      batch.priors(i)[0] = 1.0f;
      batch.value(i) = 0.5f;
    }
  }
};

TEST(HeuristicEvaluators, TheMixWeighsTheHeuristicAgentAndItsWeightCanChange) {
  ConstantValue inner;
  mcts::HeuristicMixEvaluator<Intercept> mix(inner, 0.25f);
  for (const Intercept& g : sample_positions<Intercept>(3, 20)) {
    mcts::EvalBatch<Intercept> batch;
    ActionListFor<Intercept> actions;
    g.legal_actions(actions);
    batch.add(g, actions, 3);
    const float n = static_cast<float>(actions.size());
    mix.set_weight(0.25f);
    mix.evaluate(batch);
    // The heuristic agent's values carry its tie-breaking jitter (mcts::kTieJitter).
    EXPECT_NEAR(batch.value(0), 0.75f * 0.5f + 0.25f * evaluation(g, g.to_act()),
                0.25f * mcts::kTieJitter);
    EXPECT_NEAR(batch.priors(0)[0], 0.75f + 0.25f / n, 0.03f / n)
        << "a quarter of the prior spread evenly";
    EXPECT_NEAR(batch.priors(0)[1], 0.25f / n, 0.03f / n);
    mix.set_weight(0.0f);
    mix.evaluate(batch);
    EXPECT_EQ(batch.value(0), 0.5f) << "weight 0: the inner evaluator alone";
    EXPECT_EQ(batch.priors(0)[0], 1.0f);
    mix.set_weight(1.0f);
    mix.evaluate(batch);
    EXPECT_NEAR(batch.value(0), evaluation(g, g.to_act()), mcts::kTieJitter);
    float sum = 0;
    for (const float p : batch.priors(0)) {
      EXPECT_NEAR(p, 1.0f / n, 0.1f / n) << "weight 1: the heuristic agent's near-equal priors";
      sum += p;
    }
    EXPECT_NEAR(sum, 1.0f, 1e-5);
  }
}

TEST(HeuristicEvaluators, TheMixTakesAnEptPlayoutsValueWhenGivenTurns) {
  ConstantValue inner;
  mcts::HeuristicMixEvaluator<Intercept> mix(inner, 0.5f, /*playout_turns=*/4);
  int differs = 0;
  for (const Intercept& g : sample_positions<Intercept>(3, 20)) {
    mcts::EvalBatch<Intercept> batch;
    ActionListFor<Intercept> actions;
    g.legal_actions(actions);
    batch.add(g, actions, 9);
    mix.evaluate(batch);
    const float ept = mcts::ept_value(g, 4, 1, 9);
    EXPECT_FLOAT_EQ(batch.value(0), 0.5f * 0.5f + 0.5f * ept)
        << "half the inner value, half the playout's";
    differs += std::abs(ept - evaluation(g, g.to_act())) > 2 * mcts::kTieJitter;
  }
  EXPECT_GT(differs, 0) << "the playouts move the value away from the static evaluation";
}

TEST(HeuristicEvaluators, ScoreLeavesByTheEvaluationAndCutPlayouts) {
  Rng rng(8);
  for (const Intercept& g : sample_positions<Intercept>(5, 30)) {
    mcts::EvalBatch<Intercept> batch;
    ActionListFor<Intercept> actions;
    g.legal_actions(actions);
    batch.add(g, actions, 11);
    mcts::HeuristicEvaluator<Intercept>().evaluate(batch);
    EXPECT_NEAR(batch.value(0), evaluation(g, g.to_act()), mcts::kTieJitter)
        << "the evaluation, ties broken";
    EXPECT_NE(batch.value(0), evaluation(g, g.to_act()));
    float sum = 0;
    for (const float p : batch.priors(0)) {
      EXPECT_NEAR(p, 1.0f / static_cast<float>(actions.size()),
                  0.1f / static_cast<float>(actions.size()));
      sum += p;
    }
    EXPECT_NEAR(sum, 1.0f, 1e-5) << "near-equal priors, a distribution";
    // No turn to play: the position's own evaluation; a playout is seeded, so it repeats.
    EXPECT_EQ(mcts::ept_value(g, 0, 1, 5), evaluation(g, g.to_act()));
    EXPECT_EQ(mcts::ept_value(g, 4, 1, 5), mcts::ept_value(g, 4, 1, 5));
    mcts::EptEvaluator<Intercept>(4, 1).evaluate(batch);
    EXPECT_EQ(batch.value(0), mcts::ept_value(g, 4, 1, 11));
  }
  // Inside a playout a player with a win one action away takes it: after the slide to
  // g12, the ball's move onto g13.
  Intercept g = two_decision_win();
  g.apply(*g.parse_action("f12-g12"));
  ActionListFor<Intercept> actions;
  g.legal_actions(actions);
  Action win = 0;
  ASSERT_TRUE(mcts::find_decisive_action(g, actions, win)) << g.render();
  EXPECT_EQ(g.action_to_string(win), "Bg13");
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    EXPECT_EQ(mcts::ept_value(g, 3, 1, seed), 1.0f);
    EXPECT_EQ(mcts::ept_value(g, 0, 1, seed), evaluation(g, Player::kP0)) << "no turn to play";
  }
}

// Level 2 of the playouts (decisive=2) also blocks: X has three on column 1 and O is to
// act, so every move but the block on column 1 hands X a win at once. The playout's move
// is the block on every seed; a plain random one is not.
TEST(HeuristicEvaluators, AnAntiDecisivePlayoutBlocksAWinOneActionAway) {
  const Connect4 g = Connect4::from_moves("12121");
  ActionListFor<Connect4> actions, scratch;
  g.legal_actions(actions);
  const Action block = *g.parse_action("1");
  for (const Action a : actions)
    EXPECT_EQ(mcts::hands_over_a_win(g, a, scratch), a != block) << g.action_to_string(a);
  int random_blocks = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed), plain(seed);
    EXPECT_EQ(mcts::playout_action(g, actions, /*block=*/true, rng), block);
    random_blocks += mcts::playout_action(g, actions, /*block=*/false, plain) == block;
  }
  EXPECT_LT(random_blocks, 20);
  // One turn of O, then X's position is scored: with the block X has no win to take.
  for (std::uint64_t seed = 0; seed < 5; ++seed)
    EXPECT_GT(mcts::ept_value(g, 2, 2, seed), -1.0f) << "O blocked, so X did not win";
  EXPECT_EQ(spec_error<Connect4>("mcts:evaluator=ept,decisive=2"), "no error");
  EXPECT_EQ(spec_error<Connect4>("mcts:evaluator=ept,decisive=1.5"),
            "agent spec 'mcts:evaluator=ept,decisive=1.5': decisive must be a whole number");
  EXPECT_EQ(spec_error<Connect4>("mcts:evaluator=ept,decisive=3"),
            "agent spec 'mcts:evaluator=ept,decisive=3': decisive must be a number in [0, 2], "
            "got '3'");
}

}  // namespace
}  // namespace azg::classic
