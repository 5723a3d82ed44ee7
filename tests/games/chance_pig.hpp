#pragma once
// "Chance pig": a test-only dice game small enough to solve exactly, built to exercise
// what the real games need from the API and the search: chance nodes with unequal
// probabilities, the same player deciding twice in a row, and the opponent deciding in
// the middle of the mover's turn.
//
// A turn: the mover bets (`b0`, or `b1` when his score is at least 1), then repeatedly
// rolls a die of his choice into a pot (`low`: 1 w.p. 1/3, 2 w.p. 2/3; `high`: 1 w.p.
// 1/2, 4 w.p. 1/2; a 1 busts: the pot is lost, a bet costs 1 point, the turn ends) or
// `hold`s (pot > 0; forced once the pot reaches 8). On `hold` the opponent chooses
// `allow` (the pot is banked) or, with a score of at least 1, `tax` (he pays 1 point and
// only half the pot, rounded down, is banked). A winning bet (banked >= 4) earns 1 more.
// A score of 8 or more wins at once; after 6 turns the higher score wins, equal draws.
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "env/common/game.hpp"

namespace azg::testgames {

class ChancePig {
 public:
  static constexpr std::string_view kName = "chancepig";
  static constexpr std::size_t kMaxActions = 4;
  static constexpr PlaneShape kPlanes{10, 1, 1};
  static constexpr int kPolicySize = 7;
  static constexpr int kNumSymmetries = 1;
  static constexpr int kTarget = 8;
  static constexpr int kTurns = 6;
  static constexpr int kPotLimit = 8;

  enum Code : Action { kB0, kB1, kLow, kHigh, kHold, kAllow, kTax, kRoll1, kRoll2, kRoll4 };

  static ChancePig from_setup(std::string_view setup) {
    if (!setup.empty()) throw Error("chancepig takes no setup, got '" + std::string(setup) + "'");
    return ChancePig{};
  }
  static ChancePig random_setup(Rng&) { return ChancePig{}; }
  std::string setup_string() const { return ""; }

  Player to_act() const {
    switch (phase_) {
      case kRolling:
        return Player::kChance;
      case kTaxing:
        return static_cast<Player>(mover_ ^ 1);
      default:
        return static_cast<Player>(mover_);
    }
  }

  void legal_actions(FixedList<Action, kMaxActions>& out) const {
    out.clear();
    switch (phase_) {
      case kBetting:
        out.push_back(kB0);
        if (score_[mover_] >= 1) out.push_back(kB1);
        break;
      case kDeciding:
        if (pot_ < kPotLimit) {
          out.push_back(kLow);
          out.push_back(kHigh);
        }
        if (pot_ > 0) out.push_back(kHold);
        break;
      case kRolling:
        out.push_back(kRoll1);
        out.push_back(high_die_ ? kRoll4 : kRoll2);
        break;
      case kTaxing:
        out.push_back(kAllow);
        if (score_[mover_ ^ 1] >= 1) out.push_back(kTax);
        break;
    }
  }
  void chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const {
    out.clear();
    if (phase_ != kRolling) return;
    if (high_die_) {
      out.push_back({kRoll1, 0.5});
      out.push_back({kRoll4, 0.5});
    } else {
      out.push_back({kRoll1, 1.0 / 3});
      out.push_back({kRoll2, 2.0 / 3});
    }
  }

  void apply(Action a) {
    switch (a) {
      case kB0:
      case kB1:
        bet_ = a == kB1;
        phase_ = kDeciding;
        break;
      case kLow:
      case kHigh:
        high_die_ = a == kHigh;
        phase_ = kRolling;
        break;
      case kHold:
        phase_ = kTaxing;
        break;
      case kRoll1:
        if (bet_) --score_[mover_];
        end_turn();
        break;
      case kRoll2:
      case kRoll4:
        pot_ += a == kRoll2 ? 2 : 4;
        phase_ = kDeciding;
        break;
      case kAllow:
      case kTax: {
        int banked = pot_;
        if (a == kTax) {
          --score_[mover_ ^ 1];
          banked /= 2;
        }
        score_[mover_] += banked + (bet_ && banked >= 4 ? 1 : 0);
        if (score_[mover_] >= kTarget) winner_ = static_cast<std::int8_t>(mover_);
        end_turn();
        break;
      }
    }
  }

