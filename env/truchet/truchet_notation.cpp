// Truchet action strings (`Fc3`, `c3-e5`, `c3/N1E2`, `c3<NE`, `done`) and the text board.
#include <bit>

#include "env/common/board64.hpp"
#include "env/truchet/truchet.hpp"
#include "env/truchet/truchet_tables.hpp"

namespace azg {

using namespace board64;

namespace {
constexpr char kDirLetters[] = "NESW";
}

std::string Truchet::action_to_string(Action a) const {
  switch (kind_of(a)) {
    case kFlipKind:
      return std::string("F") + static_cast<char>('a' + from_of(a) % 7) +
             static_cast<char>('1' + from_of(a) / 7);
    case kRiverKind:
      return square_name(from_of(a)) + "-" + square_name(to_of(a));
    case kSplitKind: {
      std::string s = square_name(from_of(a)) + "/";
      for (int d = 0; d < 4; ++d)
        if (const int n = static_cast<int>((extra_of(a) >> (3 * d)) & 7))
          s += std::string{kDirLetters[d], static_cast<char>('0' + n)};
      return s;
    }
    case kMergeKind: {
      std::string s = square_name(from_of(a)) + "<";
      for (int d = 0; d < 4; ++d)
        if (extra_of(a) >> d & 1) s += kDirLetters[d];
      return s;
    }
    default:
      return "done";
  }
}

std::optional<Action> Truchet::parse_action(std::string_view text) const {
  if (text == "done") return make_action(kDoneKind, 0);
  if (text.size() == 3 && text[0] == 'F') {
    if (text[1] < 'a' || text[1] > 'g' || text[2] < '1' || text[2] > '7') return std::nullopt;
    return make_action(kFlipKind, (text[2] - '1') * 7 + (text[1] - 'a'));
  }
  if (text.size() < 4) return std::nullopt;
  const auto from = parse_square(text.substr(0, 2));
  if (!from) return std::nullopt;
  const std::string_view rest = text.substr(3);
  switch (text[2]) {
    case '-': {
      const auto to = parse_square(rest);
      if (!to) return std::nullopt;
      return make_action(kRiverKind, *from, *to);
    }
    case '/': {
      // Direction letter + count 1..4, directions in the order N E S W, each at most once.
      std::uint32_t code = 0;
      int last = -1;
      if (rest.size() % 2 != 0 || rest.empty()) return std::nullopt;
      for (std::size_t i = 0; i < rest.size(); i += 2) {
        const char* d = std::char_traits<char>::find(kDirLetters, 4, rest[i]);
        if (d == nullptr || rest[i + 1] < '1' || rest[i + 1] > '4') return std::nullopt;
        const int dir = static_cast<int>(d - kDirLetters);
        if (dir <= last) return std::nullopt;
        last = dir;
        code |= static_cast<std::uint32_t>(rest[i + 1] - '0') << (3 * dir);
      }
      return make_action(kSplitKind, *from, 0, code);
    }
    case '<': {
      std::uint32_t set = 0;
      int last = -1;
      if (rest.empty()) return std::nullopt;
      for (const char c : rest) {
        const char* d = std::char_traits<char>::find(kDirLetters, 4, c);
        if (d == nullptr) return std::nullopt;
        const int dir = static_cast<int>(d - kDirLetters);
        if (dir <= last) return std::nullopt;
        last = dir;
        set |= 1u << dir;
      }
      return make_action(kMergeKind, *from, 0, set);
    }
    default:
      return std::nullopt;
  }
}

std::string Truchet::render() const {
  // Junction cells are 4 wide: " L2 " (a stack), " .. " (empty), "[L2]" / "[..]" on a base.
  // Between two junction rows, each tile shows its river diagonal: / or \.
  std::string s;
  const std::uint64_t bases = truchet::kDarkBases | truchet::kLightBases;
  for (int y = 7; y >= 0; --y) {
    s += static_cast<char>('1' + y);
    s += ' ';
    for (int x = 0; x < 8; ++x) {
      const int sq = square(x, y);
      const bool base = bases >> sq & 1;
      const int c = colour_at(sq);
      s += base ? '[' : ' ';
      if (c < 0)
        s += "..";
      else
        s += std::string{c == 0 ? 'L' : 'D', static_cast<char>('0' + height_at(sq))};
      s += base ? ']' : ' ';
    }
    s += '\n';
    if (y > 0) {
      s += "    ";
      for (int x = 0; x < 7; ++x) {
        s += ' ';
        s += tile(x, y - 1) ? '\\' : '/';
        s += "  ";
      }
      s += '\n';
    }
  }
  s += "   a   b   c   d   e   f   g   h\n";
  s += "bases: Dark's a1 c1 e1 g1, Light's a8 c8 e8 g8; junctions with x+y even are dark\n";
  s += "turn " + std::to_string(turn_ + 1) + " (" + std::to_string(turn_) + " completed, cap " +
       std::to_string(kTurnCap) + ")";
  if (phase_ == Phase::kStart && !terminal_)
    s += ", this position seen " + std::to_string(repetitions()) + " time(s)";
  s += "\n";
  if (terminal_) return s + "result: " + std::string(outcome_string(outcome_)) + "\n";
  s += std::string("to act: ") + (mover_ == 0 ? "Light (player 0)" : "Dark (player 1)") + "\n";
  switch (phase_) {
    case Phase::kStart:
      s += "phase: start of turn (flip, river move, split or merge)\n";
      break;
    case Phase::kAfterFlip:
      s += "phase: after a flip (river move, split or merge)\n";
      break;
    case Phase::kAfterRiver:
      s += "phase: after the river move to " + square_name(moved_) + " (split, merge or done)\n";
      break;
  }
  return s;
}

}  // namespace azg
