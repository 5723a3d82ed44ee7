#pragma once
// A start-state archive for self-play (Go-Exploit, Trudeau and Bowling, AAMAS 2023;
// KataGo's startPosesProb): a share of the games start from positions of earlier games
// instead of the real start, so that a game whose first hundred turns rarely reach a
// decided position gets more of its samples and results from there. Training only:
// evaluations start from the real start, and an archived start keeps the actions that led
// to it in the new game's record, so every record still replays from the start.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "env/common/game.hpp"
#include "env/common/game_traits.hpp"
#include "env/common/random_play.hpp"

namespace azg::trainer {

template <Game G>
class StartArchive {
 public:
  struct Entry {
    G state;
    std::string setup;                // the record's setup (games with a random one)
    std::vector<std::string> prefix;  // the record's actions from the real start to `state`
    float priority = 0;
  };
  // Positions kept from each finished game, and the candidates one draw compares.
  static constexpr int kPerGame = 4, kTournament = 4;

  explicit StartArchive(std::size_t capacity) : capacity_(capacity) {}

  // Keeps up to kPerGame of a finished game's decision positions, chosen at random.
  // `positions[i].state` was reached after the first `action_counts[i]` actions of the record.
  template <class Positions>
  void add_game(const Positions& positions, const std::vector<std::size_t>& action_counts,
                const GameRecord& record, Rng& rng) {
    std::vector<std::size_t> usable;
    for (std::size_t i = 0; i < positions.size() && i < action_counts.size(); ++i)
      if (action_counts[i] > 0 && usable_start(positions[i].state))
        usable.push_back(i);  // not the real start
    for (int k = 0; k < kPerGame && !usable.empty(); ++k) {
      const std::size_t pick = rng.below(static_cast<std::uint32_t>(usable.size()));
      const std::size_t i = usable[pick];
      usable[pick] = usable.back();
      usable.pop_back();
      const auto& actions = record.actions;
      Entry e{positions[i].state, record.setup,
              std::vector<std::string>(
                  actions.begin(), actions.begin() + static_cast<std::ptrdiff_t>(action_counts[i])),
              priority(positions[i].state)};
      if (entries_.size() < capacity_) {
        entries_.push_back(std::move(e));
      } else {
        entries_[next_] = std::move(e);  // the oldest goes first
        next_ = (next_ + 1) % capacity_;
      }
    }
  }

  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

  // A start: of kTournament entries drawn at random, the one of highest priority.
  const Entry& draw(Rng& rng) const {
    const Entry* best = nullptr;
    for (int k = 0; k < kTournament; ++k) {
      const Entry& e = entries_[rng.below(static_cast<std::uint32_t>(entries_.size()))];
      if (!best || e.priority > best->priority) best = &e;
    }
    return *best;
  }

  // Where the game has a static evaluation, positions far from even come first: a ball
  // advanced or about to be taken in Intercept, a side close to its goal elsewhere.
  static float priority(const G& g) {
    if constexpr (kHasEvaluation<G>)
      return std::abs(evaluation(g, Player::kP0));
    else
      return 0.0f;
  }

  // A start leaves at least a quarter of the turn cap to play, so it can still end.
  static bool usable_start(const G& g) {
    if (g.is_terminal() || g.to_act() == Player::kChance) return false;
    if constexpr (kHasTurnCap<G>) return g.turn() < G::kTurnCap * 3 / 4;
    return true;
  }

 private:
  std::size_t capacity_;
  std::size_t next_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace azg::trainer
