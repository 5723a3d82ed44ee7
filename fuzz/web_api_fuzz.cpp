// Fuzzes azg serve's JSON API (web/api.hpp) below HTTP: a sequence of requests, each
// "METHOD PATH" on one line and its body up to a line "---"; "{id}" in a path stands for
// the game the sequence last created. Whatever comes in, handle() answers: a status, a
// JSON body, and for a 4xx a one-line error; a game's state stays consistent.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "web/api.hpp"

namespace {

std::vector<azg::web::GameKind> games() {
  std::vector<azg::web::GameKind> out;
  azg::for_each_game(azg::kGames, [&](auto type) {
    out.push_back(azg::web::game_kind<typename decltype(type)::type>());
  });
  return out;
}

void check_reply(const azg::web::Reply& r) {
  azg::fuzz::require(r.status == 200 || r.status == 201 || r.status == 202 ||
                     (r.status >= 400 && r.status < 500));
  const auto j = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  azg::fuzz::require(!j.is_discarded());
  if (r.status >= 400) {
    azg::fuzz::require(j.is_object() && j.contains("error") && j["error"].is_string());
    azg::fuzz::require(j["error"].get<std::string>().find('\n') == std::string::npos);
  }
  if (j.is_object() && j.contains("history") && j.contains("ply") && !j.contains("error"))
    azg::fuzz::require(j["ply"].get<std::size_t>() <= j["history"].size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(azg::fuzz::as_text(data, size));
  // Cheap agents only: a search on each input must stay fast.
  azg::web::Api api(games(),
                    {{"random", azg::mcts::parse_agent_spec("random"), "", nullptr},
                     {"uct", azg::mcts::parse_agent_spec("mcts:sims=8"), "", nullptr}},
                    azg::web::Limits{3, 64, 1, 8}, 1);
  std::string id = "none";
  std::size_t at = 0;
  for (int requests = 0; at < input.size() && requests < 16; ++requests) {
    std::size_t end = input.find("\n---\n", at);
    if (end == std::string::npos) end = input.size();
    const std::string chunk = input.substr(at, end - at);
    at = end + 5;
    const std::size_t nl = chunk.find('\n');
    const std::string line = chunk.substr(0, nl);
    const std::string body = nl == std::string::npos ? "" : chunk.substr(nl + 1);
    const std::size_t space = line.find(' ');
    const std::string method = line.substr(0, space);
    std::string path = space == std::string::npos ? "" : line.substr(space + 1);
    std::map<std::string, std::string> query;
    if (const std::size_t q = path.find("?ply="); q != std::string::npos) {
      query["ply"] = path.substr(q + 5);
      path.resize(q);
    }
    if (const std::size_t p = path.find("{id}"); p != std::string::npos) path.replace(p, 4, id);
    const azg::web::Reply r = api.handle(method, path, query, body);
    check_reply(r);
    if (r.status == 201) id = nlohmann::json::parse(r.body)["id"].get<std::string>();
  }
  // Every game still answers with a consistent state once its agent has finished.
  const auto list = nlohmann::json::parse(api.handle("GET", "/api/games", {}, "").body);
  for (const auto& g : list)
    check_reply(api.handle("GET", "/api/games/" + g["id"].get<std::string>(), {}, ""));
  return 0;
}
