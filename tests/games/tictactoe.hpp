#pragma once
// Tic-tac-toe: a test-only game for the API, the conformance suite and the search tests.
// Cells a1..c3 (file a..c, rank 1..3); X (player 0) moves first.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "env/common/game.hpp"
#include "env/common/square_symmetry.hpp"

namespace azg::testgames {

class TicTacToe {
 public:
  static constexpr std::string_view kName = "tictactoe";
  static constexpr std::size_t kMaxActions = 9;
  static constexpr PlaneShape kPlanes{2, 3, 3};
  static constexpr int kPolicySize = 9;
  static constexpr int kNumSymmetries = kSquareSymmetries;

  static TicTacToe from_setup(std::string_view setup) {
    if (!setup.empty()) throw Error("tictactoe takes no setup, got '" + std::string(setup) + "'");
    return TicTacToe{};
  }
  static TicTacToe random_setup(Rng&) { return TicTacToe{}; }
  std::string setup_string() const { return ""; }

  Player to_act() const { return static_cast<Player>(mover_); }

  void legal_actions(FixedList<Action, kMaxActions>& out) const {
    out.clear();
    const unsigned empty = ~(marks_[0] | marks_[1]) & 0x1FFu;
    for (int c = 0; c < 9; ++c)
      if (empty >> c & 1u) out.push_back(static_cast<Action>(c));
  }
  void chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const { out.clear(); }

  void apply(Action a) {
    marks_[mover_] |= static_cast<std::uint16_t>(1u << a);
    mover_ ^= 1;
  }

  bool is_terminal() const { return winner() >= 0 || (marks_[0] | marks_[1]) == 0x1FF; }
  Outcome outcome() const {
    const int w = winner();
    return w == 0 ? Outcome::kP0Win : w == 1 ? Outcome::kP1Win : Outcome::kDraw;
  }

  std::string action_to_string(Action a) const {
    return std::string{static_cast<char>('a' + a % 3), static_cast<char>('1' + a / 3)};
  }
  std::optional<Action> parse_action(std::string_view text) const {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3')
      return std::nullopt;
    return static_cast<Action>((text[1] - '1') * 3 + (text[0] - 'a'));
  }

  std::string render() const {
    std::string s;
    for (int y = 2; y >= 0; --y) {
      s += static_cast<char>('1' + y);
      s += ' ';
      for (int x = 0; x < 3; ++x) {
        const int c = y * 3 + x;
        s += (marks_[0] >> c & 1) ? 'X' : (marks_[1] >> c & 1) ? 'O' : '.';
      }
      s += '\n';
    }
    s += "  abc\n";
    s += is_terminal() ? "result: " + std::string(outcome_string(outcome())) + "\n"
                       : "to act: " + std::string(player_string(to_act())) + " (" +
                             (mover_ == 0 ? "X" : "O") + ")\n";
    return s;
  }

  // Plane 0: the mover's marks, plane 1: the opponent's.
  void encode(std::span<float> out) const {
    for (int c = 0; c < 9; ++c) {
      out[c] = static_cast<float>(marks_[mover_] >> c & 1);
      out[9 + c] = static_cast<float>(marks_[mover_ ^ 1] >> c & 1);
    }
  }
  int policy_index(Action a) const { return static_cast<int>(a); }

  TicTacToe symmetric(int s) const {
    TicTacToe t = *this;
    t.marks_[0] = t.marks_[1] = 0;
    for (int c = 0; c < 9; ++c)
      for (int p = 0; p < 2; ++p)
        if (marks_[p] >> c & 1) t.marks_[p] |= static_cast<std::uint16_t>(1u << map(s, c));
    return t;
  }
  Action symmetric_action(int s, Action a) const { return static_cast<Action>(map(s, a)); }

  std::uint64_t hash() const {
    return (static_cast<std::uint64_t>(marks_[0]) << 16 | marks_[1] | std::uint64_t{mover_} << 32) *
           0x9E3779B97F4A7C15ull;
  }

 private:
  static int map(int s, int c) {
    int x = c % 3, y = c / 3;
    square_symmetry(s, x, y, 2);
    return y * 3 + x;
  }
  int winner() const {
    static constexpr std::uint16_t kLines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int p = 0; p < 2; ++p)
      for (const auto line : kLines)
        if ((marks_[p] & line) == line) return p;
    return -1;
  }

  std::uint16_t marks_[2] = {0, 0};
  std::uint8_t mover_ = 0;
};

static_assert(Game<TicTacToe>);

}  // namespace azg::testgames
