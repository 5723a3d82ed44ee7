// Ratings: the Elo fit, the SPRT's error rates, and a small real arena.
#include "play/ratings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "env/common/notation.hpp"
#include "env/lignes/lignes.hpp"
#include "play/arena_run.hpp"

namespace azg::play {
namespace {

TEST(EloFit, RecoversKnownRatingsWithinTheIntervals) {
  // Over 40 seeded tournaments the 95% intervals must cover the true ratings about 95% of
  // the time (at least 88% of 120 checks), and the estimates must be unbiased on average.
  const std::vector<double> truth = {0, 120, -150, 300};
  int covered = 0, checks = 0;
  std::vector<double> mean(4, 0.0);
  for (int trial = 0; trial < 40; ++trial) {
    Rng rng(11 + trial);
    std::vector<PairScore> results;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const double p = elo_to_score(truth[a] - truth[b]);
        PairScore s{a, b, 0, 0};
        for (int g = 0; g < 300; ++g) {
          const double u = rng.uniform();
          s.score_a += u < p - 0.05 ? 1.0 : u < p + 0.05 ? 0.5 : 0.0;  // 10% draws, mean score p
          ++s.games;
        }
        results.push_back(s);
      }
    const EloFit fit = fit_elo(4, results, 0);
    ASSERT_EQ(fit.elo[0], 0.0);
    for (int i = 1; i < 4; ++i) {
      ASSERT_GT(fit.interval[i], 5.0);
      ASSERT_LT(fit.interval[i], 80.0);
      covered += std::abs(fit.elo[i] - truth[i]) <= fit.interval[i];
      ++checks;
      mean[i] += fit.elo[i] / 40;
    }
  }
  EXPECT_GE(covered, checks * 88 / 100) << covered << " of " << checks;
  for (int i = 1; i < 4; ++i) EXPECT_NEAR(mean[i], truth[i], 15.0) << "agent " << i;
}

TEST(EloFit, StaysFiniteWhenAnAgentWinsEverything) {
  const EloFit fit = fit_elo(2, {{0, 1, 10, 10}}, 1);
  EXPECT_TRUE(std::isfinite(fit.elo[0]));
  EXPECT_GT(fit.elo[0], 100);
}

double accept_h1_rate(double true_elo, int trials) {
  int accepted = 0;
  for (int t = 0; t < trials; ++t) {
    Rng rng(1000 + t);
    Sprt sprt(0, 30, 0.05, 0.05);
    const double p = elo_to_score(true_elo);
    while (sprt.decision() == Sprt::Decision::kContinue) sprt.add(rng.uniform() < p ? 1.0 : 0.0);
    accepted += sprt.decision() == Sprt::Decision::kAcceptH1;
  }
  return static_cast<double>(accepted) / trials;
}

TEST(Sprt, KeepsItsErrorRatesOnBernoulliStreams) {
  EXPECT_LE(accept_h1_rate(0, 300), 0.05 + 0.03) << "false positives under H0";
  EXPECT_GE(accept_h1_rate(30, 300), 0.95 - 0.03) << "false negatives under H1";
  EXPECT_GE(accept_h1_rate(80, 100), 0.99) << "a clear improvement is accepted";
}

TEST(Arena, MctsRanksAboveRandom) {
  std::ostringstream out;
  const std::string dir = (std::filesystem::temp_directory_path() / "azg_arena_test").string();
  std::filesystem::remove_all(dir);
  ArenaOptions options;
  options.games = 4;
  options.threads = 2;
  options.seed = 3;
  options.anchor = "random";
  options.out_dir = dir;
  run_arena<Lignes>({"random=random", "mcts=mcts:sims=200"}, options, out);
  std::ifstream in(dir + "/ratings.json");
  const auto j = nlohmann::json::parse(in);
  const double random_elo = j["agents"][0]["elo"], mcts_elo = j["agents"][1]["elo"];
  EXPECT_GT(mcts_elo, random_elo) << out.str();
  // Every record replays to its recorded result.
  std::ifstream records(dir + "/games.jsonl");
  std::string line;
  int n = 0;
  while (std::getline(records, line)) {
    const auto r = nlohmann::json::parse(line);
    const Lignes end = replay(Lignes{}, r["actions"].get<std::vector<std::string>>());
    ASSERT_TRUE(end.is_terminal());
    EXPECT_EQ(std::string(outcome_string(end.outcome())), r["result"].get<std::string>());
    ++n;
  }
  EXPECT_EQ(n, 4);
  EXPECT_TRUE(std::filesystem::exists(dir + "/ratings.svg"));
}

}  // namespace
}  // namespace azg::play
