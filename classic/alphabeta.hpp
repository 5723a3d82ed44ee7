#pragma once
// A classical searcher over the Game concept: iterative deepening alpha-beta with a
// transposition table and move ordering, leaves scored by the game's static evaluation
// (env/common/game_traits.hpp). One searcher serves every game:
// - Minimax by player identity, not negamax: values are always player 0's, player 0's
//   decisions maximise and player 1's minimise, so a player who decides several times in
//   a row (Truchet's flip, river move and split; Intercept's move, jumps and ball) is
//   searched correctly. Depth counts decisions of either player; chance does not count.
// - Chance nodes take the expectation over their outcomes (expectimax, each outcome
//   searched with the full window): Imbriqua's card reveals.
// - The transposition table is keyed by the game's hash() (everything that matters for
//   the future game) and keeps a bound, its depth and the best action; that action is
//   tried first, then actions by a history score of the cut-offs they made.
// - A time limit is never exceeded: the clock is read every 256 nodes, and a search
//   past its time is abandoned for the best action of the last completed iteration.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "env/common/game_traits.hpp"

namespace azg::classic {

struct AlphaBetaLimits {
  int depth = 0;       // the deepest iteration, in decisions (0: no limit but the time)
  double seconds = 0;  // the time for one decision (0: no limit but the depth)
};

struct AlphaBetaResult {
  Action best = 0;
  float value = 0;  // for the player to act at the root, in [-1, 1] (a win or loss found: +-1)
  float raw = 0;    // player 0's value inside the search (a result found: +-(2 - plies / 1000))
  int depth = 0;    // the deepest completed iteration
  std::uint64_t nodes = 0;
};

template <Game G>
requires kHasEvaluation<G>
class AlphaBeta {
 public:
  // Values inside the search, player 0's: evaluations lie in [-1, 1]; a result found in
  // the tree is worth more, and sooner more (kWin - ply).
  static constexpr float kWin = 2.0f;
  static constexpr float kInfinity = 1e9f;

  // `table_cutoffs` false: the table only orders actions and never answers for a search
  // (tests compare such a search with plain expectiminimax; the table's answers may come
  // from a deeper search of the same position reached by a shorter path).
  explicit AlphaBeta(int table_bits = 18, bool table_cutoffs = true)
      : table_(std::size_t{1} << table_bits),
        mask_(table_.size() - 1),
        table_cutoffs_(table_cutoffs) {}

  // A leaf's value, player 0's, `ply` decisions and chance draws below the root: a result
  // exactly, a win found sooner worth more; else the static evaluation.
  static float leaf(const G& g, int ply) {
    if (g.is_terminal()) {
      const float r = outcome_value(g.outcome(), Player::kP0);
      return r == 0 ? 0.0f : r * (kWin - 0.001f * static_cast<float>(ply));
    }
    return evaluation(g, Player::kP0);
  }

  // Ends a running search soon with the best action of its last completed iteration (or
  // the next search, if none runs); safe from another thread. clear_stop() undoes it.
  void request_stop() { stop_requested_.store(true); }
  void clear_stop() { stop_requested_.store(false); }

  AlphaBetaResult search(const G& root, const AlphaBetaLimits& limits) {
    using Clock = std::chrono::steady_clock;
    start_ = Clock::now();
    seconds_ = limits.seconds;
    aborted_ = false;
    nodes_ = 0;
    ++generation_;
    for (auto& h : history_) h /= 8;  // keep the ordering's memory, fading
    AlphaBetaResult result;
    ActionListFor<G> actions;
    root.legal_actions(actions);
    result.best = actions[0];
    const Player me = root.to_act();
    const int max_depth = limits.depth > 0 ? limits.depth : 64;
    for (int depth = 1; depth <= max_depth; ++depth) {
      Action best = result.best;
      const float v = root_search(root, actions, depth, best);
      if (aborted_) break;
      result.best = best;
      result.depth = depth;
      result.value = to_side(v, me);
      result.raw = v;
      if (std::abs(v) > 1.5f) break;  // a forced result: deeper adds nothing
      // Another iteration costs several times this one: do not start what cannot finish.
      if (seconds_ > 0 && elapsed() > 0.4 * seconds_) break;
    }
    result.nodes = nodes_;
    return result;
  }

