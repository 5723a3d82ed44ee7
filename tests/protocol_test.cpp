// Clients' ways in: a transcript of every engine-protocol command, the engine's answers to
// bad lines, `stop` mid-search and end of input; the JSON analysis mode; and the referee,
// which plays azg engine processes (and misbehaving fake engines) over the protocol and
// reproduces the arena's games on the same seeds.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "env/imbriqua/imbriqua.hpp"
#include "env/lignes/lignes.hpp"
#include "nets/untrained_model.hpp"
#include "play/paired_games.hpp"
#include "protocol/analysis.hpp"
#include "protocol/engine.hpp"
#include "protocol/referee.hpp"
#include "tests/games/chance_pig.hpp"
#include "tests/games/tictactoe.hpp"

namespace azg::protocol {
namespace {

using testgames::ChancePig;
using testgames::TicTacToe;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// An engine on an output buffer; `say` runs commands and returns what they printed, once
// any search they started has answered.
struct Transcript {
  std::ostringstream out;
  Engine engine;
  std::size_t seen = 0;
  template <class G>
  Transcript(std::unique_ptr<play::GameSession<G>> s, const std::string& spec)
      : engine(std::move(s), mcts::parse_agent_spec(spec), out) {}
  std::vector<std::string> say(const std::vector<std::string>& commands) {
    for (const auto& c : commands) engine.command(c);
    engine.wait();
    const std::string all = out.str();
    const std::string fresh = all.substr(seen);
    seen = all.size();
    return lines_of(fresh);
  }
  // Each command answered by exactly the one line given.
  void expect(const std::vector<std::pair<std::string, std::string>>& exchanges) {
    for (const auto& [command, answer] : exchanges)
      EXPECT_EQ(say({command}), std::vector<std::string>{answer}) << command;
  }
};

bool has_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) return true;
  return false;
}

TEST(EngineProtocol, AnswersEveryCommand) {
  Transcript t(std::make_unique<play::GameSession<TicTacToe>>(), "mcts:sims=200");
  const auto hello = t.say({"ugi"});
  ASSERT_FALSE(hello.empty());
  EXPECT_EQ(hello.front(), "id name azg tictactoe mcts:sims=200");
  EXPECT_TRUE(has_prefix(hello, "option name Simulations type spin default 200"));
  EXPECT_TRUE(has_prefix(hello, "option name Seed type spin"));
  EXPECT_EQ(hello.back(), "ugiok");
  EXPECT_EQ(t.say({"isready"}), (std::vector<std::string>{"readyok"}));
  EXPECT_TRUE(t.say({"setoption name Simulations value 150", "uginewgame"}).empty());
  // The queries in the middle of a game and at its end (a3 completes Light's file).
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
      states = {{"a1 b1 a2 b2 a3",
                 {{"query gameover", "response true"},
                  {"query result", "response p1win"},
                  {"query tomove", "response none"},
                  {"legal", "legal"},
                  {"go", "info string error the game is over"}}},
                {"a1 b1 a2",
                 {{"query p1turn", "response false"},
                  {"query tomove", "response p2"},
                  {"query gameover", "response false"},
                  {"query result", "response none"},
                  {"legal", "legal c1 b2 c2 a3 b3 c3"}}}};
  for (const auto& [moves, exchanges] : states) {
    EXPECT_TRUE(t.say({"position startpos moves " + moves}).empty());
    t.expect(exchanges);
  }
  const auto board = t.say({"show"});
  ASSERT_GE(board.size(), 2u);
  EXPECT_EQ(board.back(), "showok");
  const auto go = t.say({"go"});
  ASSERT_EQ(go.size(), 2u) << t.out.str();
  EXPECT_EQ(go[0].rfind("info sims 150 ", 0), 0u)
      << go[0] << ": the Simulations option is the default budget";
  EXPECT_NE(go[0].find(" pv a3"), std::string::npos) << "blocking a3 is the only move: " << go[0];
  EXPECT_EQ(go[1], "bestmove a3");
  const auto counted = t.say({"go sims 40"});
  EXPECT_EQ(counted[0].rfind("info sims 40 ", 0), 0u) << counted[0];
  EXPECT_FALSE(t.engine.command("quit"));
}

