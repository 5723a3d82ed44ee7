#pragma once
// A position as plain data for clients that draw it (the web board): a small tree of
// values (null, booleans, integers, text, lists and named fields) that each game builds
// beside its rules with `BoardView board_view(const G&)`. web/ turns any of them into JSON
// without knowing the game, and the rules floor needs no JSON library. Hidden information
// stays out of a view (Imbriqua's unrevealed cards are null).
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace azg {

class BoardView {
 public:
  using List = std::vector<BoardView>;
  using Fields = std::vector<std::pair<std::string, BoardView>>;  // in the order set
  using Value = std::variant<std::monostate, bool, std::int64_t, std::string, List, Fields>;

  BoardView() = default;  // null
  BoardView(bool b) : value_(b) {}
  BoardView(int n) : value_(std::int64_t{n}) {}
  BoardView(std::int64_t n) : value_(n) {}
  BoardView(const char* s) : value_(std::string(s)) {}
  BoardView(std::string s) : value_(std::move(s)) {}
  BoardView(List items) : value_(std::move(items)) {}

  static BoardView list() { return BoardView(List{}); }
  static BoardView fields() {
    BoardView v;
    v.value_ = Fields{};
    return v;
  }
  // Appends to a list; returns *this for chaining.
  BoardView& push(BoardView item) {
    std::get<List>(value_).push_back(std::move(item));
    return *this;
  }
  // Sets a named field (a later set of the same name is not checked: builders set each once).
  BoardView& set(std::string name, BoardView item) {
    std::get<Fields>(value_).emplace_back(std::move(name), std::move(item));
    return *this;
  }
  const Value& value() const { return value_; }

 private:
  Value value_;
};

}  // namespace azg
