// Lignes action strings (`P<x>,<y>`, `M<x>,<y><D>`, `X<x>,<y>`, `pass`) and the text board.
#include <algorithm>
#include <bit>
#include <climits>
#include <cstdio>
#include <cstring>

#include "core/strict_int.hpp"
#include "env/lignes/lignes.hpp"

namespace azg {
namespace {
constexpr char kDirLetters[] = "NESW";
// Coordinates stay within about 110 cells of the origin; the action code holds +-127.
constexpr int kCoordLimit = 127;
}  // namespace

std::string Lignes::action_to_string(Action a) const {
  const std::string cell = std::to_string(x_of(a)) + "," + std::to_string(y_of(a));
  switch (kind_of(a)) {
    case kPlaceKind:
      return "P" + cell;
    case kMoveKind:
      return "M" + cell + kDirLetters[dir_of(a)];
    case kCaptureKind:
      return "X" + cell;
    default:
      return "pass";
  }
}

std::optional<Action> Lignes::parse_action(std::string_view text) const {
  if (text == "pass") return kPass;
  if (text.empty()) return std::nullopt;
  Kind kind;
  switch (text[0]) {
    case 'P':
      kind = kPlaceKind;
      break;
    case 'M':
      kind = kMoveKind;
      break;
    case 'X':
      kind = kCaptureKind;
      break;
    default:
      return std::nullopt;
  }
  std::size_t pos = 1;
  const auto x = parse_strict_int(text, pos, kCoordLimit);
  if (!x || pos >= text.size() || text[pos] != ',') return std::nullopt;
  ++pos;
  const auto y = parse_strict_int(text, pos, kCoordLimit);
  if (!y) return std::nullopt;
  int dir = 0;
  if (kind == kMoveKind) {
    if (pos + 1 != text.size()) return std::nullopt;
    const char* d = std::strchr(kDirLetters, text[pos]);
    if (d == nullptr || *d == '\0') return std::nullopt;
    dir = static_cast<int>(d - kDirLetters);
  } else if (pos != text.size()) {
    return std::nullopt;
  }
  return make_action(kind, *x, *y, dir);
}

std::string Lignes::render() const {
  int min_x = INT_MAX, max_x = INT_MIN, min_y = INT_MAX, max_y = INT_MIN;
  for (int r = 0; r < kRows; ++r)
    for (std::uint64_t o = occupied(r); o; o &= o - 1) {
      const int x = std::countr_zero(o) + origin_x_, y = r + origin_y_;
      min_x = std::min(min_x, x), max_x = std::max(max_x, x);
      min_y = std::min(min_y, y), max_y = std::max(max_y, y);
    }
  if (min_x == INT_MAX) min_x = max_x = min_y = max_y = 0;
  const bool show_hole = phase_ == Phase::kFill && !terminal_;
  const int hole_x = hole_col_ + origin_x_, hole_y = hole_row_ + origin_y_;
  std::string s;
  char buf[16];
  for (int y = max_y + 1; y >= min_y - 1; --y) {
    std::snprintf(buf, sizeof buf, "%4d ", y);
    s += buf;
    for (int x = min_x - 1; x <= max_x + 1; ++x) {
      const int p = pawn_at(x, y);
      const char c = p == 0                                      ? 'L'
                     : p == 1                                    ? 'D'
                     : (show_hole && x == hole_x && y == hole_y) ? '*'
                                                                 : '.';
      s += "  ";
      s += c;
    }
    s += '\n';
  }
  s += "     ";
  for (int x = min_x - 1; x <= max_x + 1; ++x) {
    std::snprintf(buf, sizeof buf, "%3d", x);
    s += buf;
  }
  s += "\n";
  const int placed_by[2] = {(placed_ + 1) / 2, placed_ / 2};
  s += "placed: Light " + std::to_string(placed_by[0]) + "/20, Dark " +
       std::to_string(placed_by[1]) + "/20; captures: Light " + std::to_string(captures_[0]) +
       ", Dark " + std::to_string(captures_[1]) + "\n";
  if (terminal_) return s + "result: " + std::string(outcome_string(outcome_)) + "\n";
  s += std::string("to act: ") + (mover_ == 0 ? "Light (player 0)" : "Dark (player 1)") + "\n";
  switch (phase_) {
    case Phase::kPlace:
      s += placed_ < kOpeningPawns ? "phase: opening placement (pawn " : "phase: placement (pawn ";
      s += std::to_string(placed_ + 1) + " of 40)\n";
      break;
    case Phase::kMove:
      s += "phase: alignment move\n";
      break;
    case Phase::kCapture:
      s += "phase: capture choice (X<x>,<y> or pass)\n";
      break;
    case Phase::kFill:
      s +=
          "phase: fill the hole at " + std::to_string(hole_x) + "," + std::to_string(hole_y) + "\n";
      break;
  }
  return s;
}

}  // namespace azg
