#include "protocol/referee.hpp"

#include <atomic>
#include <mutex>
#include <optional>

#include "mcts/driver.hpp"
#include "protocol/process.hpp"

namespace azg::protocol {
namespace {

using std::chrono::milliseconds;

// One engine process of a worker, started on first use and again after it failed.
struct EngineHandle {
  std::unique_ptr<LineProcess> process;
  bool offers_seed = false;
};

// The first line satisfying `wanted` within `timeout` (other lines are skipped), or why not.
struct Answer {
  std::optional<std::string> line;
  std::string failure;  // "crashed", "timed out" or the engine's own error line
};

template <class Wanted>
Answer wait_for(LineProcess& p, Wanted wanted, milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
    auto line = p.read_line(std::max(left, milliseconds(0)));
    if (!line) return {std::nullopt, p.ended() ? "crashed" : "timed out"};
    if (wanted(*line)) return {std::move(line), ""};
    if (line->starts_with("info string error"))
      return {std::nullopt, "answered " + quote_input(*line)};
  }
}

// Starts the engine if needed and completes the ugi handshake; returns a failure or "".
std::string ensure_started(EngineHandle& h, const EngineCommand& e, const RefereeOptions& o) {
  if (h.process && !h.process->ended()) return "";
  try {
    h.process = std::make_unique<LineProcess>(e.command);
  } catch (const std::exception& ex) {
    return ex.what();
  }
  h.offers_seed = false;
  if (!h.process->send("ugi")) return "crashed";
  const Answer a = wait_for(
      *h.process,
      [&](const std::string& line) {
        if (line.starts_with("option name Seed ")) h.offers_seed = true;
        return line == "ugiok";
      },
      milliseconds(o.startup_timeout_ms));
  return a.line ? "" : a.failure;
}

std::string join_moves(const std::vector<std::string>& moves) {
  std::string s;
  for (const auto& m : moves) s += " " + m;
  return s;
}

}  // namespace

std::vector<EngineCommand> parse_engine_commands(const std::vector<std::string>& items) {
  std::vector<EngineCommand> engines;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    const bool named = eq != std::string::npos && eq > 0 && item.find_first_of(" /\t") > eq;
    engines.push_back({named ? item.substr(0, eq) : "engine" + std::to_string(engines.size() + 1),
                       named ? item.substr(eq + 1) : item});
    if (engines.back().command.empty())
      throw Error("--engine " + quote_input(item) + " has no command");
    for (std::size_t i = 0; i + 1 < engines.size(); ++i)
      if (engines[i].name == engines.back().name)
        throw Error("two engines are named " + quote_input(engines.back().name));
  }
  if (engines.size() < 2) throw Error("a match needs at least two --engine");
  return engines;
}

