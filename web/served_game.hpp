#pragma once
// What the web server offers: the games (a session maker, a board drawer and a record
// reader per game, made from the game's type once, in tools/) and the named agents.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mcts/agent_spec.hpp"
#include "play/game_record_reader.hpp"
#include "play/session.hpp"
#include "web/board_data.hpp"

namespace azg::web {

struct GameKind {
  std::string name;
  std::function<std::unique_ptr<play::Session>()> make_session;
  // The position of a session made by make_session, as data for the board.
  std::function<nlohmann::json(const play::Session&)> board;
  // A record line (trainer, arena or match games.jsonl), replayed strictly.
  std::function<GameRecord(std::string_view line)> read_record;
};

template <Game G>
GameKind game_kind() {
  return {std::string(G::kName), [] { return std::make_unique<play::GameSession<G>>(); },
          [](const play::Session& s) {
            return board_data(dynamic_cast<const play::GameSession<G>&>(s).state());
          },
          [](std::string_view line) { return play::read_game_record<G>(line, "record").record; }};
}

// An agent by the name clients use; `game` is set when it plays one game only (a model).
struct ServedAgent {
  std::string name;
  mcts::AgentSpec spec;
  std::string game;
  // An az agent's network, read once when the server starts and shared by every game.
  std::shared_ptr<nets::InferenceModel> model;
};

// What one request or the whole server may take.
struct Limits {
  int max_sessions = 32;          // the least recently used idle game goes beyond this
  int max_simulations = 100000;   // per think request
  double max_seconds = 30;        // per think request
  int default_simulations = 400;  // when neither the request nor the agent's spec says
};

}  // namespace azg::web
