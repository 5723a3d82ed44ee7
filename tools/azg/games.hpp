#pragma once
// The product games, in the order `azg games` lists them. Adding a game is one entry here.
#include "env/imbriqua/imbriqua.hpp"
#include "env/lignes/lignes.hpp"
#include "tools/azg/registry.hpp"

namespace azg {

inline constexpr GameList<Imbriqua, Lignes> kGames{};

}  // namespace azg
