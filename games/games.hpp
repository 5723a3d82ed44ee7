#pragma once
// The product games, in the order `azg games` lists them, then the variants (Imperator on
// boards of side 3 and 5), then the reference games (Connect Four). Adding a game is one
// entry here.
#include "env/connect4/connect4.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "games/game_list.hpp"

// Every game once, as an X-macro: kGames below is made from it, and so are the explicit
// instantiations that compile a game's heavy templates once for the whole build instead of
// once in every file that dispatches on the game (play/agents.hpp; games/CMakeLists.txt
// counts the entries of this macro to compile one file per game).
#define AZG_FOR_EACH_GAME(X) \
  X(Imbriqua) X(Truchet) X(Imperator) X(Lignes) X(Intercept) X(Imperator3) X(Imperator5) X(Connect4)

namespace azg {

#define AZG_GAME_LIST_ENTRY(G) \
  , std::type_identity<G> {}
inline constexpr auto kGames = game_list(nullptr AZG_FOR_EACH_GAME(AZG_GAME_LIST_ENTRY));
#undef AZG_GAME_LIST_ENTRY

}  // namespace azg
