#pragma once
// The product games, in the order `azg games` lists them. Adding a game is one entry here.
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"
#include "tools/azg/registry.hpp"

namespace azg {

inline constexpr GameList<Imbriqua, Truchet, Imperator, Lignes, Intercept> kGames{};

}  // namespace azg
