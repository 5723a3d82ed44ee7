// MCTS: search results on known positions, chance nodes, determinism, batching.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "env/common/board64.hpp"
#include "env/common/notation.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "mcts/agent.hpp"
#include "mcts/agent_spec.hpp"
#include "mcts/driver.hpp"
#include "mcts/policy_agent.hpp"
#include "mcts/search.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/chance_pig_solver.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::mcts {
namespace {

using testgames::ChancePig;
using testgames::TicTacToe;

template <Game G>
SearchResult search(const G& state, SearchConfig config, Evaluator<G>& evaluator,
                    std::uint64_t seed = 1) {
  Search<G> s(config, seed);
  s.start(state, config.simulations);
  Search<G>* searches[] = {&s};
  EvalBatch<G> batch;
  run_searches<G>(searches, evaluator, batch, config.leaves_per_batch);
  return s.result();
}

template <Game G>
std::string best_string(const G& state, const SearchResult& r) {
  return state.action_to_string(r.best);
}

SearchConfig with_sims(int sims, int leaves = 1) {
  SearchConfig c;
  c.simulations = sims;
  c.leaves_per_batch = leaves;
  return c;
}

// X: a1 b1, O: a2 b2 -- X to move wins at c1; O threatens c2.
const TicTacToe kWinNow = replay(TicTacToe{}, {"a1", "a2", "b1", "b2"});
// X: a1 c3, O: b2 ... O to move must block? Here X: a1 b1, O: b2, O to move must block c1.
const TicTacToe kMustBlock = replay(TicTacToe{}, {"a1", "b2", "b1"});

TEST(Mcts, TicTacToeFindsTheImmediateWin) {
  UniformEvaluator<TicTacToe> uniform;
  RolloutEvaluator<TicTacToe> rollout;
  EXPECT_EQ(best_string(kWinNow, search(kWinNow, with_sims(200), uniform)), "c1");
  EXPECT_EQ(best_string(kWinNow, search(kWinNow, with_sims(200), rollout)), "c1");
  EXPECT_GT(search(kWinNow, with_sims(400), uniform).value, 0.8f);
}

TEST(Mcts, TicTacToeFindsTheForcedBlock) {
  UniformEvaluator<TicTacToe> uniform;
  RolloutEvaluator<TicTacToe> rollout;
  EXPECT_EQ(best_string(kMustBlock, search(kMustBlock, with_sims(800), uniform)), "c1");
  EXPECT_EQ(best_string(kMustBlock, search(kMustBlock, with_sims(800), rollout)), "c1");
}

TEST(Mcts, TicTacToeOpeningIsNearADraw) {
  UniformEvaluator<TicTacToe> uniform;
  const SearchResult r = search(TicTacToe{}, with_sims(30000), uniform);
  EXPECT_NEAR(r.value, 0.0f, 0.15f);
}

TEST(Mcts, ChanceRootValueMatchesTheExactExpectation) {
  // Late in the game the tree is small enough for the search to converge: two turns left,
  // player 0 leads 6 to 4 and is about to bet.
  const ChancePig g =
      replay(ChancePig{}, {"b0", "high", "4", "hold", "allow", "b0", "low", "1", "b0", "low", "2",
                           "hold", "allow", "b0", "high", "4", "hold", "allow"});
  ASSERT_EQ(g.to_act(), Player::kP0);
  std::map<std::uint64_t, double> memo;
  const double truth = testgames::solve_exactly(g, Player::kP0, memo);
  EXPECT_GT(truth, -0.9) << "not a foregone conclusion";
  EXPECT_LT(truth, 0.9) << "not a foregone conclusion";
  UniformEvaluator<ChancePig> uniform;
  const SearchResult r = search(g, with_sims(60000), uniform);
  EXPECT_NEAR(r.value, truth, 0.03) << "exact " << truth;
}

TEST(Mcts, ChanceVisitSharesFollowTheProbabilities) {
  // Player 0 chooses a die: low (1 w.p. 1/3, 2 w.p. 2/3) or high (1 or 4, 1/2 each).
  const ChancePig g = replay(ChancePig{}, {"b0"});
  SearchConfig config = with_sims(4000);
  config.c_puct = 50.0f;  // visit both dice often
  Search<ChancePig> s(config, 3);
  s.start(g, config.simulations);
  Search<ChancePig>* searches[] = {&s};
  EvalBatch<ChancePig> batch;
  UniformEvaluator<ChancePig> uniform;
  run_searches<ChancePig>(searches, uniform, batch, 1);
  const Tree& tree = s.tree();
  int checked = 0;
  for (std::uint32_t i = 0; i < tree[0].num_children; ++i) {
    const Node& die = tree[tree[0].first_child + i];
    if (!die.is_chance() || die.visits < 300) continue;
    int total = 0;
    for (std::uint32_t k = 0; k < die.num_children; ++k) total += tree[die.first_child + k].visits;
    for (std::uint32_t k = 0; k < die.num_children; ++k) {
      const Node& outcome = tree[die.first_child + k];
      EXPECT_NEAR(static_cast<double>(outcome.visits) / total, outcome.prior, 0.01);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 2) << "both dice were searched";
}

TEST(Mcts, OneThreadWithAFixedSeedIsDeterministic) {
  RolloutEvaluator<Imbriqua> rollout;
  const Imbriqua g = replay(Imbriqua{}, split_words("d7 e7 e4 b1 d1 h8 f4 e2 c3 OJ"));
  SearchConfig config = with_sims(300, 4);
  config.dirichlet_total = 10;
  Search<Imbriqua> a(config, 42), b(config, 42);
  a.start(g, 300, true, true);
  b.start(g, 300, true, true);
  Search<Imbriqua>* sa[] = {&a};
  Search<Imbriqua>* sb[] = {&b};
  EvalBatch<Imbriqua> batch;
  run_searches<Imbriqua>(sa, rollout, batch, 4);
  run_searches<Imbriqua>(sb, rollout, batch, 4);
  EXPECT_EQ(a.result().visits, b.result().visits);
  EXPECT_EQ(a.result().best, b.result().best);
}

TEST(Mcts, VirtualLossAndBatchingKeepAUniqueBestMove) {
  UniformEvaluator<TicTacToe> uniform;
  for (const int leaves : {1, 4, 16}) {
    EXPECT_EQ(best_string(kWinNow, search(kWinNow, with_sims(400, leaves), uniform)), "c1")
        << leaves;
    EXPECT_EQ(best_string(kMustBlock, search(kMustBlock, with_sims(1600, leaves), uniform)), "c1")
        << leaves;
  }
  // Many searches sharing one batch give each the same answer.
  std::vector<std::unique_ptr<Search<TicTacToe>>> owned;
  std::vector<Search<TicTacToe>*> searches;
  for (int i = 0; i < 8; ++i) {
    owned.push_back(std::make_unique<Search<TicTacToe>>(with_sims(1600, 8), i));
    owned.back()->start(i % 2 ? kWinNow : kMustBlock, 1600);
    searches.push_back(owned.back().get());
  }
  EvalBatch<TicTacToe> batch;
  run_searches<TicTacToe>(searches, uniform, batch, 64);
  for (auto* s : searches) EXPECT_EQ(s->result().best, *TicTacToe{}.parse_action("c1"));
}

TEST(Mcts, GumbelRootFindsTheWinAndGivesAnImprovedPolicy) {
  UniformEvaluator<TicTacToe> uniform;
  SearchConfig config = with_sims(40, 1);
  config.gumbel = true;
  config.gumbel_actions = 8;
  const SearchResult r = search(kWinNow, config, uniform, 5);
  EXPECT_EQ(best_string(kWinNow, r), "c1");
  float sum = 0;
  for (const float p : r.policy) sum += p;
  EXPECT_NEAR(sum, 1.0f, 1e-4);
  const auto win = std::find(r.actions.begin(), r.actions.end(), r.best) - r.actions.begin();
  EXPECT_EQ(std::max_element(r.policy.begin(), r.policy.end()) - r.policy.begin(), win);
}

// A PUCT root's improved policy target: the same search (same visits, same move), a
// target that leans further towards the action whose value the search found.
TEST(Mcts, PuctImprovedPolicyTargetLeansTowardsTheSearchedWin) {
  UniformEvaluator<TicTacToe> uniform;
  SearchConfig config = with_sims(12, 1);
  const SearchResult visits = search(kWinNow, config, uniform, 5);
  config.improved_policy_target = true;
  const SearchResult improved = search(kWinNow, config, uniform, 5);
  EXPECT_EQ(visits.visits, improved.visits) << "the target changes, not the search";
  EXPECT_EQ(visits.best, improved.best);
  const auto win =
      std::find(improved.actions.begin(), improved.actions.end(), *kWinNow.parse_action("c1")) -
      improved.actions.begin();
  float sum = 0;
  for (const float p : improved.policy) sum += p;
  EXPECT_NEAR(sum, 1.0f, 1e-4);
  EXPECT_EQ(
      std::max_element(improved.policy.begin(), improved.policy.end()) - improved.policy.begin(),
      win);
  EXPECT_GT(improved.policy[win], visits.policy[win] + 0.1f);
}

// Priors rising with the action index (the last legal action the most likely), value 0.
template <Game G>
class RankedPriorEvaluator final : public Evaluator<G> {
 public:
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const auto priors = batch.priors(i);
      const float n = static_cast<float>(priors.size());
      for (std::size_t k = 0; k < priors.size(); ++k) priors[k] = 2.0f * (k + 1) / (n * (n + 1));
      batch.value(i) = 0.0f;
    }
  }
};

