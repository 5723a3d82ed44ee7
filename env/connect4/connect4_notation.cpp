// Connect Four's notation: a column's digit per action, and the compact move sequences
// ("4453") that solvers and published test sets use.
#include "core/error.hpp"
#include "env/common/notation.hpp"
#include "env/connect4/connect4.hpp"

namespace azg {

std::string Connect4::action_to_string(Action a) const {
  return std::string(1, static_cast<char>('1' + a));
}

std::optional<Action> Connect4::parse_action(std::string_view text) const {
  if (text.size() != 1 || text[0] < '1' || text[0] > '0' + kColumns) return std::nullopt;
  return static_cast<Action>(text[0] - '1');
}

Connect4 Connect4::from_moves(std::string_view moves) {
  Connect4 state;
  std::size_t index = 0;
  for (const char ch : moves) {
    if (ch == ' ' || ch == ',') continue;
    state.apply(parse_legal_action(state, std::string_view(&ch, 1), index++));
  }
  return state;
}

std::string Connect4::render() const {
  std::string s;
  for (int r = kRows - 1; r >= 0; --r) {
    s += static_cast<char>('1' + r);
    s += ' ';
    for (int c = 0; c < kColumns; ++c) {
      const int p = stone_at(c, r);
      s += p == 0 ? 'X' : p == 1 ? 'O' : '.';
      s += c + 1 < kColumns ? " " : "\n";
    }
  }
  s += "  1 2 3 4 5 6 7\n";
  s += is_terminal() ? "result: " + std::string(outcome_string(outcome())) + "\n"
                     : "to act: " + std::string(player_string(to_act())) + " (" +
                           (to_act() == Player::kP0 ? "X" : "O") + "), stone " +
                           std::to_string(moves_ + 1) + "\n";
  return s;
}

}  // namespace azg
