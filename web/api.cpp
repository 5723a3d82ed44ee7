#include "web/api.hpp"

#include <algorithm>
#include <cstdio>

#include "core/json_number.hpp"
#include "web/http_error.hpp"

namespace azg::web {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    const std::size_t j = path.find('/', i);
    const std::string part = path.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (!part.empty()) parts.push_back(part);
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return parts;
}

nlohmann::json parse_body(const std::string& body) {
  if (body.empty()) return nlohmann::json::object();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception&) {
    throw HttpError(400, "the body is not JSON: " + quote_input(body));
  }
  if (!j.is_object()) throw HttpError(400, "the body must be a JSON object");
  return j;
}

std::string text_field(const nlohmann::json& j, const char* key, const std::string& fallback = "") {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_string()) throw HttpError(400, std::string(key) + " must be a string");
  return it->get<std::string>();
}

bool flag_field(const nlohmann::json& j, const char* key, bool fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) throw HttpError(400, std::string(key) + " must be true or false");
  return it->get<bool>();
}

// Errors quote what came in, which need not be UTF-8: invalid bytes become U+FFFD rather
// than making dump() throw.
Reply json_reply(int status, const nlohmann::json& j) {
  return {status, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
          "application/json"};
}

}  // namespace

Api::Api(std::vector<GameKind> games, std::vector<ServedAgent> agents, Limits limits,
         std::uint64_t seed)
    : games_(std::move(games)), agents_(std::move(agents)), limits_(limits), ids_(seed) {}

Api::~Api() = default;

std::size_t Api::sessions() const {
  std::lock_guard lock(mu_);
  return rooms_.size();
}

nlohmann::json Api::info() const {
  nlohmann::json games = nlohmann::json::array();
  for (const auto& g : games_) games.push_back(g.name);
  nlohmann::json agents = nlohmann::json::array();
  for (const auto& a : agents_)
    agents.push_back({{"name", a.name},
                      {"spec", a.spec.text},
                      {"game", a.game.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.game)}});
  return {{"games", games},
          {"agents", agents},
          {"limits",
           {{"max_sessions", limits_.max_sessions},
            {"max_simulations", limits_.max_simulations},
            {"max_seconds", limits_.max_seconds},
            {"default_simulations", limits_.default_simulations}}}};
}

const GameKind& Api::game(const std::string& name) const {
  for (const auto& g : games_)
    if (g.name == name) return g;
  std::string known;
  for (const auto& g : games_) known += (known.empty() ? "" : ", ") + g.name;
  throw HttpError(400, "unknown game " + quote_input(name) + " (served: " + known + ")");
}

const ServedAgent& Api::agent(const std::string& name, const std::string& game) const {
  // Agents of one name may play different games (the shipped models: one per game).
  std::string plays;
  for (const auto& a : agents_) {
    if (a.name != name) continue;
    if (a.game.empty() || a.game == game) return a;
    plays += (plays.empty() ? "" : ", ") + a.game;
  }
  if (!plays.empty())
    throw HttpError(400, "agent " + quote_input(name) + " plays " + plays + " only, not " + game);
  std::string known;
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    bool first = true;  // a name once, though it plays several games
    for (std::size_t j = 0; j < i; ++j) first = first && agents_[j].name != agents_[i].name;
    if (first) known += (known.empty() ? "" : ", ") + agents_[i].name;
  }
  throw HttpError(400, "unknown agent " + quote_input(name) +
                           " (served: " + (known.empty() ? "none" : known) + ")");
}

std::shared_ptr<GameRoom> Api::room(const std::string& id) const {
  std::lock_guard lock(mu_);
  const auto it = rooms_.find(id);
  if (it == rooms_.end())
    throw HttpError(404, "no game " + quote_input(id) + " (it may have been closed)");
  return it->second;
}

nlohmann::json Api::with_id(const std::string& id, nlohmann::json state) const {
  state["id"] = id;
  return state;
}

void Api::make_room_for_one_more() {
  // Called with mu_ held. The least recently used game that is not thinking goes.
  while (static_cast<int>(rooms_.size()) >= limits_.max_sessions) {
    auto victim = rooms_.end();
    for (auto it = rooms_.begin(); it != rooms_.end(); ++it)
      if (!it->second->thinking() &&
          (victim == rooms_.end() || it->second->last_used() < victim->second->last_used()))
        victim = it;
    if (victim == rooms_.end())
      throw HttpError(429, std::to_string(rooms_.size()) +
                               " games are open and all are thinking: try again later");
    rooms_.erase(victim);
  }
}

