// The training run's roles on their own: the run store, the evaluation gate and the
// metrics log, each driven without a game loop (azg train's end-to-end runs are in
// cli_test.sh and the crash and resume tests).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "env/lignes/lignes.hpp"
#include "trainer/evaluation_gate.hpp"
#include "trainer/metrics_log.hpp"
#include "trainer/model_meta.hpp"
#include "trainer/run_store.hpp"

namespace azg::trainer {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("azg_run_roles_" + name);
  fs::remove_all(dir);
  return dir.string();
}

TrainConfig small_config() {
  TrainConfig c = TrainConfig::defaults();
  c.game = "lignes";
  c.net_blocks = 1;
  c.net_channels = 8;
  c.net_value_hidden = 8;
  return c;
}

nets::ModelMeta small_meta(const TrainConfig& c) {
  return model_meta<Lignes>(c);
}

std::vector<nlohmann::json> metrics_lines(const std::string& dir) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(dir + "/metrics.jsonl");
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST(RunStore, ANewRunWritesItsSetsAndAResumedOneReadsThemBack) {
  const TrainConfig config = small_config();
  const std::string dir = fresh_dir("store");
  std::ostringstream out;
  {
    RunStore store(config, dir, out, small_meta(config), nullptr);
    const RunStore::Opened opened = store.open(nets::OptimConfig{});
    EXPECT_TRUE(opened.fresh);
    EXPECT_TRUE(opened.resume_set.empty());
    store.counters().step = 7;
    store.counters().best_model = "models/step-00000007.pt";
    const std::string set = store.begin_set(1234);
    EXPECT_TRUE(fs::exists(set + "/model.ckpt"));
    std::ofstream(set + "/buffer.bin") << "the game's part";
    EXPECT_FALSE(fs::exists(dir + "/checkpoints/LATEST"));  // not the run's until committed
    store.commit_set();
    EXPECT_EQ(store.dir().latest_set(), set);
  }
  RunStore resumed(config, dir, out, small_meta(config), nullptr);
  const RunStore::Opened opened = resumed.open(nets::OptimConfig{});
  EXPECT_FALSE(opened.fresh);
  EXPECT_EQ(fs::path(opened.resume_set).filename(), "step-00000007");
  EXPECT_EQ(resumed.counters().step, 7);
  EXPECT_EQ(resumed.counters().positions, 1234);
  EXPECT_EQ(resumed.counters().best_model, "models/step-00000007.pt");
  resumed.announce(opened, 99);
  EXPECT_NE(out.str().find("resuming " + dir + " at step 7 (0 games, 99 positions"),
            std::string::npos)
      << out.str();
}

TEST(RunStore, ARunIsOpenedByOneProcessAndWithItsOwnConfigurationOnly) {
  TrainConfig config = small_config();
  const std::string dir = fresh_dir("store_refusals");
  std::ostringstream out;
  {
    RunStore store(config, dir, out, small_meta(config), nullptr);
    store.open(nets::OptimConfig{});
    store.begin_set(0);
    store.commit_set();
    RunStore second(config, dir, out, small_meta(config), nullptr);
    EXPECT_THROW(second.open(nets::OptimConfig{}), Error);  // the lock is held
  }
  config.train_batch_size += 1;
  RunStore other(config, dir, out, small_meta(config), nullptr);
  try {
    other.open(nets::OptimConfig{});
    FAIL() << "another configuration resumed the run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another configuration"), std::string::npos) << e.what();
  }
}

// Matches with scores set by the test, counting what the gate asks for.
class ScriptedMatches final : public ModelMatches {
 public:
  double vs_previous = 0.5;
  int matches = 0, uct_matches = 0;
  play::Score match(Model, Model, int, int games, std::uint64_t) override {
    ++matches;
    return score(vs_previous, games);
  }
  play::SprtMatch sprt(Model, Model, int, play::Sprt&, int, std::uint64_t) override {
    ADD_FAILURE() << "the fixed gate played an SPRT";
    return {};
  }
  play::Score vs_uct(Model, int, int games, int, std::uint64_t) override {
    ++uct_matches;
    return score(0.25, games);
  }
  play::Score vs_random(Model, int, int games, int, std::uint64_t) override {
    return score(1.0, games);
  }

