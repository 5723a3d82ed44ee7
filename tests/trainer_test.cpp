// Trainer: configuration, replay buffer.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <set>
#include <thread>
#include <tuple>

#include "env/common/board64.hpp"
#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "mcts/agent_factory.hpp"
#include "mcts/evaluator.hpp"
#include "mcts/search_options.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/tictactoe.hpp"
#include "trainer/config.hpp"
#include "trainer/game_payload.hpp"
#include "trainer/game_records.hpp"
#include "trainer/model_meta.hpp"
#include "trainer/policy_surprise.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/run_lock.hpp"
#include "trainer/run_state.hpp"
#include "trainer/schedule.hpp"
#include "trainer/selfplay.hpp"
#include "trainer/simulation_schedule.hpp"

namespace azg::trainer {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("azg_trainer_test_" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(TrainConfig, DefaultsValidateAndEveryKeyRoundTrips) {
  TrainConfig c = TrainConfig::defaults();
  EXPECT_NO_THROW(c.validate());
  c.set("net.blocks=7");
  c.set("optim.lr=0.125");
  c.set("selfplay.gumbel=false");
  c.set("game=lignes");
  const std::string path = write_file("roundtrip.yaml", c.to_yaml(true));
  TrainConfig d = TrainConfig::defaults();
  d.load_yaml(path);
  EXPECT_EQ(d.to_yaml(false), c.to_yaml(false));
  EXPECT_EQ(d.net_blocks, 7);
  EXPECT_DOUBLE_EQ(d.optim_lr, 0.125);
  EXPECT_FALSE(d.selfplay_search.gumbel);
  EXPECT_EQ(d.hash(), c.hash());
  EXPECT_NE(d.hash(), TrainConfig::defaults().hash());
}

TEST(TrainConfig, NestedAndDottedKeys) {
  TrainConfig c = TrainConfig::defaults();
  c.load_yaml(write_file("nested.yaml", "net:\n  channels: 48\ntrain.batch_size: 64\n"));
  EXPECT_EQ(c.net_channels, 48);
  EXPECT_EQ(c.train_batch_size, 64);
}

TEST(TrainConfig, BadInputIsAnErrorNamingTheKey) {
  TrainConfig c = TrainConfig::defaults();
  auto message = [&](const std::function<void()>& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] {
              c.load_yaml(write_file("unknown.yaml", "net:\n  blokcs: 3\n"));
            }).find("net.blokcs"),
            std::string::npos);
  EXPECT_NE(message([&] {
              c.load_yaml(write_file("type.yaml", "net:\n  blocks: three\n"));
            }).find("integer"),
            std::string::npos);
  EXPECT_NE(message([&] {
              c.load_yaml(write_file("broken.yaml", "net: [1, 2\n"));
            }).find("not valid YAML"),
            std::string::npos);
  EXPECT_NE(message([&] { c.load_yaml("/nonexistent/config.yaml"); }).find("cannot read"),
            std::string::npos);
  EXPECT_NE(message([&] { c.set("nope=1"); }).find("unknown key 'nope'"), std::string::npos);
  EXPECT_NE(message([&] { c.set("net.blocks"); }).find("KEY=VALUE"), std::string::npos);
  EXPECT_NE(message([&] { c.set("selfplay.gumbel=maybe"); }).find("true or false"),
            std::string::npos);
  TrainConfig bad = TrainConfig::defaults();
  bad.set("selfplay.full_fraction=1.5");
  EXPECT_THROW(bad.validate(), Error);
  // A search key's range is the search option's (mcts/search_options.hpp), checked as it is
  // set (an int field would not hold 1e300) and again by validate().
  EXPECT_EQ(message([&] { c.set("eval.simulations=0"); }),
            "--set: eval.search.sims must be a whole number in [1, 10000000], got 0");
  EXPECT_EQ(message([&] { c.set("selfplay.search.sims=1e300"); }),
            "--set: selfplay.search.sims must be a whole number in [1, 10000000], got 1e+300");
  TrainConfig no_sims = TrainConfig::defaults();
  no_sims.eval_search.simulations = 0;
  EXPECT_EQ(message([&] { no_sims.validate(); }),
            "config: eval.search.sims must be a whole number in [1, 10000000], got 0");
  TrainConfig bad_head = TrainConfig::defaults();
  bad_head.net_policy_head = "dense";
  EXPECT_EQ(message([&] { bad_head.validate(); }),
            "config: net.policy_head must be fc, conv or pairs");
  bad_head.net_policy_head = "pairs";
  EXPECT_NO_THROW(bad_head.validate());
  EXPECT_NE(config_reference().find("selfplay.search.batch (2; [1, 4096]): leaves one search adds"),
            std::string::npos);
}

// One search vocabulary: every option of mcts/search_options.hpp is a key of each role
// (selfplay.search.*, eval.search.*), with the earlier names still read; the defaults are
// those the run always had.
TEST(TrainConfig, EverySearchOptionIsAKeyOfEachRoleAndTheEarlierNamesStillWork) {
  const std::string reference = config_reference();
  for (const auto& o : mcts::search_options())
    for (const std::string role : {"selfplay.search.", "eval.search."})
      EXPECT_NE(reference.find(role + std::string(o.spec_key) + " ("), std::string::npos)
          << role << o.spec_key;
  const TrainConfig d = TrainConfig::defaults();
  EXPECT_EQ(d.selfplay_search.simulations, 48);
  EXPECT_EQ(d.selfplay_search.leaves_per_batch, 2);
  EXPECT_TRUE(d.selfplay_search.gumbel);
  EXPECT_EQ(d.selfplay_search.gumbel_actions, 8);
  EXPECT_FLOAT_EQ(d.selfplay_search.c_puct, 1.25f);
  EXPECT_TRUE(d.selfplay_search.reuse_tree);
  const mcts::SearchConfig az = mcts::az_search(32);
  EXPECT_EQ(d.eval_search.simulations, 32);
  EXPECT_EQ(d.eval_search.leaves_per_batch, az.leaves_per_batch);
  EXPECT_EQ(d.eval_search.gumbel, az.gumbel);

  TrainConfig old = TrainConfig::defaults();
  old.load_yaml(write_file(
      "old_names.yaml",
      "selfplay:\n  simulations: 20\n  leaves_per_search: 3\n  gumbel: false\n  c_puct: 2.5\n"
      "  fpu: 0\n  reuse: false\n  gumbel_k: 4\neval:\n  simulations: 12\n"));
  TrainConfig now = TrainConfig::defaults();
  now.load_yaml(write_file(
      "new_names.yaml",
      "selfplay:\n  search:\n    sims: 20\n    batch: 3\n    gumbel: false\n    cpuct: 2.5\n"
      "    fpu: 0\n    reuse: false\n    gumbel_k: 4\neval:\n  search:\n    sims: 12\n"));
  EXPECT_EQ(old.to_yaml(false), now.to_yaml(false));
  EXPECT_EQ(old.selfplay_search.simulations, 20);
  EXPECT_EQ(old.selfplay_search.leaves_per_batch, 3);
  EXPECT_FALSE(old.selfplay_search.gumbel);
  EXPECT_FLOAT_EQ(old.selfplay_search.c_puct, 2.5f);
  EXPECT_EQ(old.eval_search.simulations, 12);
  // The Gumbel root, self-play's, is open to the evaluation agent too.
  now.set("eval.search.gumbel=true");
  now.set("eval.search.gumbel_k=4");
  EXPECT_TRUE(now.eval_search.gumbel);
  EXPECT_EQ(now.eval_search.gumbel_actions, 4);
  EXPECT_NE(now.to_yaml(false).find("  search.gumbel: true"), std::string::npos);
  EXPECT_NE(reference.find("; was selfplay.simulations"), std::string::npos);
}