// The raw policy plays the evaluator's most likely legal action at every decision, with
// one evaluation a move and no search.
TEST(Mcts, PolicyAgentPlaysTheMostLikelyLegalAction) {
  auto ranked = std::make_shared<RankedPriorEvaluator<TicTacToe>>();
  PolicyAgent<TicTacToe> agent("raw", ranked, 1);
  EXPECT_EQ(agent.name(), "raw");
  TicTacToe state;
  int moves = 0;
  while (!state.is_terminal()) {
    ActionListFor<TicTacToe> legal;
    state.legal_actions(legal);
    const Action a = agent.act(state);
    EXPECT_EQ(a, legal[legal.size() - 1]) << "the last legal action has the highest prior";
    state.apply(a);
    ++moves;
  }
  EXPECT_GE(moves, 5);
}

// Equal priors, values within a few hundredths of each other (by position hash).
template <Game G>
class SmallGapEvaluator final : public Evaluator<G> {
 public:
  void evaluate(EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const auto priors = batch.priors(i);
      for (float& p : priors) p = 1.0f / static_cast<float>(priors.size());
      batch.value(i) = static_cast<float>(batch.state(i).hash() % 21) / 400.0f - 0.025f;
    }
  }
};

// Read on [-1, 1], q gaps of a few hundredths barely move sigma and the improved policy
// stays near the flat prior; rescaled to the root's own range (mctx's default) they
// decide it.
TEST(Mcts, GumbelRescaledValuesSharpenTheImprovedPolicy) {
  SmallGapEvaluator<TicTacToe> gaps;
  SearchConfig config = with_sims(64, 1);
  config.gumbel = true;
  config.gumbel_actions = 9;
  const SearchResult plain = search(TicTacToe{}, config, gaps, 3);
  config.gumbel_rescale = true;
  const SearchResult rescaled = search(TicTacToe{}, config, gaps, 3);
  const float plain_top = *std::max_element(plain.policy.begin(), plain.policy.end());
  const float rescaled_top = *std::max_element(rescaled.policy.begin(), rescaled.policy.end());
  EXPECT_LT(plain_top, 0.3f) << "near the flat prior of 1/9";
  EXPECT_GT(rescaled_top, plain_top + 0.2f);
  float sum = 0;
  for (const float p : rescaled.policy) sum += p;
  EXPECT_NEAR(sum, 1.0f, 1e-4);
}

