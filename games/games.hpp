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

namespace azg {

inline constexpr GameList<Imbriqua, Truchet, Imperator, Lignes, Intercept, Imperator3, Imperator5,
                          Connect4>
    kGames{};

}  // namespace azg
