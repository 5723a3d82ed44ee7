#pragma once
// A position as JSON for the web board (web/static/boards.js draws it): the game's own
// board view (env/common/board_view.hpp, built beside its rules) turned into JSON, so this
// folder names no game. Games without a view of their own (test games) show their text
// picture.
#include <nlohmann/json.hpp>

#include "env/common/board_view.hpp"

namespace azg::web {

nlohmann::json to_json(const BoardView& view);

template <class G>
nlohmann::json board_data(const G& s) {
  if constexpr (requires { board_view(s); })
    return to_json(board_view(s));
  else
    return {{"text", s.render()}};
}

}  // namespace azg::web