nlohmann::json Api::create(const nlohmann::json& request) {
  const GameKind& kind = game(text_field(request, "game"));
  Seats seats;
  for (int i = 0; i < 2; ++i) {
    const char* key = i == 0 ? "p1" : "p2";
    seats[i] = text_field(request, key, "human");
    if (seats[i] != "human") agent(seats[i], kind.name);  // known, and for this game
  }
  std::string setup = text_field(request, "setup");
  std::vector<std::string> moves;
  if (request.contains("record")) {
    // A record: a games.jsonl line as text, or the object itself.
    const auto& r = request["record"];
    const std::string line = r.is_string() ? r.get<std::string>() : r.dump();
    const GameRecord rec = kind.read_record(line);
    setup = rec.setup;
    moves = rec.actions;
  } else if (request.contains("moves")) {
    const auto& m = request["moves"];
    if (!m.is_array()) throw HttpError(400, "moves must be a list of action strings");
    for (const auto& a : m) {
      if (!a.is_string()) throw HttpError(400, "moves must be a list of action strings");
      moves.push_back(a.get<std::string>());
    }
  }
  std::uint64_t seed;
  {
    std::lock_guard lock(mu_);
    seed = ids_();
  }
  if (request.contains("seed") && !request["seed"].is_null())
    seed = json_word(request["seed"], "seed");
  const bool random_start = setup.empty() && !request.contains("record");
  auto room = std::make_shared<GameRoom>(kind, seats, seed, setup, random_start, moves);
  std::lock_guard lock(mu_);
  make_room_for_one_more();
  std::string id;
  do {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(ids_()));
    id = text;
  } while (rooms_.count(id));
  rooms_[id] = room;
  return with_id(id, room->state());
}

nlohmann::json Api::think(GameRoom& room, const std::string& id, const nlohmann::json& request) {
  std::string name = text_field(request, "agent");
  if (name.empty()) {
    // The seat to act, when an agent sits there.
    const std::string seat = room.seat_to_act().value_or("human");
    if (seat == "human") throw HttpError(400, "say which agent should think (agent)");
    name = seat;
  }
  const ServedAgent& a = agent(name, room.kind().name);
  mcts::Budget budget;
  if (request.contains("simulations") && !request["simulations"].is_null()) {
    budget.simulations = static_cast<int>(
        json_whole(request["simulations"], "simulations", 1, limits_.max_simulations));
  } else {
    const double own = mcts::spec_number(a.spec, "sims", limits_.default_simulations, 1, 1e9);
    budget.simulations = static_cast<int>(std::min<double>(own, limits_.max_simulations));
  }
  budget.seconds = limits_.max_seconds;
  if (request.contains("seconds") && !request["seconds"].is_null())
    budget.seconds = json_real(request["seconds"], "seconds", 0.001, limits_.max_seconds);
  room.think(a, budget, flag_field(request, "play", true));
  return with_id(id, room.state());
}

Reply Api::handle(const std::string& method, const std::string& path,
                  const std::map<std::string, std::string>& query, const std::string& body) {
  try {
    const auto parts = split_path(path);
    if (parts.empty() || parts[0] != "api")
      throw HttpError(404, "no such page: " + quote_input(path));
    if (parts.size() == 2 && parts[1] == "info" && method == "GET") return json_reply(200, info());
    if (parts.size() >= 2 && parts[1] == "games") {
      if (parts.size() == 2) {
        if (method == "POST") return json_reply(201, create(parse_body(body)));
        if (method == "GET") {
          std::lock_guard lock(mu_);
          nlohmann::json list = nlohmann::json::array();
          for (const auto& [id, r] : rooms_) list.push_back({{"id", id}, {"game", r->kind().name}});
          return json_reply(200, list);
        }
      }
      if (parts.size() >= 3) {
        const std::string& id = parts[2];
        if (parts.size() == 3 && method == "DELETE") {
          room(id);
          std::shared_ptr<GameRoom> gone;
          {
            std::lock_guard lock(mu_);
            gone = std::move(rooms_[id]);
            rooms_.erase(id);
          }
          return json_reply(200, {{"id", id}, {"closed", true}});
        }
        const auto r = room(id);
        if (parts.size() == 3 && method == "GET") {
          std::optional<int> ply;
          if (const auto it = query.find("ply"); it != query.end()) {
            try {
              std::size_t used = 0;
              ply = std::stoi(it->second, &used);
              if (used != it->second.size()) throw std::invalid_argument("trailing text");
            } catch (const std::exception&) {
              throw HttpError(400, "ply must be a whole number, got " + quote_input(it->second));
            }
          }
          return json_reply(200, with_id(id, r->state(ply)));
        }
        if (parts.size() == 4) {
          const std::string& verb = parts[3];
          if (verb == "record" && method == "GET") return json_reply(200, r->record());
          if (method == "POST") {
            const nlohmann::json request = parse_body(body);
            if (verb == "play") {
              const std::string action = text_field(request, "action");
              if (action.empty()) throw HttpError(400, "say which action to play (action)");
              r->play(action);
              return json_reply(200, with_id(id, r->state()));
            }
            if (verb == "undo") {
              r->undo(flag_field(request, "to_human", false));
              return json_reply(200, with_id(id, r->state()));
            }
            if (verb == "think") return json_reply(202, think(*r, id, request));
            if (verb == "stop") {
              r->stop();
              return json_reply(200, with_id(id, r->state()));
            }
          }
        }
      }
    }
    throw HttpError(404, "no such request: " + method + " " + quote_input(path));
  } catch (const HttpError& e) {
    return json_reply(e.status, {{"error", e.what()}});
  } catch (const std::exception& e) {
    return json_reply(400, {{"error", e.what()}});
  }
}

}  // namespace azg::web
