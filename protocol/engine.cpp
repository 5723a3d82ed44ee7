#include "protocol/engine.hpp"

#include <iomanip>
#include <limits>
#include <sstream>

#include "env/common/notation.hpp"
#include "play/agents.hpp"

namespace azg::protocol {
namespace {

// A whole number in [min, max] named `what`, or an azg::Error saying what is wrong.
long long whole_number(const std::string& text, const std::string& what, long long min,
                       long long max) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < min || v > max)
    throw Error(what + " must be a whole number in [" + std::to_string(min) + ", " +
                std::to_string(max) + "], got " + quote_input(text));
  return v;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string info_line(const play::Thought& t, long long ms) {
  std::string line = "info sims " + std::to_string(t.simulations) + " time " + std::to_string(ms) +
                     " value " + fixed(t.value, 3);
  if (!t.principal_variation.empty()) {
    line += " pv";
    for (const auto& a : t.principal_variation) line += " " + a;
  }
  if (!t.actions.empty()) {
    line += " top";
    for (std::size_t i = 0; i < t.actions.size() && i < 5; ++i)
      line += " " + t.actions[i].action + ":" + fixed(t.actions[i].share, 3);
  }
  return line;
}

}  // namespace

Engine::Engine(std::unique_ptr<play::Session> session, const mcts::AgentSpec& spec,
               std::ostream& out)
    : session_(std::move(session)), spec_(spec), out_(out) {
  default_simulations_ = play::spec_simulations(spec);
  fresh_agent();  // a bad spec or model fails here, before any command
}

void Engine::fresh_agent() {
  session_->set_agent(spec_, seed_);
  agent_ready_ = true;
}

Engine::~Engine() {
  session_->stop();
  if (search_.joinable()) search_.join();
}

