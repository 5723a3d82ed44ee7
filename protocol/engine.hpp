#pragma once
// `azg engine`: a UGI-shaped text protocol on a game session (docs/protocol.md). Commands
// are read one line at a time; a search runs on its own thread, so `stop`, `isready` and
// `quit` are answered while it runs. Every bad line gets one `info string error ...` line
// and the engine goes on; end of input ends it cleanly.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "mcts/agent_spec.hpp"
#include "play/session.hpp"

namespace azg::protocol {

class Engine {
 public:
  // `session` is the game; `spec` the agent that thinks (its sims are the default budget).
  Engine(std::unique_ptr<play::Session> session, const mcts::AgentSpec& spec, std::ostream& out);
  ~Engine();

  // Reads commands until `quit` or end of input (where a limited search still answers).
  void run(std::istream& in);
  // One command line; false after `quit`.
  bool command(const std::string& line);
  // Waits until a running search has answered (tests, and the end of input).
  void wait() { finish_search(); }

 private:
  void say(const std::string& line);
  void error(const std::string& message) { say("info string error " + message); }
  bool busy() const { return searching_.load(); }
  void finish_search();  // joins a finished or stopped search
  void fresh_agent();    // a new agent from the spec and the Seed option

  void ugi();
  void setoption(const std::vector<std::string>& words);
  void new_game();
  void position(const std::vector<std::string>& words);
  void go(const std::vector<std::string>& words);
  void query(const std::vector<std::string>& words);
  void legal();
  void show();

  std::unique_ptr<play::Session> session_;
  mcts::AgentSpec spec_;
  std::ostream& out_;
  std::mutex out_mutex_;
  std::thread search_;
  std::atomic<bool> searching_{false};
  bool open_ended_ = false;  // the running search has no limit but stop
  int default_simulations_;
  std::uint64_t seed_ = 1;
  int move_time_ms_ = 0;
  int progress_ms_ = 1000;
  bool agent_ready_ = false;
};

}  // namespace azg::protocol
