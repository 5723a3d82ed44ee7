#pragma once
// One game served to a browser: the session, who sits on each side (a person or a named
// agent), chance drawn by the server, undo, and an agent thinking on its own thread while
// clients poll its progress. Every method is safe to call from any thread; a change asked
// for while an agent thinks is refused (409) rather than queued.
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/rng.hpp"
#include "web/served_game.hpp"

namespace azg::web {

// "human", or an agent's name.
using Seats = std::array<std::string, 2>;

class GameRoom {
 public:
  // A game from `setup` (the game's randomised start drawn from `seed` when empty) and
  // then `moves`; throws on a bad setup or move.
  GameRoom(const GameKind& kind, Seats seats, std::uint64_t seed, const std::string& setup,
           bool random_start, const std::vector<std::string>& moves);
  ~GameRoom();
  GameRoom(const GameRoom&) = delete;
  GameRoom& operator=(const GameRoom&) = delete;

  const GameKind& kind() const { return kind_; }
  const Seats& seats() const { return seats_; }
  // Who sits on the side to decide ("human" or an agent), or nothing once the game is over.
  std::optional<std::string> seat_to_act() const;
  // The whole state (see docs/web-api.md); with `ply`, the board and side to act after
  // that many actions of the history, for replaying.
  nlohmann::json state(std::optional<int> ply = std::nullopt) const;
  nlohmann::json record() const;
  void play(const std::string& action);
  // Takes back the last decision (and the chance draws after it); with `to_human`, goes
  // on until a person is to act. Throws 409 when nothing is left to take back.
  void undo(bool to_human);
  // `agent` thinks on the current position within `budget` on a thread of its own; when
  // `play_best`, its choice is then played. Progress shows in state()["thinking"].
  void think(const ServedAgent& agent, const mcts::Budget& budget, bool play_best);
  void stop();
  bool thinking() const;
  std::chrono::steady_clock::time_point last_used() const;

 private:
  void check_idle_locked() const;
  void play_locked(const std::string& action);
  void draw_chance_locked();
  void touch_locked() const { last_used_ = std::chrono::steady_clock::now(); }
  void join();

  const GameKind& kind_;
  Seats seats_;
  mutable std::mutex mu_;
  std::unique_ptr<play::Session> session_;
  std::vector<bool> by_chance_;  // per history entry: drawn by the server's chance
  Rng rng_;
  std::uint64_t seed_;
  mutable std::chrono::steady_clock::time_point last_used_;

  // One session per agent that has thought here, following the game (it keeps its tree).
  std::map<std::string, std::unique_ptr<play::Session>> thinkers_;
  std::thread thread_;
  bool thinking_ = false;
  play::Session* thinker_ = nullptr;  // the one thinking now
  nlohmann::json progress_;           // the thinking agent's latest report
  nlohmann::json last_thought_;       // the last finished search (null before any)
};

// An agent's search as JSON: simulations, value, best action, the `top` actions by visits
// (with their lines), and every visited action's share.
nlohmann::json thought_data(const play::Thought& t, int top = 12);

}  // namespace azg::web