TEST(Mcts, GumbelRootWithoutNoiseSearchesTheTopPriorsWhateverTheSeed) {
  RankedPriorEvaluator<TicTacToe> ranked;
  SearchConfig config = with_sims(8, 1);
  config.gumbel = true;
  config.gumbel_actions = 2;
  std::set<std::string> searched_without_noise, searched_with_noise;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    for (const bool noise : {false, true}) {
      Search<TicTacToe> s(config, seed);
      s.start(TicTacToe{}, config.simulations, /*full=*/true, noise);
      Search<TicTacToe>* ss[] = {&s};
      EvalBatch<TicTacToe> batch;
      run_searches<TicTacToe>(ss, ranked, batch, 1);
      const SearchResult r = s.result();
      for (std::size_t i = 0; i < r.actions.size(); ++i)
        if (r.visits[i] > 0)
          (noise ? searched_with_noise : searched_without_noise)
              .insert(TicTacToe{}.action_to_string(r.actions[i]));
    }
  }
  EXPECT_EQ(searched_without_noise, (std::set<std::string>{"b3", "c3"}))
      << "the two highest priors, every seed";
  EXPECT_GT(searched_with_noise.size(), 4u) << "Gumbel noise samples other candidates";
}

TEST(Mcts, TreeReuseKeepsTheSubtree) {
  UniformEvaluator<TicTacToe> uniform;
  Search<TicTacToe> s(with_sims(500), 1);
  s.start(TicTacToe{}, 500);
  Search<TicTacToe>* ss[] = {&s};
  EvalBatch<TicTacToe> batch;
  run_searches<TicTacToe>(ss, uniform, batch, 1);
  const SearchResult first = s.result();
  const auto i = std::max_element(first.visits.begin(), first.visits.end()) - first.visits.begin();
  s.advance(first.actions[i]);
  TicTacToe next;
  next.apply(first.actions[i]);
  s.start(next, 100);
  run_searches<TicTacToe>(ss, uniform, batch, 1);
  int total = 0;
  for (const int v : s.result().visits) total += v;
  EXPECT_GE(total, first.visits[i] - 1 + 100) << "old visits are kept and 100 new ones added";
}

