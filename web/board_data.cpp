#include "web/board_data.hpp"

#include <string>
#include <type_traits>

namespace azg::web {

nlohmann::json to_json(const BoardView& view) {
  return std::visit(
      [](const auto& v) -> nlohmann::json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, BoardView::List>) {
          nlohmann::json items = nlohmann::json::array();
          for (const auto& item : v) items.push_back(to_json(item));
          return items;
        } else if constexpr (std::is_same_v<T, BoardView::Fields>) {
          nlohmann::json fields = nlohmann::json::object();
          for (const auto& [name, item] : v) fields[name] = to_json(item);
          return fields;
        } else {
          return v;  // bool, integer, text
        }
      },
      view.value());
}

}  // namespace azg::web
