#pragma once
// What the solver says of a position and of each of its moves: the exact score, every
// move's win/draw/loss class (or, slower, its exact score), the optimal moves (those that
// keep the best score) and the moves that keep the solved class (a win stays a win, a
// draw a draw). `azg solve` prints it; the accuracy test set stores it.
#include <optional>
#include <string>
#include <vector>

#include "solver/connect4_solver.hpp"

namespace azg::solver {

struct MoveValue {
  Action action;
  int score;  // from the mover's side: exact, or -1/0/1 when only the class was solved
};

struct Connect4Analysis {
  int stones = 0;
  int score = 0;                 // exact
  std::vector<MoveValue> moves;  // every legal move, in column order
  bool exact_moves = false;      // moves[].score exact rather than a class
  std::vector<Action> optimal;   // keep the best score
  std::vector<Action> keeping;   // keep the sign of the score
};

// With exact_moves false, each move costs at most three null-window searches (its class,
// then whether it reaches the best score) instead of a bisection. Throws azg::Error for a
// finished game.
Connect4Analysis analyse(Connect4Solver& solver, const Connect4& position, bool exact_moves);

// -1, 0 or 1.
constexpr int sign_of(int score) {
  return (score > 0) - (score < 0);
}

}  // namespace azg::solver
