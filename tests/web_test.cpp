// The web board's server side: board data for every game, the JSON API (games, moves,
// chance, undo, agents thinking and being stopped, replay, records, caps, errors) and the
// HTTP server itself on a free port.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "nets/inference.hpp"
#include "nets/untrained_model.hpp"
#include "web/api.hpp"
#include "web/server.hpp"
#include "web/static_files.hpp"

namespace azg::web {
namespace {

using nlohmann::json;

std::vector<GameKind> all_games() {
  return {game_kind<Imbriqua>(), game_kind<Truchet>(), game_kind<Imperator>(), game_kind<Lignes>(),
          game_kind<Intercept>()};
}

std::vector<ServedAgent> test_agents() {
  return {{"uct", mcts::parse_agent_spec("mcts:sims=50"), "", nullptr},
          {"slow", mcts::parse_agent_spec("mcts:sims=10000000"), "", nullptr},
          {"random", mcts::parse_agent_spec("random"), "", nullptr}};
}

struct Answer {
  int status;
  json body;
};

struct ApiFixture : ::testing::Test {
  Api api{all_games(), test_agents(), Limits{4, 100000, 30, 100}, 7};

  Answer call(const std::string& method, const std::string& path, const json& body = nullptr,
              std::map<std::string, std::string> query = {}) {
    const Reply r = api.handle(method, path, query, body.is_null() ? "" : body.dump());
    return {r.status, json::parse(r.body)};
  }
  std::string create(const json& request) {
    const Answer a = call("POST", "/api/games", request);
    EXPECT_EQ(a.status, 201) << a.body.dump();
    return a.body.value("id", "");
  }
  json wait_idle(const std::string& id) {
    for (int i = 0; i < 3000; ++i) {
      const Answer a = call("GET", "/api/games/" + id);
      if (a.body["thinking"].is_null()) return a.body;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "the agent never finished";
    return {};
  }
};

TEST(BoardData, ImbriquaShowsRevealedCardsOnlyAndNoPawnsAtTheStart) {
  const json b = board_data(Imbriqua::from_setup(""));
  EXPECT_TRUE(b["pawns"].empty());
  ASSERT_EQ(b["cards"].size(), 44u);
  // Pile 1 is hidden until revealed; P2 ends pile 1 and starts pile 2 (turns 11, 12).
  EXPECT_TRUE(b["cards"][0].is_null());
  EXPECT_EQ(b["cards"][10], "P2");
  EXPECT_EQ(b["phase"], "opening");
}

TEST(BoardData, EveryGamesStartIsDrawnFromItsPieces) {
  EXPECT_EQ(board_data(Truchet{})["stacks"].size(), 24u);
  EXPECT_EQ(board_data(Truchet{})["stacks"]["a1"], (json{{"colour", 1}, {"height", 1}}));
  EXPECT_EQ(board_data(Truchet{})["tiles"], std::string(49, '0'));
  const json imp = board_data(Imperator{});
  EXPECT_EQ(imp["cells"].size(), 96u);
  EXPECT_EQ(imp["rows"], (json{9, 11, 13, 15, 15, 13, 11, 9}));
  int rim = 0;
  for (const auto& c : imp["cells"]) rim += !c["rim"].is_null();
  EXPECT_EQ(rim, 24);
  EXPECT_TRUE(board_data(Lignes{})["pawns"].empty());
  const json ic = board_data(Intercept{});
  EXPECT_EQ(ic["squares"].size(), 22u);
  EXPECT_EQ(ic["ball"], "g7");
  EXPECT_EQ(ic["squares"]["g1"]["top"],
            (json{{"colour", 0}, {"kind", "double"}, {"face", "passage"}}));
  Lignes l;
  l.apply(*l.parse_action("P0,0"));
  l.apply(*l.parse_action("P1,0"));
  EXPECT_EQ(board_data(l)["pawns"], (json{{0, 0, 0}, {1, 0, 1}}));
}

TEST_F(ApiFixture, InfoListsGamesAgentsAndLimits) {
  const Answer a = call("GET", "/api/info");
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(a.body["games"].size(), 5u);
  EXPECT_EQ(a.body["agents"][0]["name"], "uct");
  EXPECT_EQ(a.body["limits"]["max_sessions"], 4);
}

TEST_F(ApiFixture, APersonPlaysAndTheStateFollows) {
  const std::string id = create({{"game", "lignes"}});
  Answer a = call("POST", "/api/games/" + id + "/play", {{"action", "P0,0"}});
  ASSERT_EQ(a.status, 200) << a.body.dump();
  EXPECT_EQ(a.body["history"], (json{"P0,0"}));
  EXPECT_EQ(a.body["to_act"], "p2");
  EXPECT_EQ(a.body["legal"].size(), 4u);
  EXPECT_EQ(a.body["board"]["pawns"], (json{{0, 0, 0}}));
  // An illegal or malformed action: 400, one line, quoted and cut, the game unchanged.
  a = call("POST", "/api/games/" + id + "/play", {{"action", std::string(500, 'P')}});
  EXPECT_EQ(a.status, 400);
  const std::string error = a.body["error"];
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_LT(error.size(), 200u);
  EXPECT_EQ(call("GET", "/api/games/" + id).body["history"].size(), 1u);
}

TEST_F(ApiFixture, ChanceIsDrawnByTheServerAndUndoTakesItBackWithTheDecision) {
  // Imbriqua: 8 opening placements, then turn 1's placement, then a card reveal (chance).
  const std::string id = create({{"game", "imbriqua"}, {"seed", 3}});
  for (const char* sq : {"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "d4"})
    ASSERT_EQ(call("POST", "/api/games/" + id + "/play", {{"action", sq}}).status, 200);
  json s = call("GET", "/api/games/" + id).body;
  ASSERT_EQ(s["history"].size(), 10u);
  EXPECT_EQ(s["by_chance"][9], true);  // the card, drawn by the server
  EXPECT_NE(s["to_act"], "chance");    // Light carries out the card, or Dark takes the penalty
  EXPECT_FALSE(s["board"]["cards"][0].is_null());
  s = call("POST", "/api/games/" + id + "/undo", json::object()).body;
  EXPECT_EQ(s["history"].size(), 8u);  // the card and the placement before it
  EXPECT_EQ(s["to_act"], "p1");
  // Back to the start, then nothing left to take back.
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(call("POST", "/api/games/" + id + "/undo", json::object()).status, 200);
  const Answer none = call("POST", "/api/games/" + id + "/undo", json::object());
  EXPECT_EQ(none.status, 409);
  EXPECT_EQ(none.body["error"], "nothing to take back");
}

TEST_F(ApiFixture, UndoToThePersonSkipsTheAgentsMoves) {
  const std::string id = create({{"game", "lignes"}, {"p2", "uct"}});
  ASSERT_EQ(call("POST", "/api/games/" + id + "/play", {{"action", "P0,0"}}).status, 200);
  ASSERT_EQ(call("POST", "/api/games/" + id + "/think", json::object()).status,
            202);  // p2's seat: uct
  json s = wait_idle(id);
  ASSERT_EQ(s["history"].size(), 2u);
  EXPECT_EQ(s["last_thought"]["agent"], "uct");
  EXPECT_EQ(s["last_thought"]["played"], true);
  s = call("POST", "/api/games/" + id + "/undo", {{"to_human", true}}).body;
  EXPECT_EQ(s["history"].size(), 0u);
  EXPECT_EQ(s["to_act"], "p1");
}

TEST_F(ApiFixture, AnAgentAnalysesWithoutPlayingAndReportsItsSearch) {
  const std::string id = create({{"game", "intercept"}});
  const Answer started = call("POST", "/api/games/" + id + "/think",
                              {{"agent", "uct"}, {"simulations", 64}, {"play", false}});
  ASSERT_EQ(started.status, 202) << started.body.dump();
  const json s = wait_idle(id);
  const json& t = s["last_thought"];
  EXPECT_EQ(t["simulations"], 64);
  EXPECT_EQ(t["player"], "p1");
  EXPECT_EQ(t["ply"], 0);
  ASSERT_FALSE(t["actions"].empty());
  // Most visited first; at most the 12 best are listed, their visits within the budget.
  int visits = 0;
  for (std::size_t i = 0; i < t["actions"].size(); ++i) {
    visits += t["actions"][i]["visits"].get<int>();
    if (i > 0) {
      EXPECT_LE(t["actions"][i]["visits"], t["actions"][i - 1]["visits"]);
    }
  }
  EXPECT_LE(t["actions"].size(), 12u);
  EXPECT_GT(visits, 0);
  EXPECT_LE(visits, 64);
  EXPECT_EQ(t["best"], t["actions"][0]["action"]);
  double shares = 0;  // every visited action, for the heat map
  for (const auto& [action, share] : t["shares"].items()) shares += share.get<double>();
  EXPECT_NEAR(shares, 1.0, 1e-6);
  EXPECT_TRUE(s["history"].empty());  // analysed, not played
}

TEST_F(ApiFixture, AThinkingAgentCanBeStoppedAndBlocksChangesMeanwhile) {
  const std::string id = create({{"game", "imbriqua"}});
  ASSERT_EQ(call("POST", "/api/games/" + id + "/think",
                 {{"agent", "slow"}, {"simulations", 100000}, {"seconds", 20}, {"play", false}})
                .status,
            202);
  const Answer busy = call("POST", "/api/games/" + id + "/play", {{"action", "a1"}});
  EXPECT_EQ(busy.status, 409);
  EXPECT_EQ(call("POST", "/api/games/" + id + "/think", {{"agent", "uct"}}).status, 409);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(call("POST", "/api/games/" + id + "/stop", json::object()).status, 200);
  const json s = wait_idle(id);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_GT(s["last_thought"]["simulations"].get<int>(), 0);
  EXPECT_EQ(call("POST", "/api/games/" + id + "/play", {{"action", "a1"}}).status, 200);
}

TEST_F(ApiFixture, SearchEffortIsCappedPerRequest) {
  const std::string id = create({{"game", "lignes"}});
  Answer a =
      call("POST", "/api/games/" + id + "/think", {{"agent", "uct"}, {"simulations", 100001}});
  EXPECT_EQ(a.status, 400);
  EXPECT_NE(a.body["error"].get<std::string>().find("[1, 100000]"), std::string::npos)
      << a.body.dump();
  a = call("POST", "/api/games/" + id + "/think", {{"agent", "uct"}, {"seconds", 31}});
  EXPECT_EQ(a.status, 400);
  a = call("POST", "/api/games/" + id + "/think", {{"agent", "nobody"}});
  EXPECT_EQ(a.status, 400);
  EXPECT_NE(a.body["error"].get<std::string>().find("unknown agent 'nobody'"), std::string::npos);
  a = call("POST", "/api/games/" + id + "/think", json::object());  // a person's seat: which agent?
  EXPECT_EQ(a.status, 400);
}

TEST_F(ApiFixture, ReplayShowsEarlierPliesAndRecordsGoOutAndComeBack) {
  const std::string id = create({{"game", "lignes"}, {"moves", {"P0,0", "P1,0", "P0,1"}}});
  Answer a = call("GET", "/api/games/" + id, nullptr, {{"ply", "1"}});
  ASSERT_EQ(a.status, 200);
  EXPECT_EQ(a.body["ply"], 1);
  EXPECT_EQ(a.body["board"]["pawns"].size(), 1u);
  EXPECT_EQ(a.body["history"].size(), 3u);
  EXPECT_EQ(call("GET", "/api/games/" + id, nullptr, {{"ply", "9"}}).status, 400);
  EXPECT_EQ(call("GET", "/api/games/" + id, nullptr, {{"ply", "1x"}}).status, 400);
  const json record = call("GET", "/api/games/" + id + "/record").body;
  EXPECT_EQ(record["actions"], (json{"P0,0", "P1,0", "P0,1"}));
  EXPECT_EQ(record["termination"], "unfinished");
  // The record comes back as a new game, as text (a games.jsonl line) or as an object.
  const std::string copy = create({{"game", "lignes"}, {"record", record.dump()}});
  EXPECT_EQ(call("GET", "/api/games/" + copy).body["history"], record["actions"]);
  const std::string copy2 = create({{"game", "lignes"}, {"record", record}});
  EXPECT_EQ(call("GET", "/api/games/" + copy2).body["history"].size(), 3u);
  // A record of another game, or a bad one, is refused with one line.
  a = call("POST", "/api/games", {{"game", "imbriqua"}, {"record", record.dump()}});
  EXPECT_EQ(a.status, 400);
  a = call(
      "POST", "/api/games",
      {{"game", "lignes"}, {"record", "{\"actions\": [\"P0,0\", \"P9,9\"], \"result\": \"1-0\"}"}});
  EXPECT_EQ(a.status, 400);
  EXPECT_NE(a.body["error"].get<std::string>().find("P9,9"), std::string::npos) << a.body.dump();
}

TEST_F(ApiFixture, ASetupAndASeedGiveTheSameStart) {
  const std::string a = create({{"game", "truchet"}, {"seed", 11}});
  const std::string b = create({{"game", "truchet"}, {"seed", 11}});
  const json sa = call("GET", "/api/games/" + a).body;
  EXPECT_EQ(sa["board"]["tiles"], call("GET", "/api/games/" + b).body["board"]["tiles"]);
  const std::string c = create({{"game", "truchet"}, {"setup", sa["setup"]}});
  EXPECT_EQ(call("GET", "/api/games/" + c).body["board"]["tiles"], sa["board"]["tiles"]);
  const Answer bad = call("POST", "/api/games", {{"game", "truchet"}, {"setup", "01"}});
  EXPECT_EQ(bad.status, 400);
}

TEST_F(ApiFixture, BadRequestsGetAStatusAndAOneLineError) {
  const std::vector<std::pair<Answer, int>> cases = {
      {call("POST", "/api/games", {{"game", "chess"}}), 400},
      {call("POST", "/api/games", {{"game", "lignes"}, {"p1", "deep blue"}}), 400},
      {call("POST", "/api/games", {{"game", 5}}), 400},
      {call("POST", "/api/games", {{"game", "lignes"}, {"seed", -1}}), 400},
      {call("POST", "/api/games", {{"game", "lignes"}, {"moves", "P0,0"}}), 400},
      {call("GET", "/api/games/nope"), 404},
      {call("POST", "/api/games/nope/play", {{"action", "P0,0"}}), 404},
      {call("GET", "/api/nothing"), 404},
      {call("PUT", "/api/games"), 404},
  };
  for (const auto& [a, status] : cases) {
    EXPECT_EQ(a.status, status) << a.body.dump();
    ASSERT_TRUE(a.body.contains("error"));
    EXPECT_EQ(a.body["error"].get<std::string>().find('\n'), std::string::npos);
  }
  // Bytes that are not UTF-8, quoted back: still a JSON answer (fuzzing found dump() throwing).
  const Reply bytes = api.handle("GET", "/api/games/\xb4\xc2", {}, "");
  EXPECT_EQ(bytes.status, 404);
  EXPECT_TRUE(json::parse(bytes.body).contains("error"));
  const Reply r = api.handle("POST", "/api/games", {}, "{not json");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(api.handle("POST", "/api/games", {}, "[1, 2]").status, 400);
}

TEST_F(ApiFixture, TheLeastRecentlyUsedGameGoesBeyondTheCap) {
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(create({{"game", "lignes"}}));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  call("GET", "/api/games/" + ids[0]);  // used: the oldest is now ids[1]
  ids.push_back(create({{"game", "lignes"}}));
  EXPECT_EQ(api.sessions(), 4u);
  EXPECT_EQ(call("GET", "/api/games/" + ids[1]).status, 404);
  EXPECT_EQ(call("GET", "/api/games/" + ids[0]).status, 200);
  EXPECT_EQ(call("DELETE", "/api/games/" + ids[0]).status, 200);
  EXPECT_EQ(api.sessions(), 3u);
}

// An untrained small network for game G, exported to DIR/NAME.pt (made if missing).
template <Game G>
std::string small_model(const std::filesystem::path& dir, const std::string& name) {
  std::filesystem::create_directories(dir);
  nets::NetConfig config;
  config.blocks = 1;
  config.channels = 8;
  const std::string path = (dir / (name + ".pt")).string();
  nets::export_untrained_model(nets::meta_for<G>(config), 1, path);
  return path;
}

TEST_F(ApiFixture, AModelAgentPlaysOnlyItsOwnGameOnTheNetworkReadAtStart) {
  const std::string path =
      small_model<Lignes>(std::filesystem::temp_directory_path() / "azg_web_model", "lignes");
  auto agents = test_agents();
  const mcts::AgentSpec spec = mcts::parse_agent_spec("az:model=" + path + ",sims=8");
  agents.push_back({"net", spec, "lignes", play::load_agent_model(spec)});
  Api with_model(all_games(), agents, Limits{}, 1);
  // The server's games think on the network read when it started, never on the file again.
  std::filesystem::remove(path);
  auto post = [&](const std::string& path, const json& body) {
    const Reply r = with_model.handle("POST", path, {}, body.dump());
    return Answer{r.status, json::parse(r.body)};
  };
  Answer a = post("/api/games", {{"game", "imbriqua"}, {"p2", "net"}});
  EXPECT_EQ(a.status, 400);
  EXPECT_NE(a.body["error"].get<std::string>().find("plays lignes only"), std::string::npos);
  a = post("/api/games", {{"game", "lignes"}, {"p1", "net"}});
  ASSERT_EQ(a.status, 201) << a.body.dump();
  const std::string id = a.body["id"];
  ASSERT_EQ(post("/api/games/" + id + "/think", json::object()).status, 202);
  for (int i = 0; i < 1000; ++i) {
    const Reply r = with_model.handle("GET", "/api/games/" + id, {}, "");
    if (json::parse(r.body)["thinking"].is_null()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const json s = json::parse(with_model.handle("GET", "/api/games/" + id, {}, "").body);
  EXPECT_EQ(s["history"], (json{"P0,0"})) << s["last_thought"].dump();
}

// The shipped models are one agent name for several games (azg serve's default): each game
// gets the agent of its own game; a game none of them plays is refused naming theirs.
TEST_F(ApiFixture, AgentsOfOneNameServeTheirOwnGames) {
  const auto dir = std::filesystem::temp_directory_path() / "azg_web_shipped";
  const std::string lignes = small_model<Lignes>(dir, "lignes");
  const std::string imbriqua = small_model<Imbriqua>(dir, "imbriqua");
  auto agents = test_agents();
  const mcts::AgentSpec spec = mcts::parse_agent_spec("az:model=shipped,sims=8");
  agents.push_back({"shipped", spec, "lignes", nets::InferenceModel::load(lignes)});
  agents.push_back({"shipped", spec, "imbriqua", nets::InferenceModel::load(imbriqua)});
  Api api(all_games(), agents, Limits{}, 1);
  for (const char* game : {"lignes", "imbriqua"}) {
    const Reply r =
        api.handle("POST", "/api/games", {}, json{{"game", game}, {"p2", "shipped"}}.dump());
    EXPECT_EQ(r.status, 201) << game << ": " << r.body;
  }
  const Reply r =
      api.handle("POST", "/api/games", {}, json{{"game", "truchet"}, {"p2", "shipped"}}.dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("plays lignes, imbriqua only, not truchet"), std::string::npos) << r.body;
  // The info lists each agent with its game, the page picks the one of the game shown.
  const json info = json::parse(api.handle("GET", "/api/info", {}, "").body);
  int shipped = 0;
  for (const auto& a : info["agents"]) shipped += a["name"] == "shipped" ? 1 : 0;
  EXPECT_EQ(shipped, 2);
  std::filesystem::remove_all(dir);
}

TEST(WebServer, ServesThePageAndTheApiOverHttp) {
  Api api(all_games(), test_agents(), Limits{}, 1);
  Server server(api);
  const int port = server.bind("127.0.0.1", 0);
  ASSERT_GT(port, 0);
  std::thread serving([&] { server.run(); });
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(5);
  auto page = client.Get("/");
  for (int i = 0; page == nullptr && i < 50; ++i) {  // run() may not be listening yet
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    page = client.Get("/");
  }
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<svg id=\"board\""), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);
  for (const char* file : {"/app.js", "/boards.js", "/board.css"}) {
    auto r = client.Get(file);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << file;
    EXPECT_EQ(r->body, std::string(static_file(file)->content));
  }
  auto missing = client.Get("/nothing.js");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto created = client.Post("/api/games", R"({"game": "lignes"})", "application/json");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201);
  EXPECT_EQ(json::parse(created->body)["legal"], (json{{{"action", "P0,0"}}}));
  auto bad = client.Post("/api/games", "{", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_TRUE(json::parse(bad->body).contains("error"));
  auto huge = client.Post("/api/games", std::string(5 << 20, ' '), "application/json");
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->status, 413);
  EXPECT_TRUE(json::parse(huge->body).contains("error"));
  server.stop();
  serving.join();
}

}  // namespace
}  // namespace azg::web
