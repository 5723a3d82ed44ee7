#pragma once
// Game-independent notation helpers: splitting a move list, strict replay of action
// strings with errors that name the action and its index, and whole-line formatting.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "env/common/game.hpp"

namespace azg {

// Splits on any run of whitespace.
inline std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      ++i;
    std::size_t j = i;
    while (j < text.size() &&
           !(text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
      ++j;
    if (j > i) words.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

// The legal action that `text` denotes in `state`; throws azg::Error naming the text and
// its (0-based) index in the move list when it is malformed or illegal, or when the game
// is already over.
template <Game G>
Action parse_legal_action(const G& state, std::string_view text, std::size_t index) {
  const std::string where =
      "action " + std::to_string(index) + " " + quote_input(std::string(text));
  if (state.is_terminal()) throw Error(where + ": the game is already over");
  const auto parsed = state.parse_action(text);
  if (!parsed) throw Error(where + ": malformed for this decision");
  ActionListFor<G> actions;
  state.legal_actions(actions);
  for (const Action a : actions)
    if (a == *parsed) return a;
  throw Error(where + ": illegal in this position");
}

// Replays `moves` from `start`, strictly.
template <Game G>
G replay(G state, const std::vector<std::string>& moves) {
  for (std::size_t i = 0; i < moves.size(); ++i)
    state.apply(parse_legal_action(state, moves[i], i));
  return state;
}

}  // namespace azg
