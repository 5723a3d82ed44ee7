// The Connect Four solver (connect4_solver.hpp).
#include "solver/connect4_solver.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "core/error.hpp"
#include "core/mix.hpp"

namespace azg::solver {
namespace {

constexpr int kCells = Connect4::kCells;
// Centre columns first: they take part in the most lines.
constexpr std::array<int, Connect4::kColumns> kColumnOrder = {3, 2, 4, 1, 5, 0, 6};

// One more stone of the side to move on `cells` wins.
bool can_win_now(std::uint64_t mine, std::uint64_t all) {
  const std::uint64_t playable = (all + Connect4::bottom_row()) & Connect4::board_mask();
  return (Connect4::winning_cells(mine, all) & playable) != 0;
}

// A win with the side to move's next stone, from a position with `stones` on the board.
constexpr int win_now_score(int stones) {
  return (kCells + 1 - stones) / 2;
}

}  // namespace

Connect4Solver::Connect4Solver(int table_bits) {
  if (table_bits < 10 || table_bits > 30)
    throw Error("connect4 solver: table_bits " + std::to_string(table_bits) + " is outside 10..30");
  table_.assign(std::size_t{1} << table_bits, 0);
}

void Connect4Solver::clear() {
  std::fill(table_.begin(), table_.end(), 0);
  nodes_ = 0;
}

Connect4Solver::Board Connect4Solver::board_of(const Connect4& position) {
  if (position.is_terminal())
    throw Error("connect4 solver: the game is already over (" +
                std::string(outcome_string(position.outcome())) + ")");
  const int mover = index_of(position.to_act());
  return {position.stones(mover), position.occupied(), position.stones_played()};
}

std::uint64_t Connect4Solver::safe_moves(const Board& b) {
  std::uint64_t moves = (b.all + Connect4::bottom_row()) & Connect4::board_mask();
  const std::uint64_t theirs = b.mine ^ b.all;
  const std::uint64_t their_wins = Connect4::winning_cells(theirs, b.all);
  const std::uint64_t forced = moves & their_wins;
  if (forced) {
    if (forced & (forced - 1)) return 0;  // two wins to stop: every move loses
    moves = forced;
  }
  // Never fill the cell under one of their winning cells.
  return moves & ~(their_wins >> 1);
}

void Connect4Solver::store(std::uint64_t key, int score, bool lower) {
  // key (49 bits) | lower-bound flag | score + 32 (6 bits)
  table_[mix64(key) & (table_.size() - 1)] =
      key << 8 | (lower ? 0x80u : 0u) | static_cast<std::uint64_t>(score + 32);
}

int Connect4Solver::negamax(const Board& b, int alpha, int beta) {
  ++nodes_;
  const std::uint64_t safe = safe_moves(b);
  if (safe == 0) return -(kCells - b.stones) / 2;  // they win with their next stone
  if (b.stones >= kCells - 2) return 0;            // the last two stones cannot win

  // Neither side wins with its next stone: bounds on what is left.
  const int lowest = -(kCells - 2 - b.stones) / 2;
  const int highest = (kCells - 1 - b.stones) / 2;
  alpha = std::max(alpha, lowest);
  beta = std::min(beta, highest);
  if (alpha >= beta) return alpha;

  // Unique per position: each column's height shows as the lowest clear bit above it.
  const std::uint64_t key = b.mine + b.all + Connect4::bottom_row();
  if (const std::uint64_t entry = table_[mix64(key) & (table_.size() - 1)]; (entry >> 8) == key) {
    const int score = static_cast<int>(entry & 0x3F) - 32;
    if (entry & 0x80) {
      alpha = std::max(alpha, score);
    } else {
      beta = std::min(beta, score);
    }
    if (alpha >= beta) return alpha;
  }

  // Order: the moves that leave the most winning cells first, centre first among equals.
  std::array<std::uint64_t, Connect4::kColumns> moves{};
  std::array<int, Connect4::kColumns> threats{};
  int n = 0;
  for (const int c : kColumnOrder) {
    const std::uint64_t move = safe & Connect4::column_mask(c);
    if (!move) continue;
    const int t = std::popcount(Connect4::winning_cells(b.mine | move, b.all | move));
    int i = n++;
    for (; i > 0 && threats[static_cast<std::size_t>(i - 1)] < t; --i) {
      moves[static_cast<std::size_t>(i)] = moves[static_cast<std::size_t>(i - 1)];
      threats[static_cast<std::size_t>(i)] = threats[static_cast<std::size_t>(i - 1)];
    }
    moves[static_cast<std::size_t>(i)] = move;
    threats[static_cast<std::size_t>(i)] = t;
  }

  for (int i = 0; i < n; ++i) {
    const std::uint64_t move = moves[static_cast<std::size_t>(i)];
    const Board child{b.mine ^ b.all, b.all | move, b.stones + 1};
    const int score = -negamax(child, -beta, -alpha);
    if (score >= beta) {
      store(key, score, true);
      return score;
    }
    alpha = std::max(alpha, score);
  }
  store(key, alpha, false);
  return alpha;
}

int Connect4Solver::solve(const Connect4& position) {
  const Board b = board_of(position);
  if (can_win_now(b.mine, b.all)) return win_now_score(b.stones);
  int lo = -(kCells - b.stones) / 2;
  int hi = win_now_score(b.stones);
  while (lo < hi) {
    // Probe near zero first: most positions are decided by their sign.
    int mid = lo + (hi - lo) / 2;
    if (mid <= 0 && lo / 2 < mid)
      mid = lo / 2;
    else if (mid >= 0 && hi / 2 > mid)
      mid = hi / 2;
    const int r = negamax(b, mid, mid + 1);
    if (r <= mid)
      hi = r;
    else
      lo = r;
  }
  return lo;
}

int Connect4Solver::solve_weak(const Connect4& position) {
  if (at_least(position, 1)) return 1;
  return at_least(position, 0) ? 0 : -1;
}

bool Connect4Solver::at_least(const Connect4& position, int score) {
  const Board b = board_of(position);
  if (can_win_now(b.mine, b.all)) return win_now_score(b.stones) >= score;
  return negamax(b, score - 1, score) >= score;
}

int plies_to_end(int score, int stones) {
  // The winner's stones when it makes four, then the board's total at that moment: the
  // first player (X) holds (total + 1) / 2 stones, the second total / 2.
  const int winner_stones = 22 - std::abs(score);
  const bool mover_is_first = stones % 2 == 0;
  const bool winner_is_first = (score > 0) == mover_is_first;
  const int total = winner_is_first ? 2 * winner_stones - 1 : 2 * winner_stones;
  return total - stones;
}

std::string describe_score(int score, int stones) {
  if (score == 0) return "draw";
  const int plies = plies_to_end(score, stones);
  return std::string(score > 0 ? "win" : "loss") + " in " + std::to_string(plies) +
         (plies == 1 ? " ply" : " plies");
}

}  // namespace azg::solver