 private:
  enum Bound : std::uint8_t { kExact, kLower, kUpper };
  struct Entry {
    std::uint64_t key = 0;
    float value = 0;
    Action best = 0;
    std::int16_t depth = -1;
    Bound bound = kExact;
    std::uint32_t generation = 0;
  };

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool out_of_time() {
    if (aborted_) return true;
    if ((++nodes_ & 255) == 0 && ((seconds_ > 0 && elapsed() >= seconds_) ||
                                  stop_requested_.load(std::memory_order_relaxed)))
      aborted_ = true;
    return aborted_;
  }
  static float to_side(float v, Player p) {
    const float clamped = std::clamp(v, -1.0f, 1.0f);
    return p == Player::kP1 ? -clamped : clamped;
  }
  std::uint32_t& history(Action a) { return history_[(a * 2654435761u) >> (32 - kHistoryBits)]; }

  // The actions in search order: the table's best first, then by history.
  void order(ActionListFor<G>& actions, Action first) {
    std::stable_sort(actions.begin(), actions.end(), [&](Action a, Action b) {
      if (a == first || b == first) return a == first && b != first;
      return history(a) > history(b);
    });
  }

  float root_search(const G& root, ActionListFor<G>& actions, int depth, Action& best) {
    const bool maximise = root.to_act() == Player::kP0;
    order(actions, best);
    float alpha = -kInfinity, beta = kInfinity, best_value = maximise ? -kInfinity : kInfinity;
    for (const Action a : actions) {
      G child = root;
      child.apply(a);
      const float v = value(child, depth - 1, 1, alpha, beta);
      if (aborted_) break;
      if (maximise ? v > best_value : v < best_value) {
        best_value = v;
        best = a;
      }
      if (maximise)
        alpha = std::max(alpha, v);
      else
        beta = std::min(beta, v);
    }
    return best_value;
  }

  float value(const G& g, int depth, int ply, float alpha, float beta) {
    if (out_of_time()) return 0;
    if (g.is_terminal() || depth <= 0) return leaf(g, ply);
    const Player p = g.to_act();
    if (p == Player::kChance) {
      ChanceListFor<G> outcomes;
      g.chance_outcomes(outcomes);
      double expected = 0;
      for (const auto& o : outcomes) {
        G child = g;
        child.apply(o.action);
        expected += o.probability *
                    value(child, depth, ply + 1, -kInfinity, kInfinity);  // chance is no decision
        if (aborted_) return 0;
      }
      return static_cast<float>(expected);
    }
    const std::uint64_t key = g.hash();
    Entry& e = table_[key & mask_];
    Action first = 0;
    if (e.key == key && e.depth >= 0) {
      first = e.best;
      if (table_cutoffs_ && e.depth >= depth) {
        if (e.bound == kExact) return e.value;
        if (e.bound == kLower && e.value >= beta) return e.value;
        if (e.bound == kUpper && e.value <= alpha) return e.value;
      }
    }
    ActionListFor<G> actions;
    g.legal_actions(actions);
    order(actions, first);
    const bool maximise = p == Player::kP0;
    const float alpha0 = alpha, beta0 = beta;
    float best_value = maximise ? -kInfinity : kInfinity;
    Action best = actions[0];
    for (const Action a : actions) {
      G child = g;
      child.apply(a);
      const float v = value(child, depth - 1, ply + 1, alpha, beta);
      if (aborted_) return 0;
      if (maximise ? v > best_value : v < best_value) {
        best_value = v;
        best = a;
      }
      if (maximise)
        alpha = std::max(alpha, v);
      else
        beta = std::min(beta, v);
      if (alpha >= beta) {
        history(a) += static_cast<std::uint32_t>(depth * depth);
        break;
      }
    }
    // Replace an entry of an older search, or one searched less deep.
    if (e.key != key || e.generation != generation_ || e.depth <= depth) {
      e.key = key;
      e.value = best_value;
      e.best = best;
      e.depth = static_cast<std::int16_t>(depth);
      e.generation = generation_;
      e.bound = best_value <= alpha0 ? kUpper : best_value >= beta0 ? kLower : kExact;
    }
    return best_value;
  }

  static constexpr int kHistoryBits = 14;
  std::vector<Entry> table_;
  std::size_t mask_;
  bool table_cutoffs_;
  std::vector<std::uint32_t> history_ =
      std::vector<std::uint32_t>(std::size_t{1} << kHistoryBits, 0);
  std::chrono::steady_clock::time_point start_;
  double seconds_ = 0;
  bool aborted_ = false;
  std::atomic<bool> stop_requested_{false};
  std::uint64_t nodes_ = 0;
  std::uint32_t generation_ = 0;
};

}  // namespace azg::classic
