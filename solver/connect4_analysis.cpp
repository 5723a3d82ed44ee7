// A position and its moves through the solver's eyes (connect4_analysis.hpp).
#include "solver/connect4_analysis.hpp"

namespace azg::solver {

Connect4Analysis analyse(Connect4Solver& solver, const Connect4& position, bool exact_moves) {
  Connect4Analysis a;
  a.stones = position.stones_played();
  a.score = solver.solve(position);
  a.exact_moves = exact_moves;
  ActionListFor<Connect4> actions;
  position.legal_actions(actions);
  for (const Action action : actions) {
    Connect4 child = position;
    child.apply(action);
    int score = 0;
    bool optimal = false;
    if (child.is_terminal()) {
      // The stone just played made four (a draw fills the board): nothing is better.
      if (child.outcome() != Outcome::kDraw) score = (Connect4::kCells + 1 - a.stones) / 2;
      optimal = score == a.score;
      if (!exact_moves) score = sign_of(score);
    } else if (exact_moves) {
      score = -solver.solve(child);
      optimal = score == a.score;
    } else {
      score = -solver.solve_weak(child);
      // Same class; then the move is optimal unless the child's score stays above -best.
      optimal = score == sign_of(a.score) && (a.score == 0 || !solver.at_least(child, 1 - a.score));
    }
    a.moves.push_back({action, score});
    if (optimal) a.optimal.push_back(action);
    if (sign_of(score) == sign_of(a.score)) a.keeping.push_back(action);
  }
  return a;
}

}  // namespace azg::solver