TEST(TrainConfig, HostileYamlIsRefusedWithOneLine) {
  TrainConfig c = TrainConfig::defaults();
  // yaml-cpp recurses per level: thousands of brackets would overflow the stack.
  EXPECT_THROW(c.load_yaml_text("net: " + std::string(100000, '['), "deep.yaml"), Error);
  EXPECT_THROW(c.load_yaml_text("[1, 2]: 3\n", "listkey.yaml"), Error);
  EXPECT_THROW(c.load_yaml_text("a:\n b:\n  c:\n   d:\n    e: 1\n", "nested.yaml"), Error);
  EXPECT_THROW(c.set("seed=-1"), Error) << "an unsigned key does not wrap a negative number";
  EXPECT_THROW(c.load_yaml_text(std::string(2 << 20, '#'), "huge.yaml"), Error);
  EXPECT_NO_THROW(c.load_yaml_text("net: {blocks: 3}\nrun: {steps: 5}\n", "flow.yaml"));
  EXPECT_EQ(c.net_blocks, 3);
}

// Every file in configs/ (the defaults, the GPU and the two-hour recipes) loads and validates,
// so a recipe added later is checked without being listed here.
TEST(TrainConfig, ShippedConfigsLoad) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(AZG_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    TrainConfig c = TrainConfig::defaults();
    EXPECT_NO_THROW(c.load_yaml(entry.path().string())) << name;
    EXPECT_NO_THROW(c.validate()) << name;
    ++checked;
  }
  EXPECT_GE(checked, 15) << "the five defaults, their GPU forms, connect4 and the long recipes";
}

// A sink that keeps every finished game a worker sends.
template <class G>
struct CapturedGamesOf final : GameSink<G> {
  std::vector<FinishedGame<G>> games;
  void add(FinishedGame<G>&& g) override { games.push_back(std::move(g)); }
  bool ahead() const override { return false; }
};
using CapturedGames = CapturedGamesOf<testgames::TicTacToe>;

// Runs one self-play worker with `evaluator`, the run at `step`, until it has finished
// `games` games.
template <class G>
void play_games(const TrainConfig& config, std::int64_t step, int games, std::uint64_t seed,
                CapturedGamesOf<G>& sink, SelfPlayStats& stats, mcts::Evaluator<G>& evaluator) {
  std::atomic<std::int64_t> network_step{step};
  std::atomic<bool> stop{false};
  SelfPlayWorker<G> worker(config, evaluator, sink, stats, network_step, seed);
  std::thread thread([&] { worker.run(stop); });
  while (stats.games.load() < games) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  stop = true;
  thread.join();
}

// The same with a uniform evaluator (equal priors, value 0).
void play_games(const TrainConfig& config, std::int64_t step, int games, std::uint64_t seed,
                CapturedGames& sink, SelfPlayStats& stats) {
  mcts::UniformEvaluator<testgames::TicTacToe> evaluator;
  play_games(config, step, games, seed, sink, stats, evaluator);
}

// Equal priors, and every position lost for player 0: -value where it is to act, +value
// where player 1 is.
template <class G = testgames::TicTacToe>
struct PlayerZeroLoses final : mcts::Evaluator<G> {
  explicit PlayerZeroLoses(float value = 0.99f) : value(value) {}
  float value;
  void evaluate(mcts::EvalBatch<G>& batch) override {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      mcts::set_uniform_priors(batch, i);
      batch.value(i) = batch.state(i).to_act() == Player::kP0 ? -value : value;
    }
  }
};

// net.play_symmetry and net.play_symmetry_mean travel with the model to its agents and the
// run's evaluations, while self-play keeps reading positions as they stand.
TEST(PlaySymmetry, TheModelCarriesItAndSelfPlayIgnoresIt) {
  for (const bool mean : {false, true}) {
    TrainConfig c = TrainConfig::defaults();
    c.net_blocks = 1;
    c.net_channels = 8;
    EXPECT_FALSE(model_meta<Intercept>(c).net.play_symmetry) << "off by default";
    EXPECT_FALSE(model_meta<Intercept>(c).net.play_symmetry_mean) << "off by default";
    (mean ? c.net_play_symmetry_mean : c.net_play_symmetry) = true;
    const nets::ModelMeta meta = model_meta<Intercept>(c);
    ASSERT_EQ(meta.net.play_symmetry, !mean);
    ASSERT_EQ(meta.net.play_symmetry_mean, mean);
    auto model = nets::InferenceModel::fresh(meta, 4);
    mcts::EvalBatch<Intercept> batch;
    Rng rng(9);
    while (batch.size() < 16) {
      Intercept g;
      for (int k = 0; k < 10 && !g.is_terminal(); ++k) g.apply(random_action(g, rng));
      if (g.is_terminal()) continue;
      FixedList<Action, Intercept::kMaxActions> actions;
      g.legal_actions(actions);
      batch.add(g, actions, rng.next());
    }
    auto values = [&](mcts::Evaluator<Intercept>& evaluator) {
      evaluator.evaluate(batch);
      std::vector<float> out;
      for (std::size_t i = 0; i < batch.size(); ++i) out.push_back(batch.value(i));
      return out;
    };
    SelfPlayEvaluator<Intercept> selfplay(c, model);
    nets::NnEvaluator<Intercept> as_they_stand(model, nets::NnEvaluatorOptions::without_symmetry()),
        own_setting(model);
    const std::vector<float> plain = values(as_they_stand);
    EXPECT_EQ(values(selfplay.get()), plain);
    EXPECT_NE(values(own_setting), plain);
    if (mean) {  // the model's own setting is the mean over every symmetry
      nets::NnEvaluatorOptions options;
      options.average_symmetries = true;
      nets::NnEvaluator<Intercept> averaging(model, options);
      EXPECT_EQ(values(own_setting), values(averaging));
    }
  }
}

