// The play layer: the UCT ladder (rungs, calibration kept and reused, shared luck per
// rung, files written), run models on the clock, and rollout-mixed leaf values.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "env/connect4/connect4.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "mcts/evaluator.hpp"
#include "play/accuracy.hpp"
#include "play/agents.hpp"
#include "play/game_record_reader.hpp"
#include "play/ladder_report.hpp"
#include "play/paired_games.hpp"
#include "play/progress.hpp"
#include "play/session.hpp"
#include "play/sprt_match.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::play {
namespace {
using testgames::TicTacToe;

std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// parse_rungs's one-line error for `text`, or "no error".
std::string rungs_error(const std::string& text) {
  try {
    parse_rungs(text);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

std::vector<std::string> rung_names(const std::vector<Rung>& rungs) {
  std::vector<std::string> names;
  for (const Rung& r : rungs) names.push_back(r.name);
  return names;
}

TEST(Ladder, RungsIncreaseAndIncludeTheAnchor) {
  EXPECT_EQ(rung_names(parse_rungs("100,400,1600,6400")),
            (std::vector<std::string>{"UCT-100", "UCT-400", "UCT-1600", "UCT-6400"}));
  EXPECT_EQ(parse_rungs("100,400,1600,6400"), parse_rungs("uct:100,400,1600,6400"))
      << "a plain list is UCT";
  EXPECT_EQ(parse_rungs("uct:100,400,1600,6400"), parse_rungs(default_ladder("imbriqua").rungs));
  EXPECT_EQ(rung_names(parse_rungs("400")), (std::vector<std::string>{"UCT-400"}));
  EXPECT_THROW(parse_rungs("100,1600"), Error);  // no UCT-400
  EXPECT_THROW(parse_rungs("400,100"), Error);
  EXPECT_THROW(parse_rungs("0,400"), Error);
  EXPECT_THROW(parse_rungs("100,4x0"), Error);
  EXPECT_THROW(parse_rungs(""), Error);
}

TEST(Ladder, RungsOfEveryFamily) {
  const auto rungs = parse_rungs("uct:100,400 ab:1,2,3 heur:400,1600 ept:400");
  EXPECT_EQ(rung_names(rungs),
            (std::vector<std::string>{"UCT-100", "UCT-400", "AB-1", "AB-2", "AB-3", "HEUR-400",
                                      "HEUR-1600", "EPT-400"}));
  EXPECT_EQ(rungs[2].spec, "ab:depth=1");
  EXPECT_EQ(rungs[5].spec, "mcts:sims=400,evaluator=heuristic");
  EXPECT_EQ(rungs[7].spec, "mcts:sims=400,evaluator=ept,playout_turns=4");
  EXPECT_EQ(rungs[1].luck_key, 400u)
      << "UCT rungs keep their luck, so earlier calibrations still hold";
  std::set<std::uint64_t> keys;
  for (const Rung& r : rungs) keys.insert(r.luck_key);
  EXPECT_EQ(keys.size(), rungs.size()) << "each rung its own luck";
  EXPECT_EQ(rungs_error("ab:1,2 heur:400"),
            "--rungs must include UCT-400 (the scale's zero), got 'ab:1,2 heur:400'");
  EXPECT_EQ(rungs_error("uct:400 magic:3"),
            "--rungs: unknown family 'magic' (known: uct, heur, ept, ab, model)");
  EXPECT_EQ(rungs_error("uct:400 ab:65"), "--rungs: '65' is not a depth in 1..64 for ab");
  EXPECT_EQ(rungs_error("uct:400 ab:3,2"),
            "--rungs: the sizes of a family must increase, got 'ab:3,2'");
  EXPECT_EQ(rungs_error("uct:400 uct:400"), "--rungs: UCT-400 appears twice in 'uct:400 uct:400'");
  EXPECT_EQ(rungs_error("uct:400 ab:"), "--rungs: 'ab:' has no sizes");
}

TEST(Ladder, EachGameHasItsOwnLadderWithOpeningsWhereThereIsNoChance) {
  for (const std::string game : {"imbriqua", "truchet", "imperator", "lignes", "intercept"}) {
    const GameLadder own = default_ladder(game);
    const auto rungs = parse_rungs(own.rungs);
    EXPECT_GE(rungs.size(), 3u) << game;
    // Alpha-beta is deterministic: without chance or a random setup it needs random openings.
    const bool deterministic_rungs = own.rungs.find("ab:") != std::string::npos;
    const bool has_luck = game == "imbriqua" || game == "truchet";
    if (deterministic_rungs && !has_luck) {
      EXPECT_GT(own.opening_plies, 0) << game;
    }
  }
  EXPECT_EQ(default_ladder("no-such-game").rungs, "uct:100,400,1600,6400");
}

TEST(Ladder, ModelRungsAreFrozenFilesKeyedByTheirChecksum) {
  const std::string dir = fresh_dir("azg_ladder_models");
  std::ofstream(dir + "/frozen.pt") << "first bytes";
  const auto rungs = parse_rungs("uct:400 model:" + dir + "/frozen.pt@50," + dir + "/frozen.pt");
  ASSERT_EQ(rung_names(rungs), (std::vector<std::string>{"UCT-400", "frozen@50", "frozen@100"}));
  EXPECT_EQ(rungs[1].spec, "az:model=" + dir + "/frozen.pt,sims=50");
  EXPECT_EQ(rungs[0].identity, "UCT-400");
  EXPECT_NE(rungs[1].luck_key, rungs[2].luck_key);
  std::ofstream(dir + "/frozen.pt") << "other bytes";
  const auto replaced = parse_rungs("uct:400 model:" + dir + "/frozen.pt@50");
  EXPECT_EQ(replaced[1].name, rungs[1].name);
  EXPECT_NE(replaced[1].identity, rungs[1].identity)
      << "a replaced file must not reuse the old file's results";
  EXPECT_EQ(rungs_error("uct:400 model:no-such-model"),
            "model rung 'no-such-model': no models/ladder/no-such-model.pt in the current folder "
            "or the source tree "
            "azg was built from");
  EXPECT_EQ(
      rungs_error("uct:400 model:" + dir + "/frozen.pt@0"),
      "--rungs: '" + dir + "/frozen.pt@0' is not NAME@SIMS with SIMS in 1..1000000 for model");
  EXPECT_EQ(rungs_error("uct:400 model:" + dir + "/gone.pt"),
            "model rung '" + dir + "/gone.pt': no such file");
}

// Three quick rungs, every one against every other, two games a pairing.
LadderOptions small_round_robin(const std::string& dir) {
  LadderOptions options;
  options.rungs = parse_rungs("uct:5,400 ab:1");
  options.games = 2;
  options.threads = 2;
  options.round_robin = true;
  options.opening_plies = 2;
  options.calibration_file = dir + "/calibration.json";
  return options;
}

TEST(Ladder, ARoundRobinPlaysEveryRungPairAndKeysItsOpenings) {
  EXPECT_EQ(rung_pairings(3, false), (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
  EXPECT_EQ(rung_pairings(3, true), (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}}));
  LadderOptions options = small_round_robin(fresh_dir("azg_ladder_round_robin"));
  const LadderResult first = run_ladder<Lignes>({}, options);
  ASSERT_EQ(first.names, (std::vector<std::string>{"UCT-5", "UCT-400", "AB-1"}));
  ASSERT_EQ(first.pairings.size(), 3u);
  EXPECT_TRUE(first.against(0, 2)) << "non-neighbours meet in a round-robin";
  for (const auto& p : first.pairings) EXPECT_FALSE(p.cached);
  const LadderResult again = run_ladder<Lignes>({}, options);
  for (const auto& p : again.pairings) EXPECT_TRUE(p.cached);
  options.opening_plies = 3;
  for (const auto& p : run_ladder<Lignes>({}, options).pairings)
    EXPECT_FALSE(p.cached) << "other openings are other games";
}

TEST(Ladder, PlacesAgentsOnTheUct400ScaleAndKeepsTheCalibration) {
  const std::string dir = fresh_dir("azg_ladder_test");
  LadderOptions options;
  options.rungs = parse_rungs("10,400");
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

TEST(Ladder, EachRungPairingIsSavedAsItEnds) {
  // A round-robin runs for hours: one stopped halfway must keep the pairings it finished.
  LadderOptions options = small_round_robin(fresh_dir("azg_ladder_saved_as_it_ends"));
  std::vector<std::size_t> saved_when;  // pairings in the file at each game's end
  std::vector<std::size_t> totals;
  options.on_game = [&](std::size_t, std::size_t total) {
    std::size_t saved = 0;
    for (const auto& [a, b] : rung_pairings(3, true))
      saved += LadderCalibration(options.calibration_file)
                   .find(options.rungs[a].identity, options.rungs[b].identity, 2, 1, 2) != nullptr;
    saved_when.push_back(saved);
    totals.push_back(total);
  };
  const LadderResult result = run_ladder<Lignes>({}, options);
  EXPECT_EQ(saved_when, (std::vector<std::size_t>{0, 0, 1, 1, 2, 2}))
      << "each pairing is in the file before the next one ends";
  EXPECT_EQ(result.pairings.back().a, 0);
  EXPECT_EQ(result.pairings.back().b, 2) << "neighbours first, the round-robin's far pairing last";
  EXPECT_EQ(totals, std::vector<std::size_t>(6, 6)) << "progress counts the whole ladder";
  EXPECT_TRUE(result.calibration_error.empty());
  for (const auto& p : run_ladder<Lignes>({}, options).pairings) EXPECT_TRUE(p.cached);
}

TEST(Ladder, EveryPairingIsToldAsItEndsAgentsToo) {
  // A stopped ladder keeps only its rung pairings in the file: its agent pairings must
  // reach the log as they end, one at a time.
  LadderOptions options = small_round_robin(fresh_dir("azg_ladder_told_as_it_ends"));
  std::size_t games_done = 0;
  options.on_game = [&](std::size_t done, std::size_t) { games_done = done; };
  struct Told {
    std::string a, b;
    double points;
    int games;
    std::size_t games_done;
  };
  std::vector<Told> told;
  options.on_pairing = [&](const std::string& a, const std::string& b, double points, int games) {
    told.push_back({a, b, points, games, games_done});
  };
  const LadderResult result =
      run_ladder<Lignes>({{"x", mcts::parse_agent_spec("mcts:sims=20")}}, options);
  ASSERT_EQ(told.size(), 6u) << "three rung pairings, then x against each of three rungs";
  for (std::size_t i = 0; i < told.size(); ++i) {
    EXPECT_EQ(told[i].games, 2);
    EXPECT_EQ(told[i].games_done, 2 * (i + 1)) << "told as it ends, before the next one plays";
    const PairingResult* p = result.against(result.index_of(told[i].a), result.index_of(told[i].b));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->a == result.index_of(told[i].a) ? p->points : p->games - p->points,
              told[i].points);
  }
  EXPECT_EQ(told[3].a, "x");
  EXPECT_EQ(told[5].b, "AB-1");
  EXPECT_EQ(pairing_score_text(32.5, 200), "32.5 of 200 points (16.2%)");
  EXPECT_EQ(pairing_score_text(7, 8), "7 of 8 points (87.5%)");
}

TEST(Ladder, MoreGamesExtendAShorterPairingInsteadOfReplayingIt) {
  // 400 games a pairing after a 200-game round-robin: the first 200 are the same games, so
  // only the other 200 are played, and the score is that of the whole pairing played at once.
  LadderOptions whole = small_round_robin(fresh_dir("azg_ladder_whole"));
  whole.games = 4;
  const LadderResult at_once = run_ladder<Lignes>({}, whole);

  LadderOptions options = small_round_robin(fresh_dir("azg_ladder_extended"));
  run_ladder<Lignes>({}, options);  // 2 games a pairing, saved
  options.games = 4;
  std::size_t played = 0, total = 0;
  options.on_game = [&](std::size_t done, std::size_t all) {
    played = done;
    total = all;
  };
  const LadderResult extended = run_ladder<Lignes>({}, options);
  EXPECT_EQ(total, 6u) << "2 more games for each of 3 pairings, not 4";
  EXPECT_EQ(played, 6u);
  ASSERT_EQ(extended.pairings.size(), 3u);
  for (const auto& p : extended.pairings) {
    EXPECT_FALSE(p.cached);
    EXPECT_EQ(p.earlier_games, 2);
    EXPECT_EQ(p.games, 4);
    const PairingResult* same = at_once.against(p.a, p.b);
    ASSERT_TRUE(same);
    EXPECT_EQ(p.points, same->a == p.a ? same->points : same->games - same->points)
        << "games 0-1 from the file and 2-3 played now are the 4 games played at once";
  }
  std::ostringstream out;
  print_ladder(extended, out);
  EXPECT_NE(out.str().find("3 pairing(s) extended"), std::string::npos) << out.str();
  for (const auto& p : run_ladder<Lignes>({}, options).pairings)
    EXPECT_TRUE(p.cached) << "the 4-game pairings are saved too";
  const auto randoms = factories_of<Lignes>(
      {{"a", mcts::parse_agent_spec("random")}, {"b", mcts::parse_agent_spec("random")}});
  EXPECT_THROW(play_pairs<Lignes>(randoms, {{0, 1}}, 2, 1, 1, {}, 0, {}, 1), Error)
      << "a pairing's games come in couples: it goes on from an even game";
}

TEST(Ladder, AgentsMayBePlacedOnFewerGamesThanTheRungsTable) {
  // Rungs at 4 games a pairing (from the file), the agent at 2 a rung: the fit reads each
  // pairing at its own length, and the agent plays the games of a 2-game ladder.
  const std::vector<NamedAgent> x{{"x", mcts::parse_agent_spec("mcts:sims=20")}};
  const LadderResult two = run_ladder<Lignes>(x, small_round_robin(fresh_dir("azg_ladder_two")));
  LadderOptions options = small_round_robin(fresh_dir("azg_ladder_agent_games"));
  options.games = 4;
  run_ladder<Lignes>({}, options);  // the rungs' 4-game table, saved
  options.agent_games = 1;          // rounded up to a couple
  std::size_t total = 0;
  options.on_game = [&](std::size_t, std::size_t all) { total = all; };
  const LadderResult placed = run_ladder<Lignes>(x, options);
  EXPECT_EQ(placed.agent_games, 2);
  EXPECT_EQ(total, 6u) << "rung pairings from the file; 2 games against each of 3 rungs";
  const int agent = placed.index_of("x");
  for (int r = 0; r < placed.rungs; ++r) {
    for (int s = r + 1; s < placed.rungs; ++s) EXPECT_EQ(placed.against(r, s)->games, 4);
    const PairingResult* p = placed.against(agent, r);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->games, 2);
    EXPECT_EQ(p->points, two.against(agent, r)->points) << "the 2-game ladder's games";
  }
  std::ostringstream out;
  print_ladder(placed, out);
  EXPECT_NE(out.str().find("4 paired games per pairing, 2 per agent pairing"), std::string::npos)
      << out.str();
  const std::string dir = fresh_dir("azg_ladder_agent_games_out");
  write_ladder(placed, dir);
  std::ifstream in(dir + "/ladder.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["games_per_pairing"], 4);
  EXPECT_EQ(j["games_per_agent_pairing"], 2);
  options.agent_games = -1;
  EXPECT_THROW(run_ladder<Lignes>(x, options), Error);
}

TEST(Ladder, ADamagedCalibrationIsReplayedNotTrusted) {
  const std::string dir = fresh_dir("azg_ladder_damaged");
  std::ofstream(dir + "/calibration.json") << "{\"pairings\": [ {\"key\": 3";
  LadderCalibration calibration(dir + "/calibration.json");
  EXPECT_EQ(calibration.find("UCT-10", "UCT-400", 2, 1), nullptr);
  calibration.store("UCT-10", "UCT-400", 2, 1, 0.5);
  EXPECT_EQ(calibration.save(), "");
  EXPECT_EQ(LadderCalibration(dir + "/calibration.json").find("UCT-10", "UCT-400", 2, 1)->points,
            0.5);
  EXPECT_EQ(LadderCalibration(dir + "/calibration.json").find("UCT-10", "UCT-400", 2, 2), nullptr)
      << "seed is keyed";
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
    metrics << nlohmann::json{{"type", "train"},
                              {"step", step},
                              {"elapsed_s", step * 0.06},
                              {"games", step / 10}}
                   .dump()
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

// A log written before resumes cut it back holds the killed run's lines past its last
// checkpoint, then the resumed run's lines for the same steps: the resumed ones count.
TEST(LadderReport, ALogThatWentBackIsReadByItsLaterLines) {
  const std::string dir = fresh_dir("azg_ladder_report_saw");
  std::filesystem::create_directories(dir + "/models");
  std::ofstream(dir + "/models/step-00002000.pt") << "x";
  std::ofstream metrics(dir + "/metrics.jsonl");
  for (const auto& [step, seconds, games] : std::vector<std::tuple<int, double, int>>{
           {1000, 60, 100},
           {2000, 120, 200},
           {2500, 150, 250},  // killed after its checkpoint at 1,000
           {1500, 95, 140},
           {2000, 130, 190},
           {2500, 160, 240}})  // the resumed run
    metrics << nlohmann::json{{"type", "train"},
                              {"step", step},
                              {"elapsed_s", seconds},
                              {"games", games}}
                   .dump()
            << "\n";
  metrics.close();
  const auto models = run_models_on_clock(dir, 0);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_NEAR(models[0].minutes, 130 / 60.0, 1e-9);
  EXPECT_EQ(models[0].games, 190);
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

// FNV-1a over every game's agents, setup, actions and outcome: a fingerprint of a match.
std::uint64_t fingerprint(const std::vector<PairedGame>& games) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  for (const auto& g : games) {
    mix(std::to_string(g.first) + "/" + std::to_string(g.second) + "/" + g.record.setup);
    for (const auto& a : g.record.actions) mix(a);
    mix(std::string(outcome_string(g.record.outcome)));
  }
  return h;
}

// The arena's seeding rule is part of its contract: the same seed replays the same games,
// release after release. The constant was taken before the match loops were merged.
TEST(PairedGames, TheArenaKeepsItsResultsOnTheSameSeeds) {
  const std::vector<NamedAgent> agents{{"uct", mcts::parse_agent_spec("mcts:sims=24")},
                                       {"rnd", mcts::parse_agent_spec("random")},
                                       {"uct2", mcts::parse_agent_spec("mcts:sims=8,cpuct=1")}};
  const std::vector<std::pair<int, int>> pairs{{0, 1}, {0, 2}, {1, 2}};
  const auto one = play_pairs<Imbriqua>(agents, pairs, 4, 1, 11);
  const auto two = play_pairs<Imbriqua>(agents, pairs, 4, 2, 11);
  ASSERT_EQ(one.size(), 12u);
  EXPECT_EQ(fingerprint(one), fingerprint(two)) << "the thread count must not change the games";
  EXPECT_EQ(fingerprint(one), 2287609695793835488ull) << "the arena's games on seed 11 changed";
}

TEST(PairedGames, ScoresCountEachSideAndTheTallyMirrorsThem) {
  Score s;
  for (double p : {1.0, 0.5, 0.0, 1.0}) s.add(p);
  EXPECT_EQ(s.wins, 2);
  EXPECT_EQ(s.draws, 1);
  EXPECT_EQ(s.losses, 1);
  EXPECT_DOUBLE_EQ(s.rate(), 2.5 / 4);
  PairedGame g;
  g.first = 1;
  g.second = 0;
  g.record.outcome = Outcome::kP0Win;
  EXPECT_EQ(g.points_of(1), 1.0);
  EXPECT_EQ(g.points_of(0), 0.0);
  const Tally t(2, {g, g});
  EXPECT_EQ(t.against[1][0].wins, 2);
  EXPECT_EQ(t.against[0][1].losses, 2);
  EXPECT_EQ(t.total(0).games(), 2);
}

TEST(PairedGames, AMatchScoreIsTheFirstAgentsAndIndependentOfThreads) {
  const auto strong = uct_agent<TicTacToe>(uct_search(200));
  const Score one = match_score<TicTacToe>(strong, random_agent<TicTacToe>(), 7, 1, 3);
  EXPECT_EQ(one.games(), 8) << "rounded up to colour-swapped couples";
  EXPECT_GT(one.rate(), 0.8);
  const Score two = match_score<TicTacToe>(strong, random_agent<TicTacToe>(), 7, 2, 3);
  EXPECT_EQ(one.wins, two.wins);
  EXPECT_EQ(one.draws, two.draws);
}

// Always its first legal action: as deterministic as a network at temperature 0.
template <Game G>
AgentFactory<G> first_action_agent() {
  struct First final : mcts::Agent<G> {
    Action act(const G& state) override {
      ActionListFor<G> actions;
      state.legal_actions(actions);
      return actions[0];
    }
    std::string name() const override { return "first"; }
  };
  return [](std::uint64_t) -> std::unique_ptr<mcts::Agent<G>> { return std::make_unique<First>(); };
}

// Lignes has no chance, so two deterministic agents replay one couple's games in every
// couple; random opening plies shared by the couple give each couple its own games.
TEST(PairedGames, OpeningPliesGiveDeterministicAgentsDistinctGames) {
  const std::vector<AgentFactory<Lignes>> agents{first_action_agent<Lignes>(),
                                                 first_action_agent<Lignes>()};
  auto distinct = [](const std::vector<PairedGame>& games) {
    std::set<std::vector<std::string>> seen;
    for (const auto& g : games) seen.insert(g.record.actions);
    return seen.size();
  };
  EXPECT_EQ(distinct(play_pairs<Lignes>(agents, {{0, 1}}, 12, 1, 5)), 1u);
  const auto opened = play_pairs<Lignes>(agents, {{0, 1}}, 12, 2, 5, {}, 3);
  std::set<std::vector<std::string>> openings;
  for (std::size_t k = 0; k + 1 < opened.size(); k += 2) {
    const auto& a = opened[k].record.actions;
    const auto& b = opened[k + 1].record.actions;
    ASSERT_GE(a.size(), 3u);
    EXPECT_TRUE(std::equal(a.begin(), a.begin() + 3, b.begin())) << "a couple shares its opening";
    openings.insert({a.begin(), a.begin() + 3});
  }
  EXPECT_GE(openings.size(), 4u) << "six couples draw their openings at random";
  EXPECT_EQ(distinct(opened), openings.size())
      << "one game per opening (both sides play alike here)";
  EXPECT_EQ(fingerprint(opened), fingerprint(play_pairs<Lignes>(agents, {{0, 1}}, 12, 1, 5, {}, 3)))
      << "the same seed replays the same openings";
  EXPECT_THROW(play_pairs<Lignes>(agents, {{0, 1}}, 2, 1, 5, {}, -1), Error);
}

// Long matches say how far they are: every finished game is heard once, from two threads,
// in order, and the progress line ends on the total with no time left to announce.
TEST(PairedGames, EveryFinishedGameIsHeardOnceAndTheLastProgressLineSaysTheTotal) {
  const std::vector<AgentFactory<Lignes>> agents{random_agent<Lignes>(),
                                                 first_action_agent<Lignes>()};
  std::vector<std::size_t> heard;
  std::size_t total = 0;
  play_pairs<Lignes>(agents, {{0, 1}, {1, 0}}, 6, 2, 3, {}, 0,
                     [&](std::size_t done, std::size_t all) {
                       heard.push_back(done);
                       total = all;
                     });
  ASSERT_EQ(total, 12u);
  ASSERT_EQ(heard.size(), 12u);
  for (std::size_t i = 0; i < heard.size(); ++i) EXPECT_EQ(heard[i], i + 1);

  std::ostringstream out;
  ProgressLine progress(out, "ladder", /*interval_s=*/3600);
  const GameDone report = progress.callback();
  report(1, 4);  // within the interval: silent
  report(2, 4);
  EXPECT_EQ(out.str(), "");
  report(4, 4);
  EXPECT_EQ(out.str().rfind("ladder: 4/4 games, ", 0), 0u) << out.str();
  EXPECT_EQ(out.str().find("left"), std::string::npos) << out.str();
  std::ostringstream often;
  ProgressLine every(often, "arena", /*interval_s=*/0);
  every.game_done(1, 4);
  EXPECT_NE(often.str().find("arena: 1/4 games, 0s, about 0s left"), std::string::npos)
      << often.str();
  // Games played at once finish together: no estimate until that many are done (the
  // first of 16 would otherwise read the whole match as 16 times longer than it is).
  std::ostringstream waves;
  ProgressLine wave(waves, "arena", /*interval_s=*/0, /*at_once=*/games_at_once(2));
  wave.game_done(1, 200);
  EXPECT_NE(waves.str().find("arena: 1/200 games, 0s, 16 at once: time left after the first 16"),
            std::string::npos)
      << waves.str();
  EXPECT_EQ(waves.str().find("left\n"), std::string::npos) << waves.str();
  wave.game_done(16, 200);
  EXPECT_NE(waves.str().find("arena: 16/200 games, 0s, about 0s left"), std::string::npos)
      << waves.str();
  std::ostringstream few;
  ProgressLine small(few, "arena", /*interval_s=*/0, /*at_once=*/games_at_once(2));
  small.game_done(3, 6);  // all six started at once: no estimate until the end
  EXPECT_NE(few.str().find("6 at once"), std::string::npos) << few.str();
  EXPECT_EQ(short_duration(45), "45s");
  EXPECT_EQ(short_duration(192), "3m12s");
  EXPECT_EQ(short_duration(3840), "1h04m");
}

// Chance outcomes during the opening do not count as plies and stay shared by the couple.
TEST(PairedGames, OpeningPliesCountDecisionsAndKeepTheCouplesLuck) {
  const std::vector<AgentFactory<Imbriqua>> agents{first_action_agent<Imbriqua>(),
                                                   random_agent<Imbriqua>()};
  const auto games = play_pairs<Imbriqua>(agents, {{0, 1}}, 4, 1, 7, {}, 10);
  for (std::size_t k = 0; k < games.size(); k += 2) {
    Imbriqua a = Imbriqua::from_setup(games[k].record.setup);
    int decisions = 0;
    std::size_t i = 0;
    for (; decisions < 10; ++i) {
      ASSERT_EQ(games[k].record.actions[i], games[k + 1].record.actions[i]) << "ply " << i;
      decisions += a.to_act() == Player::kChance ? 0 : 1;
      a.apply(*a.parse_action(games[k].record.actions[i]));
    }
    EXPECT_GT(i, 10u) << "turn 1's card was drawn among the ten decisions";
  }
}

TEST(PairedGames, ABadModelFailsWhenTheFactoryIsMadeNotDuringGames) {
  EXPECT_THROW(agent_factory<TicTacToe>(mcts::parse_agent_spec("az:model=/nonexistent/m.pt")),
               Error);
  EXPECT_THROW(agent_factory<TicTacToe>(mcts::parse_agent_spec("mcts:evaluator=magic")), Error);
  EXPECT_THROW(agent_factory<TicTacToe>(mcts::parse_agent_spec("mcts:speed=3")), Error);
}

// az:...,heuristic_mix=H: at H = 1 the network is out of the leaves and the priors, so two
// differently initialised networks play the same moves; a game without an evaluation
// refuses the key before any model is read.
TEST(AgentSpecs, AHeuristicMixOfOneLeavesTheNetworkOut) {
  nets::NetConfig small;
  small.blocks = 1;
  small.channels = 8;
  small.value_hidden = 16;
  const auto meta = nets::meta_for<Lignes>(small);
  mcts::SearchConfig config = az_search(24);
  const auto moves_of = [&](std::uint64_t weights_seed, double mix) {
    auto agent = network_agent<Lignes>(nets::InferenceModel::fresh(meta, weights_seed), config,
                                       LeafMix{0.0, mix})(/*seed=*/5);
    Lignes g;
    std::vector<Action> moves;
    for (int i = 0; i < 6 && !g.is_terminal(); ++i) {
      const Action a = agent->act(g);
      moves.push_back(a);
      agent->observe(a);
      g.apply(a);
    }
    return moves;
  };
  EXPECT_EQ(moves_of(1, 1.0), moves_of(2, 1.0));
  EXPECT_NE(moves_of(1, 0.0), moves_of(2, 0.0)) << "without the mix the networks decide";
  try {
    agent_factory<TicTacToe>(
        mcts::parse_agent_spec("az:model=/nonexistent/m.pt,heuristic_mix=0.3"));
    ADD_FAILURE() << "tic-tac-toe has no evaluation";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("heuristic_mix needs a game with a static evaluation"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(
      agent_factory<Lignes>(mcts::parse_agent_spec("az:model=/nonexistent/m.pt,heuristic_mix=1.5")),
      Error);
}

// az:...,symmetry= takes 0, 1 or all; anything else is refused before any model is read.
TEST(AgentSpecs, SymmetryTakesZeroOneOrAll) {
  for (const std::string bad : {"2", "0.5", "every"}) {
    try {
      agent_factory<Lignes>(mcts::parse_agent_spec("az:model=/nonexistent/m.pt,symmetry=" + bad));
      ADD_FAILURE() << "symmetry=" << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("symmetry must be 0, 1 or all"), std::string::npos)
          << e.what();
    }
  }
  for (const std::string good : {"0", "1", "all"}) {
    try {
      agent_factory<Lignes>(mcts::parse_agent_spec("az:model=/nonexistent/m.pt,symmetry=" + good));
      ADD_FAILURE() << "the model does not exist";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find("symmetry must"), std::string::npos) << e.what();
    }
  }
}

// az:...,raw=1: the network's policy alone. Its move is the legal action of highest prior
// (read here from the evaluator directly), whatever the agent's seed; search keys are
// refused with it, before any model is read.
TEST(AgentSpecs, TheRawPolicyPlaysTheNetworksMostLikelyLegalAction) {
  nets::NetConfig small;
  small.blocks = 1;
  small.channels = 8;
  small.value_hidden = 16;
  const auto model = nets::InferenceModel::fresh(nets::meta_for<Lignes>(small), 5);
  auto raw = network_agent<Lignes>(model, az_search(8), {}, {}, "raw", /*raw=*/true);
  nets::NnEvaluator<Lignes> evaluator(model, {});
  Rng rng(3);
  Lignes g;
  for (int ply = 0; ply < 12 && !g.is_terminal(); ++ply) {
    ActionListFor<Lignes> legal;
    g.legal_actions(legal);
    mcts::EvalBatch<Lignes> batch;
    batch.add(g, legal, 0);
    evaluator.evaluate(batch);
    const auto priors = batch.priors(0);
    const Action best = legal[std::max_element(priors.begin(), priors.end()) - priors.begin()];
    EXPECT_EQ(raw(1)->act(g), best) << "ply " << ply;
    EXPECT_EQ(raw(2)->act(g), best) << "ply " << ply;
    g.apply(random_action(g, rng));  // on to positions the policy would not choose
  }
  try {
    agent_factory<Lignes>(mcts::parse_agent_spec("az:model=/nonexistent/m.pt,raw=1,sims=100"));
    ADD_FAILURE() << "raw=1 with sims";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("raw=1 plays without search, so 'sims' has no meaning"),
              std::string::npos)
        << e.what();
  }
}

TEST(GameRecordReader, ReplaysEveryRecordAndRefusesOnesThatDoNotAddUp) {
  Rng rng(11);
  const GameRecord game = play_random_game(Lignes{}, rng);
  nlohmann::json j = {{"actions", game.actions},
                      {"result", std::string(outcome_string(game.outcome))},
                      {"network_step", 3}};
  const ReadRecord r = read_game_record<Lignes>(j.dump(), "g.jsonl:1");
  EXPECT_EQ(r.record.actions, game.actions);
  EXPECT_EQ(r.record.outcome, game.outcome);
  EXPECT_EQ(r.fields.at("network_step"), 3);
  auto error_of = [](const std::string& line) {
    try {
      read_game_record<Lignes>(line, "g.jsonl:1");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  nlohmann::json wrong = j;
  wrong["result"] = game.outcome == Outcome::kP0Win ? "0-1" : "1-0";
  EXPECT_NE(error_of(wrong.dump()).find("g.jsonl:1: the moves end"), std::string::npos)
      << error_of(wrong.dump());
  nlohmann::json cut = j;
  cut["actions"].erase(cut["actions"].end() - 1);
  EXPECT_NE(error_of(cut.dump()).find("not over"), std::string::npos);
  cut["termination"] = "b lost on time";
  EXPECT_EQ(error_of(cut.dump()), "read") << "an arena game stopped early says why";
  nlohmann::json illegal = j;
  illegal["actions"][1] = illegal["actions"][0];
  EXPECT_NE(error_of(illegal.dump()).find("g.jsonl:1: action 1"), std::string::npos)
      << error_of(illegal.dump());
  EXPECT_EQ(error_of("{\"actions\": [1], \"result\": \"1-0\"}"),
            "g.jsonl:1: actions must be a list of strings");
  EXPECT_EQ(error_of("[1"), "g.jsonl:1: not a JSON object");
  EXPECT_NE(error_of("{\"actions\": [], \"result\": \"2-0\"}").find("result must be"),
            std::string::npos);
}

TEST(GameRecordReader, AFileIsCheckedLineByLine) {
  const std::string dir = fresh_dir("azg_record_file_test");
  Rng rng(12);
  std::string text;
  for (int i = 0; i < 3; ++i) {
    const GameRecord g = play_random_game(Lignes{}, rng);
    text +=
        nlohmann::json({{"actions", g.actions}, {"result", std::string(outcome_string(g.outcome))}})
            .dump() +
        "\n";
  }
  std::ofstream(dir + "/games.jsonl") << text << "\n";
  const RecordFileSummary s = check_record_file<Lignes>(dir + "/games.jsonl");
  EXPECT_EQ(s.games, 3);
  EXPECT_EQ(s.p0_wins + s.p1_wins + s.draws, 3);
  std::ofstream(dir + "/bad.jsonl") << text << "{}\n";
  try {
    check_record_file<Lignes>(dir + "/bad.jsonl");
    FAIL() << "a bad line passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.jsonl:4:"), std::string::npos) << e.what();
  }
  try {
    check_record_file<Lignes>(dir);
    FAIL() << "a folder passed as a file of no games";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
}

TEST(AgentSpecs, NotANumberIsRefused) {
  // std::stod reads "nan"; a range check written as v < min || v > max lets it through.
  EXPECT_THROW(agent_factory<Lignes>(mcts::parse_agent_spec("mcts:sims=nan")), Error);
  EXPECT_THROW(
      mcts::spec_number(mcts::parse_agent_spec("az:rollout_mix=nan"), "rollout_mix", 0, 0, 1),
      Error);
  EXPECT_THROW(
      mcts::spec_number(mcts::parse_agent_spec("az:rollout_mix=inf"), "rollout_mix", 0, 0, 1),
      Error);
  EXPECT_EQ(
      mcts::spec_number(mcts::parse_agent_spec("az:rollout_mix=0.25"), "rollout_mix", 0, 0, 1),
      0.25);
}

TEST(SprtMatch, AcceptsAClearlyStrongerAgentAndReportsEveryGame) {
  Sprt sprt(0, 100, 0.05, 0.05);
  int seen = 0;
  const SprtMatch m =
      run_sprt<TicTacToe>(uct_agent<TicTacToe>(uct_search(300)), random_agent<TicTacToe>(), sprt,
                          200, 2, 5, [&](double, const Sprt&) { ++seen; });
  EXPECT_EQ(m.decision, Sprt::Decision::kAcceptH1);
  EXPECT_EQ(seen, m.score.games());
  EXPECT_LT(m.score.games(), 200);
  Sprt capped(0, 100, 0.05, 0.05);
  const SprtMatch same =
      run_sprt<TicTacToe>(uct_agent<TicTacToe>(uct_search(300)),
                          uct_agent<TicTacToe>(uct_search(300)), capped, 6, 2, 5);
  EXPECT_EQ(same.score.games(), 6) << "stops at max_games";
}

TEST(Session, PlaysUndoesAndRefusesBadActionsWithoutChangingThePosition) {
  std::unique_ptr<Session> s = std::make_unique<GameSession<TicTacToe>>();
  EXPECT_EQ(s->game(), "tictactoe");
  EXPECT_EQ(s->legal().size(), 9u);
  EXPECT_FALSE(s->undo());
  for (const char* a : {"a1", "b1", "a2", "b2"}) s->play(a);
  EXPECT_THROW(s->play("a1"), Error) << "occupied";
  EXPECT_THROW(s->play("zz"), Error) << "malformed";
  EXPECT_EQ(s->history().size(), 4u);
  EXPECT_EQ(s->to_act(), Player::kP0);
  s->play("a3");
  EXPECT_TRUE(s->over());
  EXPECT_EQ(s->outcome(), Outcome::kP0Win);
  EXPECT_TRUE(s->legal().empty());
  EXPECT_THROW(s->play("c3"), Error) << "the game is over";
  EXPECT_EQ(s->record().actions, (std::vector<std::string>{"a1", "b1", "a2", "b2", "a3"}));
  EXPECT_TRUE(s->undo());
  EXPECT_FALSE(s->over());
  EXPECT_EQ(s->legal().size(), 5u);
  EXPECT_THROW(s->reset("", {"a1", "a1"}), Error);
  EXPECT_EQ(s->history().size(), 4u) << "a failed reset keeps the former position";
  s->reset("", {"a1", "b1", "a2", "b2", "c3"});
  EXPECT_EQ(s->history().size(), 5u) << "an extension of the game";
  s->reset("", {"c3"});
  EXPECT_EQ(s->history(), (std::vector<std::string>{"c3"}));
}

TEST(Session, ListsChanceOutcomesWithTheirProbabilities) {
  GameSession<testgames::ChancePig> s;
  s.play("b0");
  s.play("high");
  ASSERT_EQ(s.to_act(), Player::kChance);
  double total = 0;
  for (const auto& l : s.legal()) total += l.probability;
  EXPECT_NEAR(total, 1.0, 1e-9);
  s.set_agent(mcts::parse_agent_spec("mcts:sims=20"), 1);
  EXPECT_THROW(s.think({}), Error) << "an agent does not decide for chance";
  s.play(s.legal().front().action);
  EXPECT_NE(s.to_act(), Player::kChance);
}

TEST(Session, ThinksWithinASimulationOrTimeBudgetAndStopsOnRequest) {
  GameSession<TicTacToe> s;
  EXPECT_THROW(s.think({}), Error) << "no agent yet";
  s.set_agent(mcts::parse_agent_spec("mcts:sims=50"), 7);
  const Thought by_default = s.think({});
  EXPECT_EQ(by_default.simulations, 50);
  mcts::Budget sims;
  sims.simulations = 300;
  int reports = 0;
  const Thought t = s.think(
      sims, [&](const Thought&) { ++reports; }, std::chrono::milliseconds(0));
  EXPECT_EQ(t.simulations, 300);
  EXPECT_GT(reports, 0);
  ASSERT_EQ(t.actions.size(), 9u);
  EXPECT_EQ(t.best, t.actions.front().action);
  int visits = 0;
  for (const auto& a : t.actions) visits += a.visits;
  EXPECT_GE(visits, 299)
      << "the root's own evaluation is one simulation; the tree of the first question is kept";
  EXPECT_GE(t.actions.front().visits, t.actions.back().visits);
  EXPECT_GT(t.actions.front().prior, 0.0);
  ASSERT_FALSE(t.principal_variation.empty());
  EXPECT_EQ(t.principal_variation.front(), t.best);
  EXPECT_TRUE(s.history().empty()) << "thinking plays nothing";

  mcts::Budget timed;
  timed.seconds = 0.2;
  const auto start = std::chrono::steady_clock::now();
  const Thought by_time = s.think(timed);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(took, 0.2);
  EXPECT_LT(took, 5.0);
  EXPECT_GT(by_time.simulations, 0);

  mcts::Budget forever;
  forever.infinite = true;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    s.stop();
  });
  const Thought stopped = s.think(forever);
  stopper.join();
  EXPECT_GT(stopped.simulations, 0);
  EXPECT_FALSE(stopped.best.empty());
}

// The match loop runs the searches of concurrent games together: one evaluator call
// carries leaves of several games (the point of batching a network across games).
TEST(PairedGames, SearchesOfConcurrentGamesShareEvaluatorCalls) {
  struct Counting final : mcts::Evaluator<TicTacToe> {
    std::size_t largest = 0;
    mcts::UniformEvaluator<TicTacToe> inner;
    void evaluate(mcts::EvalBatch<TicTacToe>& batch) override {
      largest = std::max(largest, batch.size());
      inner.evaluate(batch);
    }
  };
  auto counting = std::make_shared<Counting>();
  mcts::SearchConfig one_leaf = uct_search(40);
  const AgentFactory<TicTacToe> agent =
      [&](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<TicTacToe>> {
    return std::make_unique<mcts::MctsAgent<TicTacToe>>("counted", one_leaf, counting, seed);
  };
  const auto games = play_pairs<TicTacToe>({agent, random_agent<TicTacToe>()}, {{0, 1}}, 8, 1, 9);
  ASSERT_EQ(games.size(), 8u);
  EXPECT_GT(counting->largest, 1u) << "one leaf per search per call, so more means several games";
}

// Truchet's from_setup wants its 49 tile bits: an empty setup means the default start
// (a session for Truchet could not be made before, so `azg engine --game truchet` failed).
TEST(Session, AnEmptySetupIsTheDefaultStartForEveryGame) {
  GameSession<Truchet> s;
  EXPECT_EQ(s.setup(), std::string(49, '0'));
  EXPECT_NO_THROW(s.reset("", {"Fa4"}));
  EXPECT_EQ(s.history().size(), 1u);
  EXPECT_THROW(s.reset("01", {}), Error);
  EXPECT_EQ(s.history().size(), 1u);  // a bad setup leaves the game as it was
}

// Accuracy on a solved test set: shares by phase, optimal only where the set lists it,
// and one-line errors that name the file and line of a bad entry.
TEST(Accuracy, SharesByPhaseAgainstTheKeepingMoves) {
  const std::string dir = fresh_dir("azg_accuracy_test");
  const std::string path = dir + "/positions.jsonl";
  {
    std::ofstream f(path);
    // The first-action agent plays column 1 everywhere.
    f << R"({"moves":[],"phase":"opening","keeping":["4"],"optimal":["4"]})"
      << "\n"
      << R"({"moves":["4"],"phase":"opening","keeping":["1","4"],"optimal":["4"]})"
      << "\n"
      << "\n"
      << R"({"moves":["4","4","5"],"phase":"middle","keeping":["1"]})"
      << "\n";
  }
  const auto positions = read_test_positions(path);
  ASSERT_EQ(positions.size(), 3u);
  const AccuracyReport r = measure_accuracy<Connect4>(positions, first_action_agent<Connect4>(), 1);
  ASSERT_EQ(r.groups.size(), 3u);
  EXPECT_EQ(r.groups[0].phase, "all");
  EXPECT_EQ(r.groups[0].keeping.hits, 2);
  EXPECT_EQ(r.groups[0].keeping.total, 3);
  EXPECT_EQ(r.groups[0].optimal.hits, 0);
  EXPECT_EQ(r.groups[0].optimal.total, 2);
  EXPECT_EQ(r.groups[1].phase, "opening");
  EXPECT_EQ(r.groups[1].keeping.hits, 1);
  EXPECT_EQ(r.groups[2].phase, "middle");
  EXPECT_EQ(r.groups[2].keeping.hits, 1);
  EXPECT_EQ(r.groups[2].optimal.total, 0);
  const auto [low, high] = r.groups[0].keeping.interval();
  EXPECT_LT(low, 2.0 / 3);
  EXPECT_GT(high, 2.0 / 3);
  EXPECT_NE(format_accuracy(r, "first").find("middle"), std::string::npos);

  const auto error_of = [&](const std::string& line) {
    std::ofstream(path) << line << "\n";
    try {
      const auto bad = read_test_positions(path);
      measure_accuracy<Connect4>(bad, first_action_agent<Connect4>(), 1);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("{").find("positions.jsonl:1: not a JSON object"), std::string::npos);
  EXPECT_NE(error_of(R"({"moves":["4"],"phase":"x"})").find("no \"keeping\""), std::string::npos);
  EXPECT_NE(error_of(R"({"moves":[4],"phase":"x","keeping":["1"]})").find("action strings"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"moves":["9"],"phase":"x","keeping":["1"]})").find("malformed"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"moves":["1","1","2","2","3","3","4"],"phase":"x","keeping":["1"]})")
                .find("over"),
            std::string::npos);
  EXPECT_NE(error_of("").find("no positions"), std::string::npos);
  EXPECT_THROW(read_test_positions(dir + "/missing.jsonl"), Error);
}

}  // namespace
}  // namespace azg::play