TEST(EngineProtocol, KeepsRunningOnBadLinesAndLeavesThePositionAlone) {
  Transcript t(std::make_unique<play::GameSession<TicTacToe>>(), "mcts:sims=20");
  t.say({"position startpos moves a1"});
  const std::vector<std::string> bad = {"dance",
                                        "position startpos moves b1 b1",
                                        "position startpos moves zz",
                                        "position endpos",
                                        "position startpos setup",
                                        "setoption name Simulations value lots",
                                        "setoption name Colour value red",
                                        "setoption Simulations 5",
                                        "go sims",
                                        "go sims -3",
                                        "go warp 9",
                                        "query weather",
                                        std::string(5000, 'x')};
  for (const auto& line : bad) {
    const auto answer = t.say({line});
    ASSERT_EQ(answer.size(), 1u) << line;
    EXPECT_EQ(answer[0].rfind("info string error ", 0), 0u) << line << " -> " << answer[0];
  }
  EXPECT_TRUE(t.say({"", "   "}).empty()) << "blank lines are ignored";
  EXPECT_EQ(t.say({"query tomove"}), (std::vector<std::string>{"response p2"})) << "still after a1";
  EXPECT_EQ(t.say({"legal"}).front().size(), std::string("legal b1 c1 a2 b2 c2 a3 b3 c3").size());
}

TEST(EngineProtocol, NeverDecidesForChanceAndListsItsOutcomes) {
  Transcript t(std::make_unique<play::GameSession<ChancePig>>(), "mcts:sims=30");
  t.say({"position startpos moves b0 high"});
  EXPECT_EQ(t.say({"query tomove"}), (std::vector<std::string>{"response chance"}));
  const auto legal = t.say({"legal"});
  ASSERT_EQ(legal.size(), 1u);
  EXPECT_NE(legal[0].find(":0.500000"), std::string::npos) << legal[0];
  const auto go = t.say({"go"});
  ASSERT_EQ(go.size(), 1u);
  EXPECT_EQ(go[0].rfind("info string error chance acts here", 0), 0u) << go[0];
}

TEST(EngineProtocol, StopEndsAnInfiniteSearchWithABestMove) {
  Transcript t(std::make_unique<play::GameSession<Lignes>>(), "mcts:sims=50");
  t.engine.command("setoption name ProgressInterval value 20");
  t.engine.command("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  t.engine.command("isready");            // answered mid-search
  t.engine.command("position startpos");  // refused mid-search
  t.engine.command("stop");
  const auto lines = t.say({});
  EXPECT_TRUE(has_prefix(lines, "readyok"));
  EXPECT_TRUE(has_prefix(lines, "info string error 'position' while searching"));
  EXPECT_TRUE(has_prefix(lines, "info sims "));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("bestmove ", 0), 0u) << lines.back();
}

TEST(EngineProtocol, EndOfInputEndsARunningSearchCleanly) {
  std::ostringstream out;
  Engine engine(std::make_unique<play::GameSession<Lignes>>(),
                mcts::parse_agent_spec("mcts:sims=50"), out);
  std::istringstream in("position startpos\ngo infinite\n");
  const auto start = std::chrono::steady_clock::now();
  engine.run(in);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
  EXPECT_NE(out.str().find("bestmove "), std::string::npos);
  std::ostringstream limited_out;
  Engine limited(std::make_unique<play::GameSession<Lignes>>(),
                 mcts::parse_agent_spec("mcts:sims=50"), limited_out);
  std::istringstream limited_in("position startpos\ngo sims 300\n");
  limited.run(limited_in);
  EXPECT_NE(limited_out.str().find("info sims 300 "), std::string::npos)
      << "a limited search still answers in full";
}

TEST(EngineProtocol, TheSeedOptionMakesAgentsRepeatable) {
  auto best = [](const std::string& seed) {
    Transcript t(std::make_unique<play::GameSession<Lignes>>(), "mcts:sims=60");
    t.say({"setoption name Seed value " + seed, "uginewgame", "position startpos moves P0,0 P1,0"});
    return t.say({"go"}).back();
  };
  EXPECT_EQ(best("7"), best("7"));
}