  bool is_terminal() const { return winner_ >= 0 || turn_ >= kTurns; }
  Outcome outcome() const {
    if (winner_ >= 0) return winner_ == 0 ? Outcome::kP0Win : Outcome::kP1Win;
    return score_[0] > score_[1]   ? Outcome::kP0Win
           : score_[1] > score_[0] ? Outcome::kP1Win
                                   : Outcome::kDraw;
  }

  std::string action_to_string(Action a) const {
    static constexpr std::string_view kNames[] = {"b0",    "b1",  "low", "high", "hold",
                                                  "allow", "tax", "1",   "2",    "4"};
    return std::string(kNames[a]);
  }
  std::optional<Action> parse_action(std::string_view text) const {
    for (Action a = kB0; a <= kRoll4; ++a)
      if (text == action_to_string(a)) return a;
    return std::nullopt;
  }

  std::string render() const {
    static constexpr std::string_view kPhases[] = {"bet", "roll or hold", "die roll", "tax"};
    std::string s = "scores " + std::to_string(score_[0]) + " : " + std::to_string(score_[1]) +
                    ", pot " + std::to_string(pot_) + (bet_ ? " (bet)" : "") + ", turn " +
                    std::to_string(turn_ + 1) + "/" + std::to_string(kTurns) + "\n";
    if (is_terminal()) return s + "result: " + std::string(outcome_string(outcome())) + "\n";
    return s + "to act: " + std::string(player_string(to_act())) +
           ", phase: " + std::string(kPhases[phase_]) + "\n";
  }

  // Ten 1x1 planes from the view of the player to act: own and opponent score / target,
  // pot / limit, turns left / turns, whether the player to act is the turn's mover, the
  // bet flag, and the phase one-hot (bet, decide, roll, tax).
  void encode(std::span<float> out) const {
    const int me = phase_ == kTaxing ? mover_ ^ 1 : mover_;
    out[0] = static_cast<float>(score_[me]) / kTarget;
    out[1] = static_cast<float>(score_[me ^ 1]) / kTarget;
    out[2] = static_cast<float>(pot_) / kPotLimit;
    out[3] = static_cast<float>(kTurns - turn_) / kTurns;
    out[4] = me == mover_ ? 1.0f : 0.0f;
    out[5] = bet_ ? 1.0f : 0.0f;
    for (int p = 0; p < 4; ++p) out[6 + p] = phase_ == p ? 1.0f : 0.0f;
  }
  int policy_index(Action a) const { return a <= kTax ? static_cast<int>(a) : -1; }

  ChancePig symmetric(int) const { return *this; }
  Action symmetric_action(int, Action a) const { return a; }

  // A static evaluation (game_traits.hpp), for the heuristic agents' tests: the score lead.
  double evaluate() const { return std::tanh((score_[0] - score_[1]) / 4.0); }

  std::uint64_t hash() const {
    std::uint64_t h = 0;
    for (const int v : {int{score_[0]}, int{score_[1]}, int{pot_}, int{turn_}, int{mover_},
                        int{phase_}, int{bet_}, int{high_die_}, int{winner_}})
      h = (h ^ static_cast<std::uint64_t>(v + 1)) * 0x100000001B3ull;
    return h;
  }

  int score(int player) const { return score_[player]; }

 private:
  enum Phase : std::uint8_t { kBetting, kDeciding, kRolling, kTaxing };

  void end_turn() {
    pot_ = 0;
    bet_ = false;
    mover_ ^= 1;
    ++turn_;
    phase_ = kBetting;
  }

  std::int8_t score_[2] = {0, 0};
  std::int8_t pot_ = 0;
  std::int8_t turn_ = 0;
  std::int8_t winner_ = -1;
  std::uint8_t mover_ = 0;
  std::uint8_t phase_ = kBetting;
  bool bet_ = false;
  bool high_die_ = false;
};

static_assert(Game<ChancePig>);

}  // namespace azg::testgames
