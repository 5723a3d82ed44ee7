// The play layer: the UCT ladder (rungs, calibration kept and reused, shared luck per
// rung, files written), run models on the clock, and rollout-mixed leaf values.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "env/lignes/lignes.hpp"
#include "mcts/evaluator.hpp"
#include "play/ladder_report.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::play {
namespace {

std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(Ladder, RungsIncreaseAndIncludeTheAnchor) {
  EXPECT_EQ(parse_rungs("100,400,1600,6400"), (std::vector<int>{100, 400, 1600, 6400}));
  EXPECT_EQ(parse_rungs("400"), (std::vector<int>{400}));
  EXPECT_THROW(parse_rungs("100,1600"), Error);  // no UCT-400
  EXPECT_THROW(parse_rungs("400,100"), Error);
  EXPECT_THROW(parse_rungs("0,400"), Error);
  EXPECT_THROW(parse_rungs("100,4x0"), Error);
  EXPECT_THROW(parse_rungs(""), Error);
}

TEST(Ladder, PlacesAgentsOnTheUct400ScaleAndKeepsTheCalibration) {
  const std::string dir = fresh_dir("azg_ladder_test");
  LadderOptions options;
  options.rungs = {10, 400};
  options.games = 2;
  options.threads = 2;
  options.calibration_file = dir + "/calibration.json";
  // Two copies of one agent: with one luck key per rung they replay the same games.
  const std::vector<NamedAgent> agents{{"a", mcts::parse_agent_spec("mcts:sims=60")},
                                       {"b", mcts::parse_agent_spec("mcts:sims=60")}};
  const LadderResult first = run_ladder<Lignes>(agents, options);
  ASSERT_EQ(first.names, (std::vector<std::string>{"UCT-10", "UCT-400", "a", "b"}));
  EXPECT_EQ(first.anchor, 1);
  EXPECT_EQ(first.fit.elo[1], 0.0);
  for (int r = 0; r < 2; ++r) {
    const PairingResult* a = first.against(2, r);
    const PairingResult* b = first.against(3, r);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->games, 2);
    EXPECT_EQ(a->points, b->points) << "same luck, same agent, same result against rung " << r;
  }
  EXPECT_NEAR(first.fit.elo[2], first.fit.elo[3], 1e-6);
  ASSERT_TRUE(std::filesystem::exists(options.calibration_file));
  EXPECT_TRUE(first.calibration_error.empty());

  // A second ladder reads the rung pairing back instead of replaying it.
  const LadderResult second = run_ladder<Lignes>({agents[0]}, options);
  const PairingResult* rungs = second.against(0, 1);
  ASSERT_TRUE(rungs);
  EXPECT_TRUE(rungs->cached);
  EXPECT_EQ(rungs->points, first.against(0, 1)->points);
  std::ostringstream out;
  print_ladder(second, out);
  EXPECT_NE(out.str().find("from " + options.calibration_file), std::string::npos) << out.str();

  write_ladder(second, dir + "/out");
  std::ifstream in(dir + "/out/ladder.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["anchor"], "UCT-400");
  EXPECT_EQ(j["agents"][2]["name"], "a");
  EXPECT_EQ(j["agents"][2]["against"]["UCT-400"]["games"], 2);
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/ladder.svg"));
}

TEST(Ladder, ADamagedCalibrationIsReplayedNotTrusted) {
  const std::string dir = fresh_dir("azg_ladder_damaged");
  std::ofstream(dir + "/calibration.json") << "{\"pairings\": [ {\"key\": 3";
  LadderCalibration calibration(dir + "/calibration.json");
  EXPECT_EQ(calibration.find("UCT-10", "UCT-400", 2, 1), nullptr);
  calibration.store("UCT-10", "UCT-400", 2, 1, 0.5);
  EXPECT_EQ(calibration.save(), "");
  EXPECT_EQ(LadderCalibration(dir + "/calibration.json").find("UCT-10", "UCT-400", 2, 1)->points, 0.5);
  EXPECT_EQ(LadderCalibration(dir + "/calibration.json").find("UCT-10", "UCT-400", 2, 2), nullptr) << "seed is keyed";
}

TEST(LadderReport, ModelsGetTheirMinutesAndGamesFromTheMetrics) {
  const std::string dir = fresh_dir("azg_ladder_report");
  std::filesystem::create_directories(dir + "/models");
  for (int step : {1000, 2000, 3000, 4000}) {
    char name[64];
    std::snprintf(name, sizeof name, "/models/step-%08d.pt", step);
    std::ofstream(dir + name) << "x";
  }
  std::ofstream metrics(dir + "/metrics.jsonl");
  for (int step = 500; step <= 4000; step += 500)
    metrics << nlohmann::json{{"type", "train"}, {"step", step}, {"elapsed_s", step * 0.06}, {"games", step / 10}}.dump()
            << "\n";
  metrics << "{\"type\": \"train\", \"st";  // a torn last line
  metrics.close();
  const auto all = run_models_on_clock(dir, 0);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].step, 2000);
  EXPECT_NEAR(all[1].minutes, 2.0, 1e-9);
  EXPECT_EQ(all[1].games, 200);
  const auto two = run_models_on_clock(dir, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].step, 2000);
  EXPECT_EQ(two[1].step, 4000) << "the last model is always kept";
  EXPECT_THROW(run_models_on_clock(fresh_dir("azg_ladder_empty"), 0), Error);
}

TEST(RolloutMix, BlendsTheInnerValueWithOnePlayout) {
  using testgames::TicTacToe;
  TicTacToe s;
  for (const char* m : {"a1", "b1", "a2", "b2"}) s.apply(*s.parse_action(m));  // X to play, a3 wins
  ActionListFor<TicTacToe> actions;
  s.legal_actions(actions);
  mcts::UniformEvaluator<TicTacToe> zero;
  for (float lambda : {0.0f, 0.5f, 1.0f}) {
    mcts::EvalBatch<TicTacToe> batch;
    batch.clear();
    for (std::uint64_t seed = 0; seed < 16; ++seed) batch.add(s, actions, seed);
    mcts::RolloutMixEvaluator<TicTacToe> mixed(zero, lambda);
    mixed.evaluate(batch);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const float rollout = mcts::rollout_value(s, batch.seed(i) ^ 0x5bd1e995u);
      EXPECT_FLOAT_EQ(batch.value(i), lambda * rollout);
      EXPECT_FLOAT_EQ(batch.priors(i)[0], 1.0f / static_cast<float>(actions.size()));
    }
  }
}

}  // namespace
}  // namespace azg::play
