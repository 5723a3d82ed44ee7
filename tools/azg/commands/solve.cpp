// `azg solve`: the exact value of a Connect Four position and of each of its moves (the
// solver in solver/), for one position (--moves) or a file of them (--batch, JSON lines
// out: the accuracy test set's format, play/test_positions.hpp).
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "core/error.hpp"
#include "solver/connect4_analysis.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct SolveArgs {
  std::string game;
  std::string moves;
  std::string batch;
  bool exact_moves = false;
  int table_bits = 24;
};

// The phases of the published test sets: up to 14 stones, up to 28, then the end.
std::string phase_of(int stones) {
  return stones <= 14 ? "opening" : stones <= 28 ? "middle" : "end";
}

std::vector<std::string> move_list(std::string_view moves) {
  std::vector<std::string> list;
  for (const char c : moves)
    if (c != ' ' && c != ',') list.emplace_back(1, c);
  return list;
}

nlohmann::json to_json(const std::string& moves, const Connect4& position,
                       const solver::Connect4Analysis& a) {
  const auto strings = [&](const std::vector<Action>& actions) {
    std::vector<std::string> out;
    for (const Action x : actions) out.push_back(position.action_to_string(x));
    return out;
  };
  nlohmann::json scores = nlohmann::json::object();
  for (const auto& m : a.moves) scores[position.action_to_string(m.action)] = m.score;
  nlohmann::json j = {{"moves", move_list(moves)},
                      {"stones", a.stones},
                      {"phase", phase_of(a.stones)},
                      {"score", a.score},
                      {"value", a.score > 0   ? "win"
                                : a.score < 0 ? "loss"
                                              : "draw"},
                      {"keeping", strings(a.keeping)}};
  j["optimal"] = strings(a.optimal);
  j[a.exact_moves ? "move_scores" : "move_classes"] = scores;
  return j;
}

void print_analysis(const Connect4& position, const solver::Connect4Analysis& a,
                    std::ostream& out) {
  const auto list = [&](const std::vector<Action>& actions) {
    std::string s;
    for (const Action x : actions) s += (s.empty() ? "" : " ") + position.action_to_string(x);
    return s.empty() ? std::string("none") : s;
  };
  out << "value: " << solver::describe_score(a.score, a.stones) << " for "
      << player_string(position.to_act()) << " (score " << a.score << ")\n";
  out << "optimal moves: " << list(a.optimal) << '\n';
  out << "moves that keep the value: " << list(a.keeping) << '\n';
  for (const auto& m : a.moves) {
    out << "  " << position.action_to_string(m.action) << ": ";
    if (a.exact_moves)
      out << solver::describe_score(m.score, a.stones) << " (score " << m.score << ")\n";
    else
      out << (m.score > 0 ? "win" : m.score < 0 ? "loss" : "draw") << '\n';
  }
}

// Each line: a move sequence, then optionally a published score to check against.
int solve_batch(const SolveArgs& args, solver::Connect4Solver& solver, const Io& io) {
  std::ifstream in(args.batch);
  if (!in) throw Error("cannot read " + quote_input(args.batch));
  std::string line;
  int checked = 0, disagree = 0;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string moves, expected;
    if (!(words >> moves)) continue;
    words >> expected;
    const std::string where = args.batch + ":" + std::to_string(number);
    Connect4 position;
    try {
      position = Connect4::from_moves(moves);
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
    if (position.is_terminal()) throw Error(where + ": the game is over in this position");
    const auto a = solver::analyse(solver, position, args.exact_moves);
    io.out << to_json(moves, position, a).dump() << '\n';
    if (!expected.empty()) {
      int want = 0;
      try {
        std::size_t used = 0;
        want = std::stoi(expected, &used);
        if (used != expected.size()) throw std::invalid_argument("");
      } catch (const std::exception&) {
        throw Error(where + ": the score to check, " + quote_input(expected) +
                    ", is not a whole number");
      }
      ++checked;
      if (want != a.score) {
        ++disagree;
        io.err << where << ": " << moves << " solved " << a.score << ", the file says " << want
               << '\n';
      }
    }
  }
  if (checked > 0)
    io.err << "checked " << checked << " scores against the file: " << disagree << " disagree\n";
  return disagree == 0 ? 0 : 1;
}

}  // namespace

Command add_solve(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  auto* cmd = app.add_subcommand(
      "solve", "The exact value of a Connect Four position and of each of its moves");
  add_game_option(cmd, args->game);
  auto* moves = cmd->add_option(
      "--moves", args->moves,
      "The position: a move sequence, \"4453\" or \"4 4 5 3\" (default: the start)");
  auto* batch = cmd->add_option(
      "--batch", args->batch,
      "A file of positions, one move sequence per line, each optionally followed by "
      "a published score to check; prints one JSON line per position");
  cmd->add_flag("--exact-moves", args->exact_moves,
                "Solve every move's exact score (slower; by default each move's win, draw or "
                "loss and whether it is optimal)");
  cmd->add_option("--table-bits", args->table_bits,
                  "Transposition table of 2^N entries of 8 bytes (default 24: 128 MiB)")
      ->check(CLI::Range(10, 30));
  batch->excludes(moves);
  return {cmd, [args](const Io& io) {
            if (args->game != Connect4::kName)
              throw Error("azg solve knows the solved games only: connect4 (got " +
                          quote_input(args->game) + ")");
            solver::Connect4Solver solver(args->table_bits);
            if (!args->batch.empty()) return solve_batch(*args, solver, io);
            const Connect4 position = Connect4::from_moves(args->moves);
            if (position.is_terminal())
              throw Error("the game is over in this position (" +
                          std::string(outcome_string(position.outcome())) + ")");
            const auto start = std::chrono::steady_clock::now();
            const auto a = solver::analyse(solver, position, args->exact_moves);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            io.out << position.render();
            print_analysis(position, a, io.out);
            io.out << "nodes: " << solver.nodes() << " in " << seconds << " s\n";
            return 0;
          }};
}

}  // namespace azg::cli
