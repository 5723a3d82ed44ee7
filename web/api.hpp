#pragma once
// The web board's JSON API (docs/web-api.md), apart from HTTP: a request is a method, a
// path, query parameters and a body; the reply a status and a body. The server
// (web/server.hpp) and the tests call handle() alike.
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "web/game_room.hpp"

namespace azg::web {

struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

class Api {
 public:
  Api(std::vector<GameKind> games, std::vector<ServedAgent> agents, Limits limits,
      std::uint64_t seed);
  ~Api();
  Reply handle(const std::string& method, const std::string& path,
               const std::map<std::string, std::string>& query, const std::string& body);
  std::size_t sessions() const;

 private:
  nlohmann::json info() const;
  nlohmann::json create(const nlohmann::json& request);
  std::shared_ptr<GameRoom> room(const std::string& id) const;
  const GameKind& game(const std::string& name) const;
  const ServedAgent& agent(const std::string& name, const std::string& game) const;
  nlohmann::json think(GameRoom& room, const std::string& id, const nlohmann::json& request);
  nlohmann::json with_id(const std::string& id, nlohmann::json state) const;
  void make_room_for_one_more();

  std::vector<GameKind> games_;
  std::vector<ServedAgent> agents_;
  Limits limits_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<GameRoom>> rooms_;
  std::mt19937_64 ids_;
};

}  // namespace azg::web