void Engine::say(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

void Engine::finish_search() {
  if (search_.joinable()) search_.join();
}

void Engine::run(std::istream& in) {
  std::string line;
  while (std::getline(in, line))
    if (!command(line)) return;  // quit: already stopped and joined
  // End of input: a search with a limit still answers (`printf 'go\n' | azg engine ...`
  // gets its full search); one without a limit is stopped.
  if (open_ended_) session_->stop();
  finish_search();
}

bool Engine::command(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> words = split_words(line);
  if (words.empty()) return true;
  const std::string& verb = words[0];
  try {
    if (verb == "quit") {
      session_->stop();
      finish_search();
      return false;
    }
    if (verb == "stop") {
      session_->stop();
      return true;
    }
    if (verb == "isready") return say("readyok"), true;
    if (verb == "ugi") return ugi(), true;
    if (verb == "query") return query(words), true;
    if (verb == "legal") return legal(), true;
    if (verb == "show") return show(), true;
    const bool changes_state =
        verb == "setoption" || verb == "uginewgame" || verb == "position" || verb == "go";
    if (!changes_state) throw Error("unknown command " + quote_input(verb));
    if (busy()) throw Error(quote_input(verb) + " while searching: send stop first");
    finish_search();
    if (verb == "setoption")
      setoption(words);
    else if (verb == "uginewgame")
      new_game();
    else if (verb == "position")
      position(words);
    else
      go(words);
  } catch (const std::exception& e) {
    error(e.what());
  }
  return true;
}

void Engine::ugi() {
  say("id name azg " + std::string(session_->game()) + " " + spec_.text);
  say("id author the azg developers");
  say("option name Simulations type spin default " + std::to_string(default_simulations_) +
      " min 1 max " + std::to_string(mcts::max_simulations()));
  say("option name MoveTime type spin default 0 min 0 max 86400000");
  say("option name Seed type spin default 1 min 0 max " +
      std::to_string(std::numeric_limits<long long>::max()));
  say("option name ProgressInterval type spin default 1000 min 10 max 3600000");
  say("ugiok");
}

void Engine::setoption(const std::vector<std::string>& words) {
  // setoption name N value V (names are single words here).
  if (words.size() != 5 || words[1] != "name" || words[3] != "value")
    throw Error("expected 'setoption name NAME value VALUE'");
  const std::string& name = words[2];
  const std::string& value = words[4];
  if (name == "Simulations")
    default_simulations_ = static_cast<int>(whole_number(value, name, 1, mcts::max_simulations()));
  else if (name == "MoveTime")
    move_time_ms_ = static_cast<int>(whole_number(value, name, 0, 86400000));
  else if (name == "ProgressInterval")
    progress_ms_ = static_cast<int>(whole_number(value, name, 10, 3600000));
  else if (name == "Seed") {
    seed_ = static_cast<std::uint64_t>(
        whole_number(value, name, 0, std::numeric_limits<long long>::max()));
    agent_ready_ = false;  // the next game's agent is drawn from the new seed
  } else
    throw Error("unknown option " + quote_input(name) +
                " (known: Simulations, MoveTime, Seed, ProgressInterval)");
}

void Engine::new_game() {
  session_->reset("", {});
  fresh_agent();  // a fresh tree and generator per game
}

void Engine::position(const std::vector<std::string>& words) {
  // position startpos [setup S] [moves A B ...]
  if (words.size() < 2 || words[1] != "startpos")
    throw Error("expected 'position startpos [setup S] [moves ...]'");
  std::size_t i = 2;
  std::string setup;
  if (i < words.size() && words[i] == "setup") {
    if (i + 1 >= words.size()) throw Error("'setup' needs the setup string");
    setup = words[i + 1];
    i += 2;
  }
  std::vector<std::string> moves;
  if (i < words.size()) {
    if (words[i] != "moves")
      throw Error("expected 'moves' after the start, got " + quote_input(words[i]));
    moves.assign(words.begin() + static_cast<long>(i) + 1, words.end());
  }
  if (!agent_ready_) fresh_agent();
  session_->reset(setup, moves);
}

void Engine::go(const std::vector<std::string>& words) {
  mcts::Budget budget;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "infinite") {
      budget.infinite = true;
      continue;
    }
    if (i + 1 >= words.size()) throw Error(quote_input("go " + w) + " needs a value");
    if (w == "sims" || w == "nodes")
      budget.simulations =
          static_cast<int>(whole_number(words[++i], w, 1, mcts::max_simulations()));
    else if (w == "movetime")
      budget.seconds = whole_number(words[++i], w, 1, 86400000) / 1000.0;
    else
      throw Error("unknown go parameter " + quote_input(w) +
                  " (known: sims, nodes, movetime, infinite)");
  }
  if (budget.simulations == 0 && budget.seconds == 0 && !budget.infinite) {
    if (move_time_ms_ > 0)
      budget.seconds = move_time_ms_ / 1000.0;
    else
      budget.simulations = default_simulations_;
  }
  if (session_->over()) throw Error("the game is over");
  if (session_->to_act() == Player::kChance)
    throw Error("chance acts here, not a player: send its outcome with position ... moves");
  if (!agent_ready_) fresh_agent();
  open_ended_ = budget.infinite && budget.simulations == 0 && budget.seconds == 0;
  session_->set_budget(budget);  // here, so a stop sent at once is not lost
  searching_ = true;
  search_ = std::thread([this] {
    const auto start = std::chrono::steady_clock::now();
    auto ms = [&] {
      return static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now() - start)
                                        .count());
    };
    std::vector<std::string> last;
    try {
      const play::Thought t =
          session_->think_now([&](const play::Thought& now) { say(info_line(now, ms())); },
                              std::chrono::milliseconds(progress_ms_));
      last = {info_line(t, ms()), "bestmove " + t.best};
    } catch (const std::exception& e) {
      last = {"info string error " + std::string(e.what())};
    }
    // Not busy before the answer goes out: a client may send its next command at once.
    searching_ = false;
    for (const auto& line : last) say(line);
  });
}

void Engine::query(const std::vector<std::string>& words) {
  if (words.size() != 2) throw Error("expected 'query p1turn|gameover|result|tomove'");
  const std::string& what = words[1];
  const bool over = session_->over();
  if (what == "gameover")
    say(std::string("response ") + (over ? "true" : "false"));
  else if (what == "p1turn")
    say(std::string("response ") + (!over && session_->to_act() == Player::kP0 ? "true" : "false"));
  else if (what == "tomove")
    say("response " + (over ? std::string("none") : play::player_name(session_->to_act())));
  else if (what == "result") {
    if (!over) return say("response none");
    const Outcome o = session_->outcome();
    say(std::string("response ") + (o == Outcome::kP0Win   ? "p1win"
                                    : o == Outcome::kP1Win ? "p2win"
                                                           : "draw"));
  } else
    throw Error("unknown query " + quote_input(what) +
                " (known: p1turn, gameover, result, tomove)");
}

void Engine::legal() {
  std::string line = "legal";
  const bool chance = !session_->over() && session_->to_act() == Player::kChance;
  for (const auto& a : session_->legal())
    line += " " + a.action + (chance ? ":" + fixed(a.probability, 6) : "");
  say(line);
}

void Engine::show() {
  std::istringstream board(session_->board());
  std::string line;
  std::lock_guard<std::mutex> lock(out_mutex_);
  while (std::getline(board, line)) out_ << line << '\n';
  out_ << "showok\n" << std::flush;
}

}  // namespace azg::protocol
