#include "web/game_room.hpp"

#include <algorithm>
#include <functional>

#include "web/http_error.hpp"

namespace azg::web {

nlohmann::json thought_data(const play::Thought& t, int top) {
  nlohmann::json actions = nlohmann::json::array();
  nlohmann::json shares = nlohmann::json::object();  // every visited action, for the heat map
  for (const auto& a : t.actions) {
    if (a.visits > 0) shares[a.action] = a.share;
    if (static_cast<int>(actions.size()) >= top) continue;
    actions.push_back({{"action", a.action},
                       {"visits", a.visits},
                       {"share", a.share},
                       {"value", a.value},
                       {"prior", a.prior},
                       {"pv", a.pv}});
  }
  return {{"simulations", t.simulations},
          {"value", t.value},
          {"best", t.best},
          {"actions", actions},
          {"shares", shares}};
}

namespace {

nlohmann::json position_data(const GameKind& kind, const play::Session& s) {
  nlohmann::json legal = nlohmann::json::array();
  for (const auto& l : s.legal()) {
    nlohmann::json a = {{"action", l.action}};
    if (l.probability > 0) a["probability"] = l.probability;
    legal.push_back(std::move(a));
  }
  const bool over = s.over();
  return {
      {"board", kind.board(s)},
      {"over", over},
      {"to_act", over ? nlohmann::json(nullptr) : nlohmann::json(play::player_name(s.to_act()))},
      {"result",
       over ? nlohmann::json(std::string(outcome_string(s.outcome()))) : nlohmann::json(nullptr)},
      {"legal", legal}};
}

}  // namespace

GameRoom::GameRoom(const GameKind& kind, Seats seats, std::uint64_t seed, const std::string& setup,
                   bool random_start, const std::vector<std::string>& moves)
    : kind_(kind),
      seats_(std::move(seats)),
      session_(kind.make_session()),
      rng_(seed),
      seed_(seed) {
  if (random_start) {
    session_->random_start(rng_);
    for (const auto& m : moves) session_->play(m);
  } else {
    session_->reset(setup, moves);
  }
  by_chance_.assign(session_->history().size(), false);
  draw_chance_locked();
  touch_locked();
}

GameRoom::~GameRoom() {
  stop();
  join();
}

void GameRoom::join() {
  if (thread_.joinable()) thread_.join();
}

std::optional<std::string> GameRoom::seat_to_act() const {
  std::lock_guard lock(mu_);
  if (session_->over()) return std::nullopt;  // chance is drawn at once: a player acts otherwise
  return seats_[session_->to_act() == Player::kP0 ? 0 : 1];
}

bool GameRoom::thinking() const {
  std::lock_guard lock(mu_);
  return thinking_;
}

std::chrono::steady_clock::time_point GameRoom::last_used() const {
  std::lock_guard lock(mu_);
  return last_used_;
}

void GameRoom::check_idle_locked() const {
  if (thinking_) throw HttpError(409, "an agent is thinking here: wait for it or stop it first");
}

nlohmann::json GameRoom::state(std::optional<int> ply) const {
  std::lock_guard lock(mu_);
  touch_locked();
  const auto& history = session_->history();
  nlohmann::json j = {{"game", kind_.name},
                      {"setup", session_->setup()},
                      {"seats", {{"p1", seats_[0]}, {"p2", seats_[1]}}},
                      {"history", history},
                      {"by_chance", by_chance_},
                      {"ply", history.size()},
                      {"thinking", thinking_ ? progress_ : nlohmann::json(nullptr)},
                      {"last_thought", last_thought_}};
  if (ply && (*ply < 0 || *ply > static_cast<int>(history.size())))
    throw HttpError(400, "ply must be in [0, " + std::to_string(history.size()) + "]");
  if (ply && *ply < static_cast<int>(history.size())) {
    // A replay view: the same game replayed to that ply.
    auto view = kind_.make_session();
    view->reset(session_->setup(),
                std::vector<std::string>(history.begin(), history.begin() + *ply));
    j.update(position_data(kind_, *view));
    j["ply"] = *ply;
  } else {
    j.update(position_data(kind_, *session_));
  }
  return j;
}

nlohmann::json GameRoom::record() const {
  std::lock_guard lock(mu_);
  touch_locked();
  const GameRecord r = session_->record();
  nlohmann::json j = {{"game", kind_.name},   {"setup", r.setup},
                      {"actions", r.actions}, {"result", std::string(outcome_string(r.outcome))},
                      {"p1", seats_[0]},      {"p2", seats_[1]}};
  if (!session_->over()) j["termination"] = "unfinished";
  return j;
}

void GameRoom::draw_chance_locked() {
  while (!session_->over() && session_->to_act() == Player::kChance) {
    session_->play(session_->sample_chance(rng_));
    by_chance_.push_back(true);
  }
}

void GameRoom::play_locked(const std::string& action) {
  if (session_->over()) throw HttpError(409, "the game is over");
  session_->play(action);  // throws azg::Error on a malformed or illegal action
  by_chance_.push_back(false);
  draw_chance_locked();
}

void GameRoom::play(const std::string& action) {
  std::lock_guard lock(mu_);
  touch_locked();
  check_idle_locked();
  play_locked(action);
}

void GameRoom::undo(bool to_human) {
  std::lock_guard lock(mu_);
  touch_locked();
  check_idle_locked();
  auto undo_one = [&] {
    while (!by_chance_.empty() && by_chance_.back()) {
      session_->undo();
      by_chance_.pop_back();
    }
    if (by_chance_.empty()) return false;
    session_->undo();
    by_chance_.pop_back();
    return true;
  };
  auto human_to_act = [&] {
    const Player p = session_->to_act();
    return !session_->over() && p != Player::kChance && seats_[p == Player::kP0 ? 0 : 1] == "human";
  };
  if (std::find(by_chance_.begin(), by_chance_.end(), false) == by_chance_.end())
    throw HttpError(409, "nothing to take back");
  undo_one();
  if (to_human)
    while (!human_to_act() && undo_one()) {
    }
}

void GameRoom::stop() {
  std::lock_guard lock(mu_);
  if (thinking_ && thinker_) thinker_->stop();
}

void GameRoom::think(const ServedAgent& agent, const mcts::Budget& budget, bool play_best) {
  std::unique_lock lock(mu_);
  touch_locked();
  check_idle_locked();
  if (session_->over()) throw HttpError(409, "the game is over");
  join();  // the former search's thread has finished (thinking_ is false)
  auto& thinker = thinkers_[agent.name];
  if (!thinker) {
    auto made = kind_.make_session();
    made->set_agent(agent.spec, seed_ ^ std::hash<std::string>{}(agent.name), agent.model);
    thinker = std::move(made);
  }
  thinker->reset(session_->setup(), session_->history());
  thinker->set_budget(budget);  // before the thread starts, so a stop() cannot be lost
  thinker_ = thinker.get();
  thinking_ = true;
  const std::size_t ply = session_->history().size();
  const std::string player = play::player_name(session_->to_act());
  progress_ = {{"agent", agent.name},
               {"ply", ply},
               {"player", player},
               {"simulations", 0},
               {"value", 0},
               {"best", ""},
               {"actions", nlohmann::json::array()}};
  thread_ = std::thread([this, name = agent.name, play_best, ply, player] {
    nlohmann::json done;
    try {
      const play::Thought t = thinker_->think_now(
          [&](const play::Thought& p) {
            std::lock_guard progress_lock(mu_);
            progress_ = thought_data(p);
            progress_["agent"] = name;
            progress_["ply"] = ply;
            progress_["player"] = player;
          },
          std::chrono::milliseconds(200));
      done = thought_data(t);
      done["agent"] = name;
      done["ply"] = ply;
      done["player"] = player;
    } catch (const std::exception& e) {
      done = {{"agent", name}, {"ply", ply}, {"player", player}, {"error", e.what()}};
    }
    std::lock_guard done_lock(mu_);
    if (play_best && !done.contains("error")) {
      try {
        play_locked(done["best"].get<std::string>());
        done["played"] = true;
      } catch (const std::exception& e) {
        done["error"] = e.what();
      }
    }
    last_thought_ = std::move(done);
    thinking_ = false;
    thinker_ = nullptr;
  });
}

}  // namespace azg::web
