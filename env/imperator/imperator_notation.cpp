// Imperator action strings (`<cell>` placements, `<from>-<to>` moves) and the text picture.
//
#include <algorithm>

#include "core/mix.hpp"
#include "env/imperator/imperator.hpp"

namespace azg {
namespace {

std::optional<int> parse_cell(const imperator::Geometry& g, std::string_view text) {
  if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + 2 * g.side || text[1] == '0')
    return std::nullopt;
  for (std::size_t i = 1; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  const int cell = g.index(std::string(text));
  if (cell < 0) return std::nullopt;
  return cell;
}

}  // namespace

template <int Side>
std::string BasicImperator<Side>::action_to_string(Action a) const {
  const auto& g = imperator::geometry(Side);
  if (!is_move(a)) return g.cells[to_of(a)].name;
  return g.cells[from_of(a)].name + "-" + g.cells[to_of(a)].name;
}

template <int Side>
std::optional<Action> BasicImperator<Side>::parse_action(std::string_view text) const {
  const auto& g = imperator::geometry(Side);
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) {
    const auto cell = parse_cell(g, text);
    if (!cell) return std::nullopt;
    return place_action(*cell);
  }
  const auto from = parse_cell(g, text.substr(0, dash)), to = parse_cell(g, text.substr(dash + 1));
  if (!from || !to) return std::nullopt;
  return move_action(*from, *to);
}

template <int Side>
std::string BasicImperator<Side>::render() const {
  // Each cell is three characters: the piece (R, W or .), its orientation (^ up, v down)
  // and, on the rim, o for a holed side (protects Red) or - for a plain one (protects
  // White). Rows are offset so the hexagon shows; row h is at the top.
  const auto& g = imperator::geometry(Side);
  std::string s;
  std::vector<int> row_first;
  int first = 0;
  for (const int size : g.row_sizes) {
    row_first.push_back(first);
    first += size;
  }
  for (int r = static_cast<int>(g.row_sizes.size()) - 1; r >= 0; --r) {
    const int size = g.row_sizes[r];
    std::string line = std::string(1, static_cast<char>('a' + r)) + "  " +
                       std::string(static_cast<std::size_t>(kGridWidth - size) * 3 / 2, ' ');
    for (int i = 0; i < size; ++i) {
      const int cell = row_first[r] + i;
      const auto& c = g.cells[cell];
      const int colour = colour_at(cell);
      line += colour == 0 ? 'R' : colour == 1 ? 'W' : '.';
      line += c.up ? '^' : 'v';
      line += !c.rim ? ' ' : c.protects == 0 ? 'o' : '-';
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line + "\n";
  }
  s += "cells numbered from 1 at the left of each row; o: holed rim (protects Red), -: plain rim "
       "(protects White)\n";
  s += "pieces: Red " + std::to_string(pieces_[0].count()) + ", White " +
       std::to_string(pieces_[1].count()) + "; placements " + std::to_string(placed_) + "/" +
       std::to_string(kPlacements) + "; moves " + std::to_string(moves_) + "/" +
       std::to_string(kMoveCap) + "\n";
  if (terminal_) return s + "result: " + std::string(outcome_string(outcome_)) + "\n";
  s += std::string("to act: ") + (mover_ == 0 ? "Red (player 0)" : "White (player 1)") + "\n";
  s += phase() == Phase::kPlacement
           ? "phase: placement\n"
           : std::string("phase: movement") +
                 (pieces_[mover_].count() <= kFreeMoveLimit ? " (free moves allowed)\n" : "\n");
  return s;
}

template class BasicImperator<3>;
template class BasicImperator<4>;
template class BasicImperator<5>;

}  // namespace azg