TEST(HeuristicMix, TheWeightRunsLinearlyFromStartToFinal) {
  TrainConfig c = TrainConfig::defaults();
  EXPECT_FALSE(uses_heuristic_mix(c)) << "off by default";
  c.selfplay_heuristic_mix = 0.8;
  c.selfplay_heuristic_mix_final = 0.2;
  EXPECT_TRUE(uses_heuristic_mix(c));
  EXPECT_DOUBLE_EQ(heuristic_mix_weight(c, 0.0), 0.8);
  EXPECT_DOUBLE_EQ(heuristic_mix_weight(c, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(heuristic_mix_weight(c, 1.0), 0.2);
  EXPECT_DOUBLE_EQ(heuristic_mix_weight(c, 3.0), 0.2) << "progress is clamped";
  // EPT playouts as the mixed value need a mix to be in.
  TrainConfig ept = TrainConfig::defaults();
  ept.selfplay_heuristic_playout_turns = 4;
  EXPECT_THROW(ept.validate(), Error);
  ept.selfplay_heuristic_mix_final = 0.3;
  EXPECT_NO_THROW(ept.validate());
  EXPECT_EQ(ept.selfplay_heuristic_playout_decisive, 1) << "wins taken, by default";
  ept.set("selfplay.heuristic_playout_decisive=2");
  EXPECT_EQ(ept.selfplay_heuristic_playout_decisive, 2);
  ept.set("selfplay.heuristic_playout_decisive=3");
  EXPECT_THROW(ept.validate(), Error);
  // A game without a static evaluation refuses the key; one without a turn cap refuses
  // train.cap_value; cap_value and draw_progress exclude each other.
  EXPECT_THROW(check_config_for_game<testgames::TicTacToe>(c), Error);
  EXPECT_NO_THROW(check_config_for_game<Intercept>(c));
  TrainConfig cap = TrainConfig::defaults();
  cap.train_cap_value = "search";
  EXPECT_THROW(check_config_for_game<testgames::TicTacToe>(cap), Error);
  EXPECT_NO_THROW(check_config_for_game<Intercept>(cap));
  cap.train_draw_progress = 0.5;
  EXPECT_THROW(cap.validate(), Error);
  cap.train_draw_progress = 0;
  cap.set("train.cap_value=last");
  EXPECT_THROW(cap.validate(), Error);
}

// Intercept with a search that sees nothing: every game runs to the turn cap.
TrainConfig capped_intercept_config(const std::string& cap_value) {
  TrainConfig config = TrainConfig::defaults();
  config.game = "intercept";
  config.selfplay_games_per_thread = 2;
  config.selfplay_search.simulations = 2;
  config.selfplay_cheap_simulations = 2;
  config.selfplay_search.gumbel = false;
  config.train_value_mix = 0;  // value targets are the (scored) result alone
  config.train_cap_value = cap_value;
  return config;
}

TEST(CapValue, CappedGamesAreCountedAndScoredAsConfigured) {
  for (const std::string cap_value : {"draw", "search", "evaluation"}) {
    CapturedGamesOf<Intercept> sink;
    SelfPlayStats stats;
    PlayerZeroLoses<Intercept> evaluator(0.6f);
    play_games<Intercept>(capped_intercept_config(cap_value), 0, 2, 5, sink, stats, evaluator);
    ASSERT_GE(sink.games.size(), 2u);
    int capped = 0;
    for (const auto& game : sink.games) {
      const Intercept end = replay(Intercept{}, game.record.actions);
      ASSERT_TRUE(end.is_terminal());
      if (!ended_by_cap(end)) continue;
      ++capped;
      // "search": the last searches' root values, which see player 0 losing everywhere
      // (their size depends on the search: 2 simulations, draws at the cap among the leaves).
      float z_p0 =
          cap_value == "draw" ? 0.0f : static_cast<float>(std::clamp(end.evaluate(), -1.0, 1.0));
      if (cap_value == "search") {
        z_p0 = game.positions.front().state.to_act() == Player::kP0 ? game.positions.front().value
                                                                    : -game.positions.front().value;
        EXPECT_LT(z_p0, -0.1f) << "player 0's searches saw it lose";
      }
      for (const auto& p : game.positions) {
        const float z = p.state.to_act() == Player::kP0 ? z_p0 : -z_p0;
        EXPECT_NEAR(p.value, z, 1e-6f) << cap_value << ": one result, each side's view";
      }
    }
    EXPECT_GT(capped, 0) << "a search that sees nothing does not finish Intercept games";
    EXPECT_EQ(stats.capped.load(), capped) << "the counter matches the games";
    EXPECT_EQ(stats.decisive.load(), static_cast<std::int64_t>(sink.games.size()) - capped);
  }
}

// train.result_discount: the result counts D^k in the value target of a position k
// recorded decisions before the game's end, so the last position keeps it whole.
TEST(ResultDiscount, TheResultFadesWithTheDecisionsLeftToTheEnd) {
  TrainConfig config = capped_intercept_config("evaluation");  // capped: scored, not 0
  config.train_result_discount = 0.9;
  CapturedGamesOf<Intercept> sink;
  SelfPlayStats stats;
  PlayerZeroLoses<Intercept> evaluator(0.6f);
  play_games<Intercept>(config, 0, 2, 3, sink, stats, evaluator);
  int checked = 0;
  for (const auto& game : sink.games) {
    const Intercept end = replay(Intercept{}, game.record.actions);
    if (!ended_by_cap(end)) continue;
    const float z_p0 = static_cast<float>(std::clamp(end.evaluate(), -1.0, 1.0));
    ASSERT_GT(std::abs(z_p0), 0.01f) << "the capped position's evaluation is not 0";
    const std::size_t n = game.positions.size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto& p = game.positions[i];
      const float z = p.state.to_act() == Player::kP0 ? z_p0 : -z_p0;
      EXPECT_NEAR(p.value, z * std::pow(0.9f, static_cast<float>(n - 1 - i)), 1e-5f) << i;
    }
    EXPECT_NEAR(std::abs(game.positions.back().value), std::abs(z_p0), 1e-6f);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  TrainConfig bad = TrainConfig::defaults();
  bad.set("train.result_discount=1.5");
  EXPECT_THROW(bad.validate(), Error) << "a discount above 1";
}

// train.evaluation_mix: each position's value target takes the static evaluation of that
// position, from the side to act there, by the key's weight.
TEST(EvaluationMix, ValueTargetsBlendTheEvaluationOfEachPosition) {
  TrainConfig config = capped_intercept_config("draw");  // capped games: results 0
  config.train_evaluation_mix = 0.5;
  CapturedGamesOf<Intercept> sink;
  SelfPlayStats stats;
  PlayerZeroLoses<Intercept> evaluator(0.6f);
  play_games<Intercept>(config, 0, 2, 3, sink, stats, evaluator);
  ASSERT_FALSE(sink.games.empty());
  int nonzero = 0;
  for (const auto& game : sink.games) {
    const Intercept end = replay(Intercept{}, game.record.actions);
    if (!ended_by_cap(end)) continue;
    for (const auto& p : game.positions) {
      const float e = evaluation(p.state, p.state.to_act());
      EXPECT_NEAR(p.value, 0.5f * e, 1e-6f) << "half the draw's 0, half the evaluation";
      if (std::abs(e) > 0.01f) ++nonzero;
    }
  }
  EXPECT_GT(nonzero, 0) << "the evaluation is not 0 everywhere";
  TrainConfig imbriqua = TrainConfig::defaults();
  imbriqua.set("train.evaluation_mix=0.6");
  imbriqua.set("train.value_mix=0.5");
  EXPECT_THROW(imbriqua.validate(), Error) << "the mixes add up to more than 1";
}

// Four games at once, small searches: quick tic-tac-toe self-play.
TrainConfig small_selfplay_config() {
  TrainConfig config = TrainConfig::defaults();
  config.selfplay_games_per_thread = 4;
  config.selfplay_search.simulations = 8;
  config.selfplay_cheap_simulations = 4;
  return config;
}

TEST(StartArchive, ShareOfGamesStartWhereEarlierGamesStoodAndTheirRecordsReplay) {
  TrainConfig config = small_selfplay_config();
  config.selfplay_archive_share = 0.5;
  CapturedGames sink;
  SelfPlayStats stats;
  play_games(config, 0, 60, 9, sink, stats);
  ASSERT_GE(sink.games.size(), 60u);
  int archived = 0;
  for (const auto& g : sink.games) {
    const testgames::TicTacToe end = replay(testgames::TicTacToe{}, g.record.actions);
    ASSERT_TRUE(end.is_terminal()) << "the record replays from the real start to the end";
    EXPECT_EQ(end.outcome(), g.record.outcome);
    ASSERT_FALSE(g.positions.empty());
    // A game from the archive trains on its own positions only: its record is longer.
    if (g.positions.front().state.hash() != testgames::TicTacToe{}.hash()) {
      ++archived;
      EXPECT_GT(g.record.actions.size(), g.positions.size());
    }
  }
  // Started games include some still running at the stop; archived games are shorter, so
  // more than half of the finished ones.
  EXPECT_LE(archived, stats.archive_starts.load());
  EXPECT_GT(archived, 10);
  EXPECT_LT(archived, static_cast<int>(sink.games.size()) - 4)
      << "the first games start at the start";
}

TrainConfig resigning_config(double playout) {
  TrainConfig config = small_selfplay_config();
  config.selfplay_resign_value = 0.5;
  config.selfplay_resign_playout = playout;
  return config;
}

TEST(Resignation, APlayerWhoseSearchSeesALossTwiceInARowResigns) {
  CapturedGames sink;
  SelfPlayStats stats;
  PlayerZeroLoses<> evaluator;
  play_games(resigning_config(0.0), 0, 12, 3, sink, stats, evaluator);
  ASSERT_GE(sink.games.size(), 12u);
  for (const auto& g : sink.games) {
    EXPECT_EQ(g.termination, "resignation");
    EXPECT_EQ(g.record.outcome, Outcome::kP1Win);
    EXPECT_EQ(g.record.actions.size(), 2u)
        << "player 0 resigns at its second decision, before moving";
    ASSERT_EQ(g.positions.size(), 3u) << "the resigning position keeps its search's targets";
    EXPECT_FLOAT_EQ(g.positions[0].value, -1.0f);
    EXPECT_FLOAT_EQ(g.positions[1].value, 1.0f);
    EXPECT_FLOAT_EQ(g.positions[2].value, -1.0f);
  }
  EXPECT_EQ(stats.resigned.load(), stats.games.load());
  EXPECT_EQ(stats.resign_checks.load(), 0) << "no game was played out";

  // Off, the same games run to their end.
  CapturedGames off_sink;
  SelfPlayStats off_stats;
  TrainConfig off = resigning_config(0.0);
  off.selfplay_resign_value = 0;
  play_games(off, 0, 12, 3, off_sink, off_stats, evaluator);
  for (const auto& g : off_sink.games) {
    EXPECT_TRUE(g.termination.empty());
    EXPECT_GE(g.record.actions.size(), 5u);
  }
  EXPECT_EQ(off_stats.resigned.load(), 0);
}

TEST(Resignation, GamesPlayedOutCountTheResignationsThatWouldHaveBeenWrong) {
  CapturedGames sink;
  SelfPlayStats stats;
  PlayerZeroLoses<> evaluator;
  play_games(resigning_config(1.0), 0, 40, 5, sink, stats, evaluator);
  std::int64_t not_lost_by_player_zero = 0;
  for (const auto& g : sink.games) {
    EXPECT_TRUE(g.termination.empty()) << "nobody resigns in a game played out";
    testgames::TicTacToe end = replay(testgames::TicTacToe{}, g.record.actions);
    EXPECT_TRUE(end.is_terminal());
    if (g.record.outcome != Outcome::kP1Win) ++not_lost_by_player_zero;
  }
  EXPECT_EQ(stats.resigned.load(), 0);
  EXPECT_EQ(stats.resign_checks.load(), stats.games.load())
      << "player 0 crosses the line in every game";
  EXPECT_EQ(stats.resign_false.load(), not_lost_by_player_zero);
  EXPECT_GT(not_lost_by_player_zero, 0) << "the evaluator is wrong: player 0 often wins or draws";
}

// Less effort on decided games: once the root values have called the game for player 1
// (every value says player 0 loses) on two decisions in a row, the rest of the game gets
// cheap searches only (no policy target), it is still played to its end, and the calls
// that player 1 did not win are counted as wrong.
TEST(DecidedGames, ACalledGameIsPlayedOutOnCheapSearchesAndItsWrongCallsCounted) {
  TrainConfig config = small_selfplay_config();
  config.selfplay_full_fraction = 1.0;
  config.selfplay_decided_value = 0.5;
  config.selfplay_decided_decisions = 2;
  CapturedGames sink;
  SelfPlayStats stats;
  PlayerZeroLoses<> evaluator;
  play_games(config, 0, 30, 4, sink, stats, evaluator);
  ASSERT_GE(sink.games.size(), 30u);
  std::int64_t not_won_by_player_one = 0;
  for (const auto& g : sink.games) {
    EXPECT_TRUE(g.termination.empty());
    EXPECT_TRUE(replay(testgames::TicTacToe{}, g.record.actions).is_terminal())
        << "played to its end";
    ASSERT_GE(g.positions.size(), 5u);
    EXPECT_FALSE(g.positions[0].policy.empty()) << "full searches before the call";
    EXPECT_FALSE(g.positions[1].policy.empty());
    for (std::size_t i = 2; i < g.positions.size(); ++i)
      EXPECT_TRUE(g.positions[i].policy.empty()) << i;
    if (g.record.outcome != Outcome::kP1Win) ++not_won_by_player_one;
  }
  EXPECT_EQ(stats.decided.load(), stats.games.load());
  EXPECT_EQ(stats.decided_wrong.load(), not_won_by_player_one);
  EXPECT_GT(not_won_by_player_one, 0) << "the evaluator is wrong: player 1 does not always win";

  // Off (the default), every search stays full.
  CapturedGames off_sink;
  SelfPlayStats off_stats;
  config.selfplay_decided_value = 0;
  play_games(config, 0, 10, 4, off_sink, off_stats, evaluator);
  for (const auto& g : off_sink.games)
    for (const auto& p : g.positions) EXPECT_FALSE(p.policy.empty());
  EXPECT_EQ(off_stats.decided.load(), 0);
}

TEST(Resignation, TargetsThatNeedTheFinalPositionRefuseIt) {
  TrainConfig c = TrainConfig::defaults();
  c.set("selfplay.resign_value=0.9");
  EXPECT_NO_THROW(c.validate());
  for (const char* other : {"net.ownership=true", "net.score_head=true", "train.margin_mix=0.2"}) {
    TrainConfig d = c;
    d.set(other);
    try {
      d.validate();
      ADD_FAILURE() << other << " with resignation must be refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("selfplay.resign_value"), std::string::npos) << e.what();
    }
  }
  c.set("selfplay.resign_value=1");
  EXPECT_THROW(c.validate(), Error) << "no value is below -1: a line there would never be crossed";
}

TEST(Schedule, TheLearningRateAnnealsByStepsOrByTheClockWhicheverEndsTheRunFirst) {
  TrainConfig c = TrainConfig::defaults();
  c.run_steps = 1000;
  c.run_minutes = 10;
  c.optim_lr = 0.1;
  c.optim_lr_final = 0.01;
  EXPECT_DOUBLE_EQ(run_progress(c, 0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(run_progress(c, 250, 60.0), 0.25) << "steps ahead of the clock";
  EXPECT_DOUBLE_EQ(run_progress(c, 100, 300.0), 0.5) << "the clock ahead of the steps";
  EXPECT_DOUBLE_EQ(run_progress(c, 900, 700.0), 1.0) << "past the time budget";
  c.run_minutes = 0;
  EXPECT_DOUBLE_EQ(run_progress(c, 100, 1e6), 0.1) << "no time budget: steps alone";
  EXPECT_DOUBLE_EQ(learning_rate(c, 0.0), 0.1);
  EXPECT_NEAR(learning_rate(c, 0.5), 0.055, 1e-12);
  EXPECT_DOUBLE_EQ(learning_rate(c, 1.0), 0.01);
  EXPECT_GT(learning_rate(c, 0.3), learning_rate(c, 0.6)) << "decreasing";
}

TEST(Schedule, FullSearchesGrowFromSimulationsStartToSimulations) {
  TrainConfig c = TrainConfig::defaults();
  c.selfplay_search.simulations = 32;
  for (double t : {0.0, 0.5, 1.0}) EXPECT_EQ(full_simulations(c, t), 32) << "off by default";
  c.selfplay_simulations_start = 8;
  EXPECT_EQ(full_simulations(c, 0.0), 8);
  EXPECT_EQ(full_simulations(c, 0.5), 20);
  EXPECT_EQ(full_simulations(c, 1.0), 32);
  EXPECT_EQ(full_simulations(c, 1.5), 32) << "never past selfplay.simulations";
  EXPECT_NO_THROW(c.validate());
  c.selfplay_simulations_start = 33;
  try {
    c.validate();
    ADD_FAILURE() << "a start above selfplay.simulations must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("selfplay.simulations_start"), std::string::npos)
        << e.what();
  }
}

TEST(Schedule, ASelfPlayWorkerSearchesDeeperAsTheRunGoesOn) {
  // Network evaluations per full search, with the run at `step` of 1,000.
  const auto evaluations_per_search = [](std::int64_t step) {
    TrainConfig config = TrainConfig::defaults();
    config.run_steps = 1000;
    config.run_minutes = 0;
    config.selfplay_games_per_thread = 4;
    config.selfplay_full_fraction = 1.0;
    config.selfplay_simulations_start = 2;
    config.selfplay_search.simulations = 64;
    CapturedGames sink;
    SelfPlayStats stats;
    play_games(config, step, 20, 5, sink, stats);
    return static_cast<double>(stats.evaluations.load()) /
           static_cast<double>(stats.full_searches.load());
  };
  const double early = evaluations_per_search(0), late = evaluations_per_search(1000);
  EXPECT_LE(early, 2.0) << "2 simulations at the start";
  EXPECT_GT(late, 8.0 * early)
      << "64 simulations at the end (fewer where a small tree runs out of nodes)";
}

TEST(ValueTargets, ShortTermTargetsWeighTheRootValuesAhead) {
  // Players P0, P1, P0 with root values 0.2, -0.4 (P1's view), 0.6; P0 won (z = +1).
  const std::vector<Player> players{Player::kP0, Player::kP1, Player::kP0};
  const std::vector<float> roots{0.2f, -0.4f, 0.6f};
  EXPECT_EQ(searched_values(players, roots, 1.0f, 0.0), roots)
      << "no horizon: each position's own root value";
  EXPECT_EQ(searched_values(players, roots, 1.0f, 1.0), roots) << "a horizon of one move: the same";
  // H = 2: l = 0.5. From the end: t2 = 0.5 * 0.6 + 0.5 * 1 = 0.8; t1 (P0's view) =
  // 0.5 * 0.4 + 0.5 * 0.8 = 0.6, which is -0.6 for P1; t0 = 0.5 * 0.2 + 0.5 * 0.6 = 0.4.
  const std::vector<float> h2 = searched_values(players, roots, 1.0f, 2.0);
  EXPECT_NEAR(h2[2], 0.8, 1e-6);
  EXPECT_NEAR(h2[1], -0.6, 1e-6);
  EXPECT_NEAR(h2[0], 0.4, 1e-6);
  // A long horizon tends to the result itself, from each player's side.
  const std::vector<float> far = searched_values(players, roots, -1.0f, 1e9);
  EXPECT_NEAR(far[0], -1.0, 1e-6);
  EXPECT_NEAR(far[1], 1.0, 1e-6);
}

TEST(ValueTargets, TheScoreMarginBlendsIn) {
  TrainConfig c = TrainConfig::defaults();
  EXPECT_FLOAT_EQ(value_target(c, 1.0f, 0.3f, -5.0), 1.0f) << "by default the result alone";
  c.set("train.margin_mix=0.5");
  c.set("train.margin_scale=4");
  EXPECT_NEAR(value_target(c, 1.0f, 0.3f, -5.0), 0.5 + 0.5 * std::tanh(-1.25), 1e-6);
  c.set("train.value_mix=0.25");
  EXPECT_NEAR(value_target(c, -1.0f, 0.3f, 2.0), -0.25 + 0.25 * 0.3 + 0.5 * std::tanh(0.5), 1e-6);
  c.set("train.value_mix=0.6");
  EXPECT_THROW(c.validate(), Error) << "the mixes add up to more than 1";
  // Only games decided by points accept a margin share.
  TrainConfig m = TrainConfig::defaults();
  m.set("train.margin_mix=0.5");
  EXPECT_NO_THROW(check_config_for_game<Imbriqua>(m));
  EXPECT_THROW(check_config_for_game<Lignes>(m), Error);
  EXPECT_NO_THROW(check_config_for_game<Lignes>(TrainConfig::defaults()));
}

TEST(ValueTargets, DrawsScoredByProgressOnlyForGamesThatHaveIt) {
  TrainConfig c = TrainConfig::defaults();
  c.set("train.draw_progress=0.5");
  EXPECT_NO_THROW(check_config_for_game<Intercept>(c));
  EXPECT_THROW(check_config_for_game<Lignes>(c), Error);
  c.set("train.draw_progress=1.5");
  EXPECT_THROW(c.validate(), Error);
  // Intercept's heuristic: the ball's rank from the middle, player 0's view.
  EXPECT_DOUBLE_EQ(Intercept{}.progress(), 0.0) << "the lone ball starts on the middle row";
  Rng rng(4);
  for (int game = 0; game < 20; ++game) {
    Intercept g;
    for (int k = 0; k < 300 && !g.is_terminal(); ++k) g.apply(random_action(g, rng));
    EXPECT_DOUBLE_EQ(g.progress(), (g.ball() / 13 - 6) / 6.0);
    EXPECT_LE(std::abs(g.progress()), 1.0);
  }
}

TEST(SelfPlayStats, PolicyShiftIsTheKlOfPriorToTarget) {
  EXPECT_DOUBLE_EQ(kl_divergence({0.5f, 0.5f}, {0.5f, 0.5f}), 0.0);
  EXPECT_NEAR(kl_divergence({0.5f, 0.5f}, {0.25f, 0.75f}),
              0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0), 1e-6);
  EXPECT_TRUE(std::isfinite(kl_divergence({0.5f, 0.5f}, {1.0f, 0.0f})))
      << "a dropped action stays finite";
  EXPECT_GT(kl_divergence({0.9f, 0.1f}, {0.1f, 0.9f}), kl_divergence({0.6f, 0.4f}, {0.4f, 0.6f}));
}

TEST(PolicySurprise, CopiesFollowTheSurpriseAndKeepTheGamesWeightOnAverage) {
  Rng rng(7);
  // Surprises 0, 1 and 3 nats and a cheap search (-1): the mean over full searches is 4/3.
  const std::vector<double> surprise{0.0, 1.0, 3.0, -1.0};
  EXPECT_EQ(surprise_copies(surprise, 0.0, rng), (std::vector<int>{1, 1, 1, 1}))
      << "off: one copy each";
  EXPECT_EQ(surprise_copies({0.0, 0.0, -1.0}, 1.0, rng), (std::vector<int>{1, 1, 1}))
      << "no surprise: even";
  for (const double share : {1.0, 0.5}) {
    const std::vector<double> expected{(1 - share), (1 - share) + share * 0.75,
                                       (1 - share) + share * 2.25, 1.0};
    std::vector<double> mean(4, 0.0);
    const int draws = 20000;
    for (int d = 0; d < draws; ++d) {
      const std::vector<int> c = surprise_copies(surprise, share, rng);
      for (int i = 0; i < 4; ++i) {
        EXPECT_GE(c[i], static_cast<int>(std::floor(expected[i])))
            << "share " << share << ", position " << i;
        EXPECT_LE(c[i], static_cast<int>(std::ceil(expected[i])))
            << "share " << share << ", position " << i;
        mean[i] += static_cast<double>(c[i]) / draws;
      }
    }
    for (int i = 0; i < 4; ++i)
      EXPECT_NEAR(mean[i], expected[i], 0.02) << "share " << share << ", position " << i;
    EXPECT_NEAR(mean[0] + mean[1] + mean[2], 3.0, 0.03)
        << "the full searches keep their total weight";
  }
}

TEST(PolicySurprise, ASelfPlayWorkerSendsSurprisingPositionsMoreOften) {
  // Per setting: positions played, positions sent, and games that sent a position twice.
  const auto play = [](double share) {
    TrainConfig config = TrainConfig::defaults();
    config.selfplay_games_per_thread = 4;
    config.selfplay_search.simulations = 16;
    config.selfplay_full_fraction = 1.0;
    config.train_policy_surprise = share;
    CapturedGames sink;
    SelfPlayStats stats;
    play_games(config, 0, 40, 11, sink, stats);
    std::int64_t sent = 0, repeated = 0;
    for (const auto& g : sink.games) {
      sent += static_cast<std::int64_t>(g.positions.size());
      for (std::size_t i = 1; i < g.positions.size(); ++i)
        if (g.positions[i].state.render() == g.positions[i - 1].state.render()) {
          ++repeated;
          break;
        }
    }
    return std::tuple{stats.positions.load(), sent, repeated};
  };
  const auto [played_off, sent_off, repeated_off] = play(0.0);
  EXPECT_EQ(sent_off, played_off) << "off: every position once";
  EXPECT_EQ(repeated_off, 0);
  const auto [played, sent, repeated] = play(1.0);
  EXPECT_GT(repeated, 0) << "the most surprising positions go more than once";
  EXPECT_NEAR(static_cast<double>(sent), static_cast<double>(played),
              0.25 * static_cast<double>(played))
      << "about as many positions in all";
}

TEST(ValueTargets, ImbriquasMarginAgreesWithTheResult) {
  Rng rng(11);
  int decided_by_points = 0;
  for (int game = 0; game < 200; ++game) {
    Imbriqua g;
    while (!g.is_terminal()) g.apply(random_action(g, rng));
    const double margin = g.score_margin();
    EXPECT_EQ(margin, g.score(0) - g.score(1));
    if (margin != 0) {
      ++decided_by_points;
      EXPECT_EQ(g.outcome(), margin > 0 ? Outcome::kP0Win : Outcome::kP1Win);
    }
  }
  EXPECT_GT(decided_by_points, 150);
}

// The score head's target: the final margin from the side of the player to act at the
// position, squashed by train.margin_scale; unknown (weight 0) without the game's end.
TEST(ReplayBuffer, ScoreTargetsAreTheMoversSquashedFinalMargin) {
  Rng rng(12);
  ReplayBuffer<Imbriqua> buffer(256);
  const int size = Imbriqua::kPlanes.size();
  // Per position added: its planes and its target, NaN where the game's end is unknown.
  std::vector<std::pair<std::vector<float>, double>> added;
  for (int game = 0; game < 6; ++game) {
    Imbriqua g;
    std::vector<Imbriqua> decisions;
    while (!g.is_terminal()) {
      if (g.to_act() != Player::kChance) decisions.push_back(g);
      g.apply(random_action(g, rng));
    }
    for (std::size_t k = 0; k < decisions.size(); k += 7) {
      Position<Imbriqua> p;
      p.state = decisions[k];
      const bool known = game != 2;
      if (known) p.final_state = g;
      buffer.add(p);
      const double mover = p.state.to_act() == Player::kP0 ? 1.0 : -1.0;
      std::vector<float> planes(static_cast<std::size_t>(size));
      p.state.encode(planes);
      added.emplace_back(planes, known ? std::tanh(mover * g.score_margin() / 3.0) : std::nan(""));
    }
  }
  ASSERT_LE(added.size(), 256u) << "all kept in the window";
  nets::RawBatch batch;
  buffer.sample(200, rng, SymmetryUse::kNone, {.score_scale = 3.0}, batch);
  ASSERT_EQ(batch.score.size(), 200u);
  std::set<float> targets;
  int unknown = 0;
  for (int i = 0; i < batch.n; ++i) {
    const auto row = batch.planes.begin() + static_cast<std::ptrdiff_t>(i) * size;
    bool matched = false;
    for (const auto& [planes, target] : added) {
      if (!std::equal(planes.begin(), planes.end(), row)) continue;
      if (std::isnan(target))
        matched |= batch.score_weight[i] == 0.0f && batch.score[i] == 0.0f;
      else
        matched |= batch.score_weight[i] == 1.0f && std::abs(batch.score[i] - target) < 1e-6;
    }
    EXPECT_TRUE(matched) << "sample " << i << ": " << batch.score[i] << " weight "
                         << batch.score_weight[i];
    if (batch.score_weight[i] == 0.0f)
      ++unknown;
    else
      targets.insert(batch.score[i]);
  }
  EXPECT_GT(unknown, 0) << "game 2 kept no end";
  EXPECT_GT(targets.size(), 4u);
  EXPECT_TRUE(std::any_of(targets.begin(), targets.end(), [](float t) { return t > 0.05f; }));
  EXPECT_TRUE(std::any_of(targets.begin(), targets.end(), [](float t) { return t < -0.05f; }))
      << "both players' views appear";
  // Without a score scale, no score targets; the run's keys and the game's check.
  buffer.sample(8, rng, SymmetryUse::kNone, {}, batch);
  EXPECT_TRUE(batch.score.empty());
  TrainConfig c = TrainConfig::defaults();
  c.set("net.score_utility=0.1");
  EXPECT_THROW(c.validate(), Error) << "a utility without the head";
  c.set("net.score_head=true");
  EXPECT_NO_THROW(c.validate());
  EXPECT_NO_THROW(check_config_for_game<Imbriqua>(c));
  EXPECT_THROW(check_config_for_game<Lignes>(c), Error) << "Lignes is not decided by points";
  EXPECT_EQ(sample_targets(c).score_scale, c.train_margin_scale);
  EXPECT_EQ(sample_targets(TrainConfig::defaults()).score_scale, 0.0);
}

TEST(ReplayBuffer, SymmetricSamplesKeepPolicyOnTheImageOfTheAction) {
  using testgames::TicTacToe;
  ReplayBuffer<TicTacToe> buffer(10);
  Position<TicTacToe> p;
  p.state = replay(TicTacToe{}, {"a1", "b2"});
  const Action target = *p.state.parse_action("c1");
  p.policy = {{target, 1.0f}};
  p.value = 0.5f;
  buffer.add(p);
  Rng rng(3);
  nets::RawBatch batch;
  buffer.sample(64, rng, SymmetryUse::kAll, {}, batch);
  std::set<int> seen_targets;
  for (int i = 0; i < batch.n; ++i) {
    const float* planes = batch.planes.data() + i * 18;
    // The sample is the image under some symmetry s (several s can give the same planes
    // when the position is itself symmetric): the target must sit on the image of c1.
    const float* policy = batch.policy.data() + i * 9;
    bool matched = false;
    for (int s = 0; s < 8 && !matched; ++s) {
      std::vector<float> enc(18);
      const TicTacToe image = p.state.symmetric(s);
      image.encode(enc);
      if (!std::equal(enc.begin(), enc.end(), planes)) continue;
      const int expected = image.policy_index(p.state.symmetric_action(s, target));
      if (policy[expected] != 1.0f) continue;
      matched = true;
      EXPECT_EQ(batch.legal[i * 9 + expected], 1);
      EXPECT_EQ(batch.legal[i * 9 + image.policy_index(p.state.symmetric_action(s, 0))], 0)
          << "a1 is taken";
      seen_targets.insert(expected);
    }
    EXPECT_TRUE(matched) << "sample " << i
                         << " is no symmetric image of the position and its target";
    EXPECT_FLOAT_EQ(batch.value[i], 0.5f);
    EXPECT_FLOAT_EQ(batch.policy_weight[i], 1.0f);
  }
  EXPECT_GT(seen_targets.size(), 2u) << "several symmetries were sampled";
}

// replay.swap_symmetries: Intercept's half-turn and top-bottom flip show Light's position
// as Dark's (own goal plane 11 on g13 rather than g1); turned off, every sample keeps the
// colours, and the mirror is still drawn. The value target is the mover's either way.
TEST(ReplayBuffer, ColourKeepingSamplesNeverExchangeThePlayers) {
  ReplayBuffer<Intercept> buffer(4);
  Position<Intercept> p;
  p.state = Intercept{};  // Light to move
  p.value = 0.25f;
  buffer.add(p);
  constexpr int kG1 = 6, kG13 = 12 * 13 + 6, kCells = Intercept::kSquares;
  for (const SymmetryUse use : {SymmetryUse::kAll, SymmetryUse::kColourKeeping}) {
    Rng rng(11);
    nets::RawBatch batch;
    buffer.sample(64, rng, use, {}, batch);
    int as_dark = 0;
    std::set<std::vector<float>> images;
    for (int i = 0; i < batch.n; ++i) {
      const float* planes =
          batch.planes.data() + static_cast<std::size_t>(i) * Intercept::kPlanes.size();
      ASSERT_EQ(planes[11 * kCells + kG1] + planes[11 * kCells + kG13], 1.0f);
      as_dark += planes[11 * kCells + kG13] == 1.0f ? 1 : 0;
      images.insert(std::vector<float>(planes, planes + 8 * kCells));
      EXPECT_FLOAT_EQ(batch.value[i], 0.25f);
    }
    if (use == SymmetryUse::kAll) {
      EXPECT_GT(as_dark, 16) << "about half the samples are seen from Dark's side";
      EXPECT_EQ(images.size(), 4u);
    } else {
      EXPECT_EQ(as_dark, 0);
      EXPECT_EQ(images.size(), 2u)
          << "the start and its mirror image (the start's row is no palindrome)";
    }
  }
  Rng rng(1);
  EXPECT_EQ(random_symmetry<Intercept>(SymmetryUse::kNone, rng), 0);
}

TEST(ReplayBuffer, WindowAndSaveLoadRoundTrip) {
  ReplayBuffer<Imbriqua> buffer(5);
  Rng rng(1);
  Imbriqua g;
  for (int i = 0; i < 8; ++i) {
    Position<Imbriqua> p;
    p.state = g;
    p.value = static_cast<float>(i) / 8;
    if (i % 2) p.policy = {{1, 0.25f}, {2, 0.75f}};
    if (i % 3) p.final_state = g;
    buffer.add(p);
    g.apply(random_action(g, rng));
  }
  EXPECT_EQ(buffer.size(), 5u);
  EXPECT_EQ(buffer.added(), 8);
  const std::string path =
      (std::filesystem::temp_directory_path() / "azg_buffer_test.bin").string();
  buffer.save(path);
  ReplayBuffer<Imbriqua> loaded(5);
  loaded.load(path);
  EXPECT_EQ(loaded.added(), 8);
  nets::RawBatch a, b;
  Rng r1(9), r2(9);
  buffer.sample(16, r1, SymmetryUse::kNone, {.ownership = true}, a);
  loaded.sample(16, r2, SymmetryUse::kNone, {.ownership = true}, b);
  EXPECT_EQ(a.planes, b.planes);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.ownership, b.ownership);
  EXPECT_EQ(a.ownership_weight, b.ownership_weight);
  EXPECT_NE(std::count(a.ownership_weight.begin(), a.ownership_weight.end(), 1.0f), 0);
  EXPECT_NE(std::count(a.ownership_weight.begin(), a.ownership_weight.end(), 0.0f), 0);
  ReplayBuffer<Lignes> wrong(5);
  EXPECT_THROW(wrong.load(path), Error);
  std::ofstream(path, std::ios::trunc) << "garbage";
  EXPECT_THROW(loaded.load(path), Error);
}

// What an actor sends its learners: a finished game's positions, record and step.
TEST(GamePayload, AFinishedGameGoesOutAndComesBackAndDamageIsRefused) {
  using testgames::TicTacToe;
  Rng rng(9);
  FinishedGame<TicTacToe> game;
  game.network_step = 42;
  TicTacToe s;
  while (!s.is_terminal()) {
    Position<TicTacToe> p;
    p.state = s;
    ActionListFor<TicTacToe> legal;
    s.legal_actions(legal);
    for (const Action a : legal) p.policy.emplace_back(a, 1.0f / static_cast<float>(legal.size()));
    p.value = 0.5f;
    game.positions.push_back(p);
    const Action a = random_action(s, rng);
    game.record.actions.push_back(s.action_to_string(a));
    s.apply(a);
  }
  game.record.outcome = s.outcome();
  for (auto& p : game.positions) p.final_state = s;
  const std::string bytes = encode_game(game);
  const FinishedGame<TicTacToe> back = decode_game<TicTacToe>(bytes, "game 1");
  EXPECT_EQ(back.network_step, 42);
  EXPECT_EQ(back.record.actions, game.record.actions);
  EXPECT_EQ(back.record.outcome, game.record.outcome);
  ASSERT_EQ(back.positions.size(), game.positions.size());
  for (std::size_t i = 0; i < back.positions.size(); ++i) {
    EXPECT_EQ(back.positions[i].state.hash(), game.positions[i].state.hash());
    EXPECT_EQ(back.positions[i].policy, game.positions[i].policy);
    EXPECT_TRUE(back.positions[i].final_state.has_value());
  }
  EXPECT_TRUE(back.termination.empty());
  // Every changed byte and every cut is refused with one line.
  for (std::size_t at = 0; at < bytes.size(); at += 7) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
    EXPECT_THROW(decode_game<TicTacToe>(damaged, "game 1"), Error) << at;
    EXPECT_THROW(decode_game<TicTacToe>(bytes.substr(0, at), "game 1"), Error) << at;
  }
  try {
    decode_game<testgames::ChancePig>(bytes, "game 1 from actor-a");
    FAIL() << "another game's payload was read";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("game 1 from actor-a is not a self-play game of this build's"),
        std::string::npos);
  }
}

