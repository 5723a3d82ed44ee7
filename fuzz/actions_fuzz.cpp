// Fuzzes what a user types for a position: the --setup text and action strings, for every
// game. Input: one byte picking the game, the setup up to the first newline, then words.
// Each word is parsed in the current position; a legal one is played, any other picks a
// legal action from its hash, so the fuzzer reaches deep positions. Properties checked on
// the way: every legal action's string parses back to it, and a setup's string reads back
// to the same setup.
#include <cstdint>
#include <functional>
#include <string>

#include "env/common/notation.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

template <azg::Game G>
void check_position(const G& state) {
  if (state.is_terminal() || state.to_act() == azg::Player::kChance) return;
  azg::ActionListFor<G> actions;
  state.legal_actions(actions);
  for (const azg::Action a : actions) {
    const auto back = state.parse_action(state.action_to_string(a));
    azg::fuzz::require(back.has_value() && *back == a);
  }
}

template <azg::Game G>
void run(std::string_view input) {
  const auto newline = input.find('\n');
  const std::string setup(input.substr(0, newline));
  const std::string_view moves =
      newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
  G state;
  try {
    state = G::from_setup(setup);
  } catch (const azg::Error&) {
    state = G::from_setup("");
  }
  azg::fuzz::require(G::from_setup(state.setup_string()).setup_string() == state.setup_string());
  const auto words = azg::split_words(moves);
  for (std::size_t i = 0; i < words.size() && i < 300; ++i) {
    check_position(state);
    azg::Action a = 0;
    try {
      a = azg::parse_legal_action(state, words[i], i);
    } catch (const azg::Error&) {
      if (state.is_terminal()) return;
      azg::ActionListFor<G> actions;
      if (state.to_act() == azg::Player::kChance) {
        azg::ChanceListFor<G> outcomes;
        state.chance_outcomes(outcomes);
        for (const auto& o : outcomes) actions.push_back(o.action);
      } else {
        state.legal_actions(actions);
      }
      azg::fuzz::require(!actions.empty());  // a live position always has a move
      a = actions[std::hash<std::string>{}(words[i]) % actions.size()];
    }
    state.apply(a);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] { run<G>(input); });
  });
  return 0;
}
