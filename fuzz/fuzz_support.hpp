#pragma once
// What every fuzz target shares: the contract that bad input ends in azg::Error (which the
// tools print as one line) and nothing else, and the choice of game from the first byte.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <type_traits>

#include "core/error.hpp"
#include "games/games.hpp"

namespace azg::fuzz {

// Runs `f`; azg::Error is the expected answer to bad input. Any other exception escapes,
// and libFuzzer (or corpus_main) reports it as a crash: an input the code did not expect.
template <class F>
void expect_only_errors(F&& f) {
  try {
    f();
  } catch (const Error&) {
  }
}

// A property that must hold for every input (a round trip, a bound): aborts when not.
inline void require(bool ok) {
  if (!ok) std::abort();
}

// The first byte picks one of the seven game types (the five games and Imperator's two
// board sizes); the rest is the input proper.
template <class F>
void with_game_from_byte(std::string_view& input, F&& f) {
  if (input.empty()) return;
  const int pick = static_cast<unsigned char>(input[0]) % 7;
  input.remove_prefix(1);
  int i = 0;
  for_each_game(kGames, [&](auto type) {
    if (i++ == pick) f(type);
  });
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace azg::fuzz
