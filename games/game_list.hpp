#pragma once
// The explicit list of games the tools know, and the one place where a game's name (a
// runtime string) becomes its type: with_game() calls a generic lambda with the type.
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "core/error.hpp"
#include "env/common/game.hpp"

namespace azg {

template <Game... Gs>
struct GameList {};

// GameList<Gs...> from a leading nullptr and one std::type_identity per game: the form an
// X-macro can write without a trailing comma (games/games.hpp).
template <Game... Gs>
constexpr GameList<Gs...> game_list(std::nullptr_t, std::type_identity<Gs>...) {
  return {};
}

template <Game... Gs>
constexpr int game_count(GameList<Gs...>) {
  return static_cast<int>(sizeof...(Gs));
}

// The I-th game of a list, as a type.
template <std::size_t I, Game... Gs>
auto game_at(GameList<Gs...>) -> std::tuple_element_t<I, std::tuple<Gs...>>;
template <std::size_t I, class List>
using GameAt = decltype(game_at<I>(List{}));

template <Game... Gs>
std::string game_names(GameList<Gs...>) {
  std::string names;
  ((names += (names.empty() ? "" : ", ") + std::string(Gs::kName)), ...);
  return names;
}

// Calls f(std::type_identity<G>{}) for the game named `name` and returns its result;
// throws azg::Error for an unknown name.
template <Game... Gs, class F>
int with_game(GameList<Gs...> list, std::string_view name, F&& f) {
  int result = 0;
  const bool found =
      ((name == Gs::kName ? (result = f(std::type_identity<Gs>{}), true) : false) || ...);
  if (!found)
    throw Error("unknown game " + quote_input(std::string(name)) + " (known: " + game_names(list) +
                ")");
  return result;
}

}  // namespace azg

namespace azg {

template <Game... Gs, class F>
void for_each_game(GameList<Gs...>, F&& f) {
  (f(std::type_identity<Gs>{}), ...);
}

}  // namespace azg