TEST(AnalysisMode, AnswersQueriesTurnByTurnAndRefusesBadOnes) {
  std::ostringstream out;
  Analysis analysis(std::make_unique<play::GameSession<TicTacToe>>(),
                    mcts::parse_agent_spec("mcts:sims=50"), out);
  analysis.query(R"({"id":"q1","moves":["a1","b1","a2"],"analyzeTurns":[0,3],)"
                 R"("maxVisits":120,"includePolicy":true})");
  analysis.query(R"({"id":"q2","moves":["a1","a1"]})");
  analysis.query(R"({"id":"q3","speed":2})");
  analysis.query("{not json");
  analysis.query(
      R"({"id":"q4","moves":["a1","b1","a2"],"reportDuringSearchEvery":0.0001,"maxVisits":400})");
  analysis.query(R"({"id":"q5","moves":["a1","b1","a2","b2","a3"]})");
  std::vector<nlohmann::json> answers;
  for (const auto& l : lines_of(out.str())) answers.push_back(nlohmann::json::parse(l));
  ASSERT_GE(answers.size(), 7u) << out.str();
  EXPECT_EQ(answers[0]["id"], "q1");
  EXPECT_EQ(answers[0]["turnNumber"], 0);
  EXPECT_EQ(answers[0]["toAct"], "p1");
  EXPECT_EQ(answers[0]["policy"].size(), 9u);
  int visits = 0;
  for (const auto& m : answers[0]["moveInfos"]) visits += m["visits"].get<int>();
  EXPECT_GE(visits, 119);
  EXPECT_EQ(answers[1]["turnNumber"], 3);
  EXPECT_EQ(answers[1]["bestMove"], "a3");
  EXPECT_EQ(answers[1]["moveInfos"][0]["pv"][0], "a3");
  EXPECT_TRUE(answers[2].contains("error") && answers[2]["id"] == "q2") << answers[2];
  EXPECT_NE(answers[3]["error"].get<std::string>().find("unknown key 'speed'"), std::string::npos);
  EXPECT_TRUE(answers[4].contains("error") && !answers[4].contains("id"));
  bool during = false, final_q4 = false;
  for (std::size_t i = 5; i < answers.size(); ++i) {
    if (answers[i]["id"] != "q4") continue;
    if (answers[i]["isDuringSearch"] == true)
      during = true;
    else
      final_q4 = true;
  }
  EXPECT_TRUE(during && final_q4);
  EXPECT_EQ(answers.back()["id"], "q5");
  EXPECT_EQ(answers.back()["error"], "the game is over at this turn");
}

std::string engine_command(const std::string& game, const std::string& agent) {
  return std::string(AZG_BINARY) + " engine --game " + game + " --agent " + agent;
}