std::vector<play::PairedGame> referee_games(
    const std::function<std::unique_ptr<play::Session>()>& new_session,
    const std::vector<EngineCommand>& engines, const std::vector<std::pair<int, int>>& pairs,
    const RefereeOptions& o, std::ostream* log) {
  if (o.games < 1 || o.concurrency < 1) throw Error("--games and --concurrency must be positive");
  if (o.simulations < 0 || o.movetime_ms < 0 || o.timeout_ms < 0)
    throw Error("limits must not be negative");
  for (const auto& [a, b] : pairs)
    if (a == b || a < 0 || b < 0 || a >= static_cast<int>(engines.size()) ||
        b >= static_cast<int>(engines.size()))
      throw Error("referee: a pair names an unknown engine or one engine twice");
  const int games = o.games + o.games % 2;
  const milliseconds move_limit(o.timeout_ms > 0    ? o.timeout_ms
                                : o.movetime_ms > 0 ? o.movetime_ms + 5000
                                                    : 60000);
  std::string go = "go";
  if (o.simulations > 0) go += " sims " + std::to_string(o.simulations);
  if (o.movetime_ms > 0) go += " movetime " + std::to_string(o.movetime_ms);

  std::vector<play::PairedGame> out(pairs.size() * static_cast<std::size_t>(games));
  std::atomic<std::size_t> next{0};
  std::atomic<int> finished{0};
  std::mutex log_mutex;
  const int workers = std::min<int>(o.concurrency, static_cast<int>(out.size()));
  mcts::run_on_threads(workers, [&](int) {
    std::vector<EngineHandle> handles(engines.size());
    for (std::size_t k; (k = next++) < out.size();) {
      const std::size_t pair = k / games, g = k % games;
      play::PairedGame& game = out[k];
      const bool a_first = g % 2 == 0;
      game.first = a_first ? pairs[pair].first : pairs[pair].second;
      game.second = a_first ? pairs[pair].second : pairs[pair].first;
      // The arena's seeding rule (play::play_pairs).
      const std::uint64_t shared = play::couple_seed(o.seed, pair, g / 2);
      auto session = new_session();
      Rng setup_rng(shared), chance(shared);
      session->random_start(setup_rng);
      const int side_engine[2] = {game.first, game.second};
      int loser = -1;  // the side that forfeits
      for (int side = 0; side < 2 && loser < 0; ++side) {
        EngineHandle& h = handles[side_engine[side]];
        std::string failure = ensure_started(h, engines[side_engine[side]], o);
        if (failure.empty()) {
          if (o.send_seeds && h.offers_seed)
            h.process->send("setoption name Seed value " +
                            std::to_string(play::agent_seed(shared, side)));
          h.process->send("uginewgame");
          h.process->send("isready");
          const Answer a = wait_for(
              *h.process, [](const std::string& l) { return l == "readyok"; },
              milliseconds(o.startup_timeout_ms));
          if (!a.line) failure = a.failure;
        }
        if (!failure.empty()) {
          loser = side;
          game.termination = engines[side_engine[side]].name + " " + failure + " before the game";
          h.process.reset();
        }
      }
      while (loser < 0 && !session->over()) {
        if (session->to_act() == Player::kChance) {
          session->play(session->sample_chance(chance));
          continue;
        }
        const int side = session->to_act() == Player::kP0 ? 0 : 1;
        const EngineCommand& e = engines[side_engine[side]];
        EngineHandle& h = handles[side_engine[side]];
        const std::string setup = session->setup();
        const bool sent =
            h.process->send(
                "position startpos" + (setup.empty() ? "" : " setup " + setup) +
                (session->history().empty() ? "" : " moves" + join_moves(session->history()))) &&
            h.process->send(go);
        const Answer a =
            sent ? wait_for(
                       *h.process, [](const std::string& l) { return l.starts_with("bestmove "); },
                       move_limit)
                 : Answer{std::nullopt, "crashed"};
        if (!a.line) {
          loser = side;
          game.termination = e.name + " " + a.failure;
          h.process.reset();  // killed; started afresh for its next game
          break;
        }
        const std::string move = a.line->substr(9);
        try {
          session->play(move);
        } catch (const std::exception&) {
          loser = side;
          game.termination = e.name + " played an illegal move " + quote_input(move);
        }
      }
      game.record = session->record();
      if (loser >= 0) game.record.outcome = loser == 0 ? Outcome::kP1Win : Outcome::kP0Win;
      if (log) {
        std::lock_guard<std::mutex> lock(log_mutex);
        *log << "game " << ++finished << "/" << out.size() << ": " << engines[game.first].name
             << " (p1) vs " << engines[game.second].name
             << " (p2): " << outcome_string(game.record.outcome)
             << (game.termination.empty() ? "" : " (" + game.termination + ")") << '\n'
             << std::flush;
      }
    }
    for (auto& h : handles)
      if (h.process && !h.process->ended()) {
        h.process->send("quit");
        wait_for(
            *h.process, [](const std::string&) { return false; }, milliseconds(2000));
      }
  });
  return out;
}

}  // namespace azg::protocol