 private:
  static play::Score score(double rate, int games) {
    play::Score s;
    const int wins = static_cast<int>(rate * games + 0.5);
    for (int i = 0; i < games; ++i) s.add(i < wins ? 1.0 : 0.0);
    return s;
  }
};

TEST(EvaluationGate, TheNetworkBecomesBestWhenItHoldsItsOwnAgainstThePreviousExport) {
  TrainConfig config = small_config();
  config.eval_games = 4;
  config.eval_final_games = 4;
  const std::string dir = fresh_dir("gate");
  std::ostringstream out;
  RunStore store(config, dir, out, small_meta(config), nullptr);
  store.open(nets::OptimConfig{});
  EvaluationGate gate(config, store.dir(), out);
  ScriptedMatches matches;
  RunCounters& counters = store.counters();

  counters.step = 10;  // the first export has nothing to beat
  gate.evaluate(store.session(), store.meta(), counters, matches);
  EXPECT_EQ(counters.best_model, "models/step-00000010.pt");
  EXPECT_EQ(matches.matches, 0);
  counters.step = 20;
  matches.vs_previous = 0.25;  // loses to the previous export: kept out
  gate.evaluate(store.session(), store.meta(), counters, matches);
  EXPECT_EQ(counters.best_model, "models/step-00000010.pt");
  EXPECT_EQ(counters.previous_model, "models/step-00000020.pt");
  counters.step = 30;
  matches.vs_previous = 0.5;  // level with it: promoted
  gate.evaluate(store.session(), store.meta(), counters, matches);
  EXPECT_EQ(counters.best_model, "models/step-00000030.pt");
  EXPECT_EQ(matches.matches, 2);
  EXPECT_EQ(matches.uct_matches, 3);
  EXPECT_TRUE(fs::exists(dir + "/models/best.pt"));

  const TrainReport report = gate.finish(store.session(), store.meta(), 30, 0.4, matches);
  EXPECT_TRUE(fs::exists(report.final_model));
  EXPECT_DOUBLE_EQ(report.vs_random.rate(), 1.0);
  const auto lines = metrics_lines(dir);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1].at("vs_previous"), 0.25);
  EXPECT_EQ(lines[3].at("type"), "final");
  EXPECT_EQ(lines[3].at("vs_uct"), 0.25);
}

TEST(MetricsLog, TheDecisiveShareCountsTheGamesSinceTheLastLineOnly) {
  const TrainConfig config = small_config();
  const std::string dir = fresh_dir("metrics");
  fs::create_directories(dir);
  const RunDir run_dir(dir);
  std::ostringstream out;
  MetricsLog log(config, run_dir, out, /*terminal=*/false);
  RunSnapshot s;
  s.seconds = 10;
  s.selfplay.games = 40;  // a resumed run: its earlier games were counted, not their wins
  log.begin(s.selfplay);
  s.step = 25;
  s.selfplay.games = 50;
  s.selfplay.decisive = 6;
  s.selfplay.archive_starts = 4;
  s.selfplay.archive_decisive = 3;
  log.log(s);
  s.step = 50;
  log.log(s);  // no game finished since the last line
  s.step = 75;
  s.selfplay.games = 54;
  s.selfplay.decisive = 7;
  log.log(s);
  const auto lines = metrics_lines(dir);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_DOUBLE_EQ(lines[0].at("decisive_share").get<double>(), 0.6);
  EXPECT_EQ(lines[0].at("archive_decisive"), 3);
  EXPECT_TRUE(lines[1].at("decisive_share").is_null());
  EXPECT_DOUBLE_EQ(lines[2].at("decisive_share").get<double>(), 0.25);
  EXPECT_NE(out.str().find("decisive 60%"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace azg::trainer