TEST(Referee, EngineCommandsAreNamedOrNumbered) {
  const auto engines =
      parse_engine_commands({"a=azg engine --game lignes", "./my engine --x=1", "b=prog"});
  ASSERT_EQ(engines.size(), 3u);
  EXPECT_EQ(engines[0].name, "a");
  EXPECT_EQ(engines[0].command, "azg engine --game lignes");
  EXPECT_EQ(engines[1].name, "engine2") << "a '/' before the '=' makes it all a command";
  EXPECT_EQ(engines[1].command, "./my engine --x=1");
  EXPECT_EQ(engines[2].name, "b");
  auto error = [](const std::vector<std::string>& items) {
    try {
      parse_engine_commands(items);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error({"a=prog"}), "a match needs at least two --engine");
  EXPECT_EQ(error({"a=", "b=prog"}), "--engine 'a=' has no command");
  EXPECT_EQ(error({"a=x", "a=y"}), "two engines are named 'a'");
}

TEST(Referee, ReproducesTheArenasGamesOnTheSameSeeds) {
  // An untrained network is enough: the point is that both ways give the same games.
  const auto dir = std::filesystem::temp_directory_path() / "azg_referee_test";
  std::filesystem::create_directories(dir);
  const std::string model = (dir / "imbriqua.pt").string();
  nets::NetConfig config;
  config.blocks = 1;
  config.channels = 8;
  nets::export_untrained_model(nets::meta_for<Imbriqua>(config), 3, model);
  const std::string az = "az:model=" + model + ",sims=8", uct = "mcts:sims=50";

  RefereeOptions o;
  o.games = 2;
  o.seed = 5;
  std::ostringstream log;
  const auto refereed = referee_games(
      [] { return std::make_unique<play::GameSession<Imbriqua>>(); },
      {{"az", engine_command("imbriqua", az)}, {"uct", engine_command("imbriqua", uct)}}, {{0, 1}},
      o, &log);
  const auto arena = play::play_pairs<Imbriqua>(
      std::vector<play::NamedAgent>{{"az", mcts::parse_agent_spec(az)},
                                    {"uct", mcts::parse_agent_spec(uct)}},
      {{0, 1}}, 2, 1, 5);
  ASSERT_EQ(refereed.size(), arena.size()) << log.str();
  for (std::size_t i = 0; i < arena.size(); ++i) {
    EXPECT_TRUE(refereed[i].termination.empty()) << refereed[i].termination;
    EXPECT_EQ(refereed[i].first, arena[i].first);
    EXPECT_EQ(refereed[i].record.setup, arena[i].record.setup);
    EXPECT_EQ(refereed[i].record.actions, arena[i].record.actions) << "game " << i;
    EXPECT_EQ(refereed[i].record.outcome, arena[i].record.outcome);
  }
}

// A fake engine in shell: a correct handshake, then `on_go` when asked to move.
std::string fake_engine(const std::string& on_go) {
  return "while read line; do case \"$line\" in ugi) echo 'id name fake'; echo ugiok;; isready) "
         "echo readyok;; "
         "go*) " +
         on_go + ";; esac; done";
}

TEST(Referee, ScoresACrashAHangAndAnIllegalMoveAsLosses) {
  RefereeOptions o;
  o.games = 2;
  o.timeout_ms = 1500;
  const std::vector<EngineCommand> engines = {{"good", engine_command("lignes", "mcts:sims=10")},
                                              {"crash", fake_engine("exit 3")},
                                              {"hang", fake_engine("sleep 60")},
                                              {"illegal", fake_engine("echo 'bestmove Z9,9'")}};
  const auto games = referee_games([] { return std::make_unique<play::GameSession<Lignes>>(); },
                                   engines, {{0, 1}, {0, 2}, {0, 3}}, o);
  ASSERT_EQ(games.size(), 6u);
  for (const auto& g : games) {
    EXPECT_EQ(g.points_of(0), 1.0) << "the good engine wins every game: " << g.termination;
    EXPECT_FALSE(g.termination.empty());
  }
  EXPECT_NE(games[0].termination.find("crash crashed"), std::string::npos) << games[0].termination;
  EXPECT_NE(games[2].termination.find("hang timed out"), std::string::npos) << games[2].termination;
  EXPECT_NE(games[4].termination.find("illegal played an illegal move 'Z9,9'"), std::string::npos)
      << games[4].termination;
}

TEST(Referee, AnEngineThatCannotStartLosesEveryGameWithoutStoppingTheMatch) {
  RefereeOptions o;
  o.games = 2;
  // Room for the good engine to start on a loaded machine or under a sanitizer; the
  // missing one fails at once (its shell exits), so the test never waits this long.
  o.startup_timeout_ms = 20000;
  const auto games = referee_games([] { return std::make_unique<play::GameSession<Lignes>>(); },
                                   {{"good", engine_command("lignes", "mcts:sims=10")},
                                    {"missing", "/nonexistent/engine --flag"}},
                                   {{0, 1}}, o);
  ASSERT_EQ(games.size(), 2u);
  for (const auto& g : games) EXPECT_EQ(g.points_of(0), 1.0) << g.termination;
}

}  // namespace
}  // namespace azg::protocol
