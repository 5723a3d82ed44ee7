#pragma once
// Each game's position as data for the web board (web/static/boards.js draws it): pieces
// by the rules' square names, plus what a player sees beside the board (cards, counters,
// phase). Hidden information stays hidden: Imbriqua's unrevealed cards are null.
#include <nlohmann/json.hpp>

#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"

namespace azg::web {

nlohmann::json board_data(const Imbriqua& s);
nlohmann::json board_data(const Truchet& s);
nlohmann::json board_data(const Lignes& s);
nlohmann::json board_data(const Intercept& s);
template <int Side>
nlohmann::json board_data(const BasicImperator<Side>& s);

// Games without a drawing of their own (test games) show their text picture.
template <class G>
nlohmann::json board_data(const G& s) {
  return {{"text", s.render()}};
}

}  // namespace azg::web