// Imbriqua, last turn: Dark places then plays O1. Exactly which placements win is found by
// brute force; the search must pick one.
TEST(Mcts, FindsTheWinningFinishInImbriqua) {
  using azg::board64::bit;
  auto sq = [](const char* s) { return *azg::board64::parse_square(s); };
  const std::uint64_t light = bit(sq("b2")) | bit(sq("b4")) | bit(sq("e7")) | bit(sq("g7"));
  const std::uint64_t dark = bit(sq("d2")) | bit(sq("f2")) | bit(sq("c5"));
  const Imbriqua g = Imbriqua::from_position(light, dark, 44, "O1 D1 ON DN OJ DJ OL DL O2 D2");
  ASSERT_EQ(g.to_act(), Player::kP1);
  // Brute force: placements after which some O1 move (or forced penalty line) wins for Dark.
  std::set<std::string> winning;
  FixedList<Action, Imbriqua::kMaxActions> places;
  g.legal_actions(places);
  for (const Action p : places) {
    Imbriqua after = g;
    after.apply(p);
    FixedList<Action, Imbriqua::kMaxActions> moves;
    after.legal_actions(moves);
    bool wins = false;
    for (const Action m : moves) {
      Imbriqua end = after;
      end.apply(m);
      wins = wins || (end.is_terminal() && end.outcome() == Outcome::kP1Win);
    }
    if (after.to_act() == Player::kP1 && wins) winning.insert(g.action_to_string(p));
  }
  ASSERT_FALSE(winning.empty());
  ASSERT_LT(winning.size(), places.size()) << "the position must have losing placements too";
  RolloutEvaluator<Imbriqua> rollout;
  const SearchResult r = search(g, with_sims(3000), rollout);
  EXPECT_TRUE(winning.count(g.action_to_string(r.best))) << g.action_to_string(r.best);
}

// Agent specs read the one table of search options: keys, ranges, whole numbers, presets.
TEST(SearchOptions, SpecsReadTheOneTableOverAPreset) {
  const SearchConfig uct = search_preset("uct");
  EXPECT_EQ(uct.simulations, 400);
  EXPECT_FLOAT_EQ(uct.c_puct, 1.5f);
  EXPECT_EQ(search_preset("az").leaves_per_batch, 1);
  EXPECT_THROW(search_preset("fast"), Error);
  const SearchConfig c =
      search_config_from(parse_agent_spec("mcts:sims=50,cpuct=2,reuse=0,gumbel_k=4"), uct);
  EXPECT_EQ(c.simulations, 50);
  EXPECT_FLOAT_EQ(c.c_puct, 2.0f);
  EXPECT_FALSE(c.reuse_tree);
  EXPECT_EQ(c.gumbel_actions, 4);
  EXPECT_EQ(c.leaves_per_batch, 1) << "untouched keys keep the preset's value";
  const SearchConfig g =
      search_config_from(parse_agent_spec("mcts:gumbel_rescale=1,gumbel_scale=0.5"), uct);
  EXPECT_TRUE(g.gumbel_rescale);
  EXPECT_FLOAT_EQ(g.gumbel_c_scale, 0.5f);
  EXPECT_THROW(search_config_from(parse_agent_spec("mcts:sims=2.5"), uct), Error);
  EXPECT_THROW(search_config_from(parse_agent_spec("mcts:cpuct=-1"), uct), Error);
  EXPECT_THROW(check_spec_keys(parse_agent_spec("mcts:warp=1"), {}, true), Error);
  EXPECT_NO_THROW(check_spec_keys(parse_agent_spec("mcts:vl=2,batch=4"), {}, true));
  for (const auto& o : search_options())
    EXPECT_NE(search_options_help().find("  " + std::string(o.spec_key)), std::string::npos)
        << o.spec_key;
}

// Every body runs at the same time as the others (each waits to see all of them
// started), so bodies that hand work to each other cannot wait forever.
TEST(RunOnThreads, RunsEveryBodyAtOnceOnItsOwnThread) {
  constexpr int kThreads = 4;
  std::atomic<int> started{0};
  std::atomic<int> saw_all{0};
  std::vector<int> ran(kThreads, 0);
  std::vector<std::thread::id> ids(kThreads);
  run_on_threads(kThreads, [&](int t) {
    ran[t] += 1;
    ids[t] = std::this_thread::get_id();
    started.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (started.load() < kThreads && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    if (started.load() == kThreads) saw_all.fetch_add(1);
  });
  EXPECT_EQ(saw_all.load(), kThreads);
  EXPECT_EQ(ran, std::vector<int>(kThreads, 1));
  EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(),
            static_cast<std::size_t>(kThreads));
}

TEST(RunOnThreads, RethrowsABodysErrorAfterTheOthersEnd) {
  std::atomic<int> finished{0};
  EXPECT_THROW(run_on_threads(3,
                              [&](int t) {
                                if (t == 2) throw std::runtime_error("body 2 failed");
                                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                finished.fetch_add(1);
                              }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
}

}  // namespace
}  // namespace azg::mcts