// A resigned game stops before its end: its payload and its record say so, and an
// unfinished game without that termination is refused.
TEST(GamePayload, AResignedGameKeepsItsTermination) {
  using testgames::TicTacToe;
  FinishedGame<TicTacToe> game;
  TicTacToe s;
  for (const char* a : {"a1", "b2"}) {
    Position<TicTacToe> p;
    p.state = s;
    p.value = 1.0f;
    game.positions.push_back(p);
    const Action action = *s.parse_action(a);
    game.record.actions.push_back(s.action_to_string(action));
    s.apply(action);
  }
  game.record.outcome = Outcome::kP1Win;
  game.termination = std::string(kResignation);
  const FinishedGame<TicTacToe> back = decode_game<TicTacToe>(encode_game(game), "game 2");
  EXPECT_EQ(back.termination, "resignation");
  EXPECT_EQ(back.record.actions, game.record.actions);
  EXPECT_EQ(back.record.outcome, Outcome::kP1Win);
  for (const char* termination : {"", "the actor got bored"}) {
    FinishedGame<TicTacToe> other = game;
    other.termination = termination;
    EXPECT_THROW(decode_game<TicTacToe>(encode_game(other), "game 3"), Error) << termination;
  }

  const std::string folder =
      (std::filesystem::temp_directory_path() / "azg_resigned_records").string();
  std::filesystem::remove_all(folder);
  {
    GameRecordWriter writer(folder, 10);
    writer.add(game.record, 7, game.termination);
    writer.flush();
  }
  std::ifstream in(folder + "/000001.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const play::ReadRecord read = play::read_game_record<TicTacToe>(line, "000001.jsonl:1");
  EXPECT_EQ(read.termination, "resignation");
  EXPECT_EQ(read.record.outcome, Outcome::kP1Win);
  std::filesystem::remove_all(folder);
}

TEST(ReplayBuffer, DamagedFilesAreRefusedBeforeAnyStateIsUsed) {
  ReplayBuffer<Lignes> buffer(50);
  Rng rng(3);
  Lignes g;
  for (int i = 0; i < 20 && !g.is_terminal(); ++i) {
    Position<Lignes> p;
    p.state = g;
    p.value = 0.5f;
    p.policy = {{random_action(g, rng), 1.0f}};
    buffer.add(p);
    g.apply(random_action(g, rng));
  }
  const std::string path =
      (std::filesystem::temp_directory_path() / "azg_buffer_damage.bin").string();
  buffer.save(path);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto error_of = [&](const std::string& damaged) {
    ReplayBuffer<Lignes> loaded(50);
    try {
      loaded.load_bytes(damaged, "buffer.bin");
    } catch (const Error& e) {
      EXPECT_EQ(loaded.size(), 0u) << "a refused file leaves the buffer as it was";
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_EQ(error_of(bytes), "loaded");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  EXPECT_EQ(error_of(flipped), "buffer.bin is damaged (its checksum does not match)");
  EXPECT_NE(error_of(bytes.substr(0, bytes.size() - 9)).find("buffer.bin"), std::string::npos);
  EXPECT_NE(error_of(bytes.substr(0, 5)).find("cut short"), std::string::npos);
  // An older file (no checksum) whose header claims a trillion positions: refused from the
  // file's size, before anything is allocated.
  std::string legacy;
  auto put = [&](const auto& v) { legacy.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(std::uint64_t{0x3242524741ull});
  put(std::uint32_t{6});
  legacy += "lignes";
  put(static_cast<std::uint32_t>(sizeof(Lignes)));
  put(std::int64_t{1000000000000});
  put(std::uint64_t{1000000000000});
  EXPECT_NE(error_of(legacy).find("claims 1000000000000 items"), std::string::npos)
      << error_of(legacy);
}

TEST(GameRecords, ACheckpointCountsExactlyTheGamesInItsFilesAndAResumeSetsLaterFilesApart) {
  const auto dir = std::filesystem::temp_directory_path() / "azg_records_test";
  std::filesystem::remove_all(dir);
  Rng rng(5);
  const GameRecord record = play_random_game(Lignes{}, rng);
  RecordsState at_checkpoint;
  {
    GameRecordWriter writer(dir.string(), 2);
    for (int i = 0; i < 5; ++i) writer.add(record, 0);  // files 1 and 2, one game pending
    at_checkpoint = writer.flush();                     // file 3
    EXPECT_EQ(at_checkpoint.games, 5);
    EXPECT_EQ(at_checkpoint.next_file, 4);
    for (int i = 0; i < 4; ++i) writer.add(record, 0);  // files 4 and 5: then the run is killed
  }
  GameRecordWriter resumed(dir.string(), 2, at_checkpoint);
  EXPECT_EQ(resumed.moved_files(), 2);
  EXPECT_TRUE(std::filesystem::exists(dir / "uncounted" / "000004.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(dir / "000004.jsonl"));
  resumed.add(record, 0);
  const RecordsState after = resumed.flush();
  EXPECT_EQ(after.games, 6);
  EXPECT_EQ(after.next_file, 5);
  int lines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) ++lines;
  }
  EXPECT_EQ(lines, 6) << "every counted game once, none of the uncounted ones";
}

TEST(SelfPlayFarm, WorkersAndASamplerShareTheBufferAndTheRecordsWithoutLosingAGame) {
  // Two self-play workers on their own threads (as the trainer runs them), a third thread
  // sampling training batches and checkpointing the records meanwhile: every game played
  // is counted once, recorded once and legal. Under tools/check.sh tsan this is the
  // self-play farm's race check.
  using testgames::TicTacToe;
  const auto dir = std::filesystem::temp_directory_path() / "azg_selfplay_farm_test";
  std::filesystem::remove_all(dir);
  TrainConfig config = TrainConfig::defaults();
  config.selfplay_games_per_thread = 4;
  config.selfplay_search.simulations = 8;
  config.selfplay_cheap_simulations = 4;
  config.selfplay_max_lead = 0;
  mcts::UniformEvaluator<TicTacToe> evaluator;
  ReplayBuffer<TicTacToe> buffer(500);
  GameRecordWriter records(dir.string(), 5);
  SelfPlayStats stats;
  std::atomic<std::int64_t> network_step{0};
  std::atomic<bool> stop{false};
  LocalGameSink<TicTacToe> sink(config, buffer, records, network_step);
  std::vector<std::unique_ptr<SelfPlayWorker<TicTacToe>>> workers;
  for (int t = 0; t < 2; ++t)
    workers.push_back(std::make_unique<SelfPlayWorker<TicTacToe>>(config, evaluator, sink, stats,
                                                                  network_step, 100 + t));
  std::vector<std::thread> threads;
  for (auto& w : workers) threads.emplace_back([&stop, worker = w.get()] { worker->run(stop); });
  Rng rng(4);
  nets::RawBatch batch;
  RecordsState last;
  for (int i = 0; i < 200 && stats.games.load() < 60; ++i) {
    if (buffer.size() > 0) buffer.sample(8, rng, SymmetryUse::kAll, {}, batch);
    if (i % 10 == 0) last = records.flush();
    network_step.store(i);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  for (auto& t : threads) t.join();
  const RecordsState end = records.flush();
  EXPECT_GE(end.games, last.games);
  EXPECT_EQ(end.games, stats.games.load()) << "every finished game recorded once";
  EXPECT_GT(end.games, 10);
  EXPECT_EQ(buffer.added(), stats.positions.load());
  std::int64_t lines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line); ++lines) {
      const auto j = nlohmann::json::parse(line);
      const TicTacToe end_state =
          replay(TicTacToe{}, j.at("actions").get<std::vector<std::string>>());
      EXPECT_TRUE(end_state.is_terminal());
      EXPECT_EQ(std::string(outcome_string(end_state.outcome())),
                j.at("result").get<std::string>());
    }
  }
  EXPECT_EQ(lines, end.games);
}

TEST(RunCounters, DamagedStateIsRefusedWithOneLine) {
  RunCounters c;
  c.step = 7;
  c.games = 3;
  c.game_files = 2;
  const RunCounters back = RunCounters::parse(c.to_json().dump(), "state.json");
  EXPECT_EQ(back.step, 7);
  EXPECT_EQ(back.game_files, 2);
  EXPECT_THROW(RunCounters::parse("{\"step\": 1}", "state.json"), Error);
  EXPECT_THROW(RunCounters::parse("not json", "state.json"), Error);
  auto negative = c.to_json();
  negative["games"] = -4;
  EXPECT_THROW(RunCounters::parse(negative.dump(), "state.json"), Error);
  auto wrong_type = c.to_json();
  wrong_type["step"] = "seven";
  EXPECT_THROW(RunCounters::parse(wrong_type.dump(), "state.json"), Error);
}

TEST(ReplayBuffer, OwnershipTargetsFollowTheSampledSymmetryAndThePlayerToAct) {
  // Light frames a4 (a3, a5) and Dark b7 (b6, b8) at the end; the sampled position has
  // Dark to act, so its target is Dark's view of the image of that end.
  Position<Imbriqua> p;
  p.state =
      Imbriqua::from_position(0x1ull << 16, 0x1ull << 40, 12, "O1 D1 ON DN OJ DJ OL DL O2 D2");
  p.final_state = Imbriqua::from_position(board64::bit(16) | board64::bit(32),
                                          board64::bit(41) | board64::bit(57), 12,
                                          "O1 D1 ON DN OJ DJ OL DL O2 D2");
  ASSERT_EQ(p.state.to_act(), Player::kP1);
  ReplayBuffer<Imbriqua> buffer(4);
  buffer.add(p);
  Rng rng(5);
  nets::RawBatch batch;
  buffer.sample(64, rng, SymmetryUse::kAll, {.ownership = true}, batch);
  std::set<std::vector<float>> seen;
  for (int i = 0; i < batch.n; ++i) {
    const std::vector<float> target(batch.ownership.begin() + i * 64,
                                    batch.ownership.begin() + (i + 1) * 64);
    EXPECT_EQ(batch.ownership_weight[i], 1.0f);
    bool matched = false;
    for (int s = 0; s < Imbriqua::kNumSymmetries && !matched; ++s) {
      std::vector<float> planes(Imbriqua::kPlanes.size()), expected(64);
      p.state.symmetric(s).encode(planes);
      if (!std::equal(planes.begin(), planes.end(), batch.planes.begin() + i * planes.size()))
        continue;
      p.final_state->symmetric(s).ownership(Player::kP1, expected);
      matched = target == expected;
    }
    EXPECT_TRUE(matched) << "sample " << i;
    EXPECT_FLOAT_EQ(std::accumulate(target.begin(), target.end(), 0.0f), 0.0f) << "one frame each";
    seen.insert(target);
  }
  EXPECT_GT(seen.size(), 2u) << "several symmetries were sampled";
}

// One azg train per run directory; the lock goes with its holder, so a crash leaves none.
TEST(RunLock, ASecondTrainerOnOneRunDirectoryIsRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "azg_run_lock_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    RunLock first(dir.string());
    try {
      RunLock second(dir.string());
      FAIL() << "two locks on one run directory";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(
          message.find("in use by another azg train (process " + std::to_string(::getpid()) + ")"),
          std::string::npos)
          << message;
    }
  }
  EXPECT_NO_THROW(RunLock again(dir.string())) << "released when its holder ends";
}

// On resume the metrics log is cut back to the checkpoint's lines: each step at most once,
// its counters never going back, a torn last line and an unfinished run's final line gone.
TEST(RunDir, ResumeCutsTheMetricsLogBackToTheCheckpoint) {
  const auto dir = std::filesystem::temp_directory_path() / "azg_metrics_cut_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string kept =
      "{\"type\":\"train\",\"step\":10,\"games\":5}\n"
      "not json: kept as it was\n"
      "{\"type\":\"train\",\"step\":20,\"games\":9}\n"
      "{\"type\":\"eval\",\"step\":20}\n";
  const std::string killed =
      "{\"type\":\"train\",\"step\":30,\"games\":14}\n"
      "{\"type\":\"train\",\"step\":20,\"games\":9}\n"  // even a line that looks older
      "{\"type\":\"train\",\"step\":4";                 // torn by the kill
  const std::string file = (dir / "metrics.jsonl").string();
  auto read = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::ofstream(file, std::ios::binary) << kept << killed;
  const RunDir run(dir.string());
  EXPECT_EQ(run.cut_metrics_after(20), 2);
  EXPECT_EQ(read(), kept);
  EXPECT_EQ(run.cut_metrics_after(20), 0) << "nothing more to cut";
  EXPECT_EQ(read(), kept);

  // A final evaluation's line stays only in a finished run.
  const std::string final_line = "{\"type\":\"final\",\"step\":20,\"games\":20}\n";
  std::ofstream(file, std::ios::binary) << kept << final_line;
  EXPECT_EQ(run.cut_metrics_after(20, false), 0);
  EXPECT_EQ(read(), kept + final_line);
  EXPECT_EQ(run.cut_metrics_after(20, true), 1);
  EXPECT_EQ(read(), kept);

  // A fresh start (no checkpoint) keeps nothing past step 0; no file is no error.
  EXPECT_EQ(run.cut_metrics_after(0), 4) << "everything from the first line past the step on";
  EXPECT_EQ(read(), "");
  std::filesystem::remove(file);
  EXPECT_EQ(run.cut_metrics_after(0), 0);
  EXPECT_FALSE(std::filesystem::exists(file));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace azg::trainer
