#pragma once
// The self-play farm's worker: plays many games at once with MCTS and the current
// network, one evaluator call per batch of leaves from all its games; finished games go
// to the replay buffer and the game records. Workers share the InferenceModel, whose
// weights the training loop updates in place.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "env/common/game_traits.hpp"
#include "mcts/agent.hpp"
#include "mcts/driver.hpp"
#include "mcts/heuristic_evaluators.hpp"
#include "nets/nn_evaluator.hpp"
#include "trainer/config.hpp"
#include "trainer/game_config_check.hpp"
#include "trainer/game_sink.hpp"
#include "trainer/policy_surprise.hpp"
#include "trainer/schedule.hpp"
#include "trainer/selfplay_stats.hpp"
#include "trainer/simulation_schedule.hpp"
#include "trainer/start_archive.hpp"

namespace azg::trainer {

// KL(p || q) in nats; q's zeros are floored so a target that drops an action stays finite.
inline double kl_divergence(const std::vector<float>& p, const std::vector<float>& q) {
  double kl = 0.0;
  for (std::size_t i = 0; i < p.size() && i < q.size(); ++i)
    if (p[i] > 0.0f) kl += p[i] * std::log(p[i] / std::max(q[i], 1e-6f));
  return kl;
}

// Times the wrapped evaluator (the NN's share of self-play time) and counts evaluations.
template <Game G>
class TimedEvaluator final : public mcts::Evaluator<G> {
 public:
  TimedEvaluator(mcts::Evaluator<G>& inner, SelfPlayStats& stats) : inner_(inner), stats_(stats) {}
  void evaluate(mcts::EvalBatch<G>& batch) override {
    const auto start = std::chrono::steady_clock::now();
    inner_.evaluate(batch);
    stats_.nn_nanoseconds += std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
    stats_.evaluations += static_cast<std::int64_t>(batch.size());
  }

 private:
  mcts::Evaluator<G>& inner_;
  SelfPlayStats& stats_;
};

// The self-play search: the selfplay.search.* keys, plus what only self-play has (root
// noise) and what training asks of it (the policy target).
inline mcts::SearchConfig selfplay_search_config(const TrainConfig& c) {
  mcts::SearchConfig s = c.selfplay_search;
  s.dirichlet_total = static_cast<float>(c.selfplay_dirichlet_total);
  s.noise_fraction = static_cast<float>(c.selfplay_noise_fraction);
  s.improved_policy_target = c.train_policy_target == "improved";
  s.reserve_nodes = static_cast<std::size_t>(s.simulations) * 8 + 64;
  return s;
}

// The symmetries training samples positions under (replay.symmetries, replay.swap_symmetries).
inline SymmetryUse symmetry_use(const TrainConfig& c) {
  if (!c.replay_symmetries) return SymmetryUse::kNone;
  return c.replay_swap_symmetries ? SymmetryUse::kAll : SymmetryUse::kColourKeeping;
}

// The targets beside policy and value that the run's network heads train on.

inline SampleTargets sample_targets(const TrainConfig& c) {
  return {c.net_ownership, c.net_score_head ? c.train_margin_scale : 0.0};
}

// A position's value target for the player who acted there: the game's result `z`,
// blended with the search's root value, with the final score margin (that player's
// points minus the opponent's) squashed by tanh(margin / train.margin_scale), and with
// the game's static evaluation of the position (train.evaluation_mix; 0 for games
// without one, which check_config_for_game refuses).
inline float value_target(const TrainConfig& config, float z, float root_value, double margin,
                          float evaluation = 0) {
  const double value_mix = config.train_value_mix, margin_mix = config.train_margin_mix,
               evaluation_mix = config.train_evaluation_mix;
  return static_cast<float>(
      (1.0 - value_mix - margin_mix - evaluation_mix) * z + value_mix * root_value +
      margin_mix * std::tanh(margin / config.train_margin_scale) + evaluation_mix * evaluation);
}

// Per position of a game, the searched value that train.value_mix blends in, for the
// player to act there (`players[i]`): its own root value, or with a horizon H > 0 the
// short-term target sum_k (1 - l) l^k v(i + k) + l^(n - i) z with l = 1 - 1/H, each root
// value seen from that player and the result z (`z_p0`, player 0's view) taking the weight
// past the end (KataGo's short-term value targets: less noise than the result, more
// foresight than one root value).
inline std::vector<float> searched_values(const std::vector<Player>& players,
                                          const std::vector<float>& root_values, float z_p0,
                                          double horizon) {
  std::vector<float> out(root_values);
  if (horizon <= 0) return out;
  const double keep = 1.0 - 1.0 / std::max(1.0, horizon);
  double ahead_p0 = z_p0;  // the target one position further on, player 0's view
  for (std::size_t i = root_values.size(); i-- > 0;) {
    const double sign = players[i] == Player::kP0 ? 1.0 : -1.0;
    ahead_p0 = (1.0 - keep) * sign * root_values[i] + keep * ahead_p0;
    out[i] = static_cast<float>(sign * ahead_p0);
  }
  return out;
}

// What self-play searches with: the network, its leaf values mixed with one random
// playout's by selfplay.rollout_mix when that is above 0, and then with the game's static
// evaluation by selfplay.heuristic_mix's weight, which `progress` (the run's, 0 to 1)
// anneals. Not movable: the mixing evaluators refer to `network`.
template <Game G>
class SelfPlayEvaluator final : public mcts::Evaluator<G> {
 public:
  SelfPlayEvaluator(const TrainConfig& config, std::shared_ptr<nets::InferenceModel> model,
                    std::function<double()> progress = {})
      : config_(config),
        progress_(std::move(progress)),
        // Self-play reads each position as it stands, whatever net.play_symmetry says: the
        // replay buffer's augmentation is where symmetries enter training.
        network_(std::move(model), nets::NnEvaluatorOptions::without_symmetry()),
        rollout_(network_, static_cast<float>(config.selfplay_rollout_mix)) {
    mcts::Evaluator<G>& before =
        config.selfplay_rollout_mix > 0 ? static_cast<mcts::Evaluator<G>&>(rollout_) : network_;
    outer_ = &before;
    // A game without a static evaluation has refused the key already (check_config_for_game).
    if constexpr (kHasEvaluation<G>) {
      if (uses_heuristic_mix(config)) {
        auto mix = std::make_unique<mcts::HeuristicMixEvaluator<G>>(
            before, 0.0f, config.selfplay_heuristic_playout_turns,
            config.selfplay_heuristic_playout_decisive);
        set_weight_ = [m = mix.get()](float w) { m->set_weight(w); };
        heuristic_ = std::move(mix);
        outer_ = heuristic_.get();
      }
    }
  }
  SelfPlayEvaluator(const SelfPlayEvaluator&) = delete;
  SelfPlayEvaluator& operator=(const SelfPlayEvaluator&) = delete;
  mcts::Evaluator<G>& get() { return *this; }
  void evaluate(mcts::EvalBatch<G>& batch) override {
    if (set_weight_)
      set_weight_(static_cast<float>(heuristic_mix_weight(config_, progress_ ? progress_() : 0.0)));
    outer_->evaluate(batch);
  }

 private:
  const TrainConfig& config_;
  std::function<double()> progress_;
  nets::NnEvaluator<G> network_;
  mcts::RolloutMixEvaluator<G> rollout_;
  std::unique_ptr<mcts::Evaluator<G>> heuristic_;
  std::function<void(float)> set_weight_;
  mcts::Evaluator<G>* outer_ = nullptr;
};

template <Game G>
class SelfPlayWorker {
 public:
  // `elapsed_s`: the run's seconds so far, where the worker joins a resumed run (its own
  // clock adds to it), for the run's progress that selfplay.simulations_start reads.
  SelfPlayWorker(const TrainConfig& config, mcts::Evaluator<G>& evaluator, GameSink<G>& sink,
                 SelfPlayStats& stats, const std::atomic<std::int64_t>& network_step,
                 std::uint64_t seed, double elapsed_s = 0.0)
      : config_(config),
        evaluator_(evaluator, stats),
        sink_(sink),
        stats_(stats),
        network_step_(network_step),
        rng_(seed),
        base_elapsed_s_(elapsed_s),
        started_(std::chrono::steady_clock::now()) {
    const mcts::SearchConfig search = selfplay_search_config(config);
    for (int i = 0; i < config.selfplay_games_per_thread; ++i) {
      slots_.emplace_back();
      slots_.back().search = std::make_unique<mcts::Search<G>>(search, rng_.next());
      new_game(slots_.back());
    }
  }

  // Plays until `stop` becomes true (checked between batches of moves).
  void run(const std::atomic<bool>& stop) {
    std::vector<mcts::Search<G>*> searches;
    mcts::EvalBatch<G> batch;
    const int batch_size =
        config_.selfplay_games_per_thread * config_.selfplay_search.leaves_per_batch;
    while (!stop.load()) {
      // Backpressure: a worker that has run too far ahead of the learner waits, leaving
      // the cores to training, so the run keeps its samples-per-position ratio.
      while (!stop.load() && sink_.ahead())
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      const auto start = std::chrono::steady_clock::now();
      searches.clear();
      const double progress = run_progress(config_, network_step_.load(), elapsed_s());
      for (Slot& slot : slots_) {
        settle(slot);
        // Playout cap randomisation: a full search (with a policy target) or a cheap one.
        // Self-play explores: the search decides how (mcts::Search::start).
        // A game already called (selfplay.decided_value) gets cheap searches only; the draw
        // comes first, so runs without the key keep their random stream.
        const bool full = rng_.uniform() < config_.selfplay_full_fraction && !slot.called_for;
        slot.full = full;
        slot.search->start(slot.state, selfplay_simulations(config_, progress, full), full,
                           /*explore=*/true);
        searches.push_back(slot.search.get());
      }
      mcts::run_searches<G>(searches, evaluator_, batch, batch_size);
      for (Slot& slot : slots_) play(slot, slot.search->result());
      stats_.worker_nanoseconds += std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now() - start)
                                       .count();
    }
  }

 private:
  struct Slot {
    G state;
    std::unique_ptr<mcts::Search<G>> search;
    std::vector<Position<G>> positions;
    std::vector<Player> players;
    std::vector<float> root_values;  // the search's value for the player to act
    std::vector<double> surprise;    // KL(improved policy || prior) where weighted by it; else -1
    std::vector<std::size_t>
        action_counts;  // the record's length at each position (the archive's prefixes)
    GameRecord record;
    int decisions = 0;
    bool from_archive = false;  // started from the start-state archive
    bool full = true;
    bool may_resign = false;        // false in the games played out (selfplay.resign_playout)
    int low_decisions[2] = {0, 0};  // each player's decisions in a row below the resignation line
    std::optional<Player> would_resign;  // in a game played out, the first player to cross it
    int decided_streak = 0;              // decisions in a row past selfplay.decided_value ...
    int decided_sign = 0;                // ... for player 0 (+1) or player 1 (-1)
    std::optional<Player> called_for;    // the side the root values called the game for
  };

  // selfplay.decided_value: the root values call the game for a side once they have
  // favoured it by the threshold on selfplay.decided_decisions decisions in a row (both
  // players' decisions, each value turned to player 0's view). KataGo likewise cuts the
  // visits of positions whose winner is clear.
  void track_decided(Slot& slot, float root_value) {
    if (config_.selfplay_decided_value <= 0 || slot.called_for) return;
    const double v_p0 = slot.state.to_act() == Player::kP0 ? root_value : -root_value;
    const double line = config_.selfplay_decided_value;
    const int sign = v_p0 >= line ? 1 : v_p0 <= -line ? -1 : 0;
    slot.decided_streak = sign == 0 ? 0 : sign == slot.decided_sign ? slot.decided_streak + 1 : 1;
    slot.decided_sign = sign;
    if (slot.decided_streak >= config_.selfplay_decided_decisions)
      slot.called_for = sign > 0 ? Player::kP0 : Player::kP1;
  }

  // A player resigns once its root value has been below -selfplay.resign_value on two of
  // its decisions in a row (one low value from a 4-simulation search is too easily
  // wrong). In the games played out it is only remembered, for the false-resignation count.
  static constexpr int kLowDecisionsToResign = 2;
  bool resigns(Slot& slot, float root_value) {
    if (config_.selfplay_resign_value <= 0) return false;
    const Player me = slot.state.to_act();
    int& low = slot.low_decisions[me == Player::kP0 ? 0 : 1];
    low = root_value < -config_.selfplay_resign_value ? low + 1 : 0;
    if (low < kLowDecisionsToResign) return false;
    if (slot.may_resign) return true;
    if (!slot.would_resign) slot.would_resign = me;
    return false;
  }

  void new_game(Slot& slot) {
    slot.state = G::random_setup(rng_);
    slot.positions.clear();
    slot.players.clear();
    slot.root_values.clear();
    slot.surprise.clear();
    slot.action_counts.clear();
    slot.record = GameRecord{};
    slot.record.setup = slot.state.setup_string();
    slot.from_archive = false;
    // selfplay.archive_share: some games start where an earlier one stood, their record
    // keeping the actions that led there (the draw only with the archive on, so runs
    // without it keep their random stream).
    if (config_.selfplay_archive_share > 0 && !archive_.empty() &&
        rng_.uniform() < config_.selfplay_archive_share) {
      const auto& start = archive_.draw(rng_);
      slot.state = start.state;
      slot.record.setup = start.setup;
      slot.record.actions = start.prefix;
      slot.from_archive = true;
      ++stats_.archive_starts;
    }
    slot.decisions = 0;
    // The draw happens only with resignation on, so runs without it keep their random stream.
    slot.may_resign =
        config_.selfplay_resign_value > 0 && rng_.uniform() >= config_.selfplay_resign_playout;
    slot.low_decisions[0] = slot.low_decisions[1] = 0;
    slot.would_resign.reset();
    slot.decided_streak = slot.decided_sign = 0;
    slot.called_for.reset();
  }

  void apply(Slot& slot, Action a) {
    slot.record.actions.push_back(slot.state.action_to_string(a));
    slot.search->advance(a);
    slot.state.apply(a);
  }

  // Plays chance outcomes and finishes games until the slot waits for a decision.
  void settle(Slot& slot) {
    for (;;) {
      while (!slot.state.is_terminal() && slot.state.to_act() == Player::kChance)
        apply(slot, sample_chance(slot.state, rng_));
      if (!slot.state.is_terminal()) return;
      finish(slot, slot.state.outcome());
      new_game(slot);
    }
  }

  void play(Slot& slot, const mcts::SearchResult& r) {
    Position<G> p;
    p.state = slot.state;
    double surprise = -1.0;
    if (r.full) {
      for (std::size_t i = 0; i < r.actions.size(); ++i)
        p.policy.emplace_back(r.actions[i], r.policy[i]);
      if (config_.train_policy_surprise > 0) surprise = kl_divergence(r.policy, r.prior);
      stats_.policy_kl_micronats +=
          static_cast<std::int64_t>(1e6 * kl_divergence(r.prior, r.policy));
      ++stats_.full_searches;
    }
    slot.surprise.push_back(surprise);
    slot.positions.push_back(std::move(p));
    slot.players.push_back(slot.state.to_act());
    slot.root_values.push_back(r.value);
    slot.action_counts.push_back(slot.record.actions.size());
    track_decided(slot, r.value);
    if (resigns(slot, r.value)) {
      finish(slot, slot.state.to_act() == Player::kP0 ? Outcome::kP1Win : Outcome::kP0Win,
             std::string(kResignation));
      new_game(slot);
      return;
    }
    // Early moves follow the visit counts at a temperature (PUCT) or the Gumbel sample;
    // later ones the best move.
    Action a = r.best;
    if (!config_.selfplay_search.gumbel && slot.decisions < config_.selfplay_temperature_moves)
      a = mcts::choose_by_visits(r, static_cast<float>(config_.selfplay_temperature), rng_);
    ++slot.decisions;
    apply(slot, a);
  }

  // `termination`: empty for a game played to its end; else why it stopped (a resignation,
  // whose `outcome` the moves have not reached).
  void finish(Slot& slot, Outcome outcome, std::string termination = {}) {
    slot.record.outcome = outcome;
    if (!termination.empty()) ++stats_.resigned;
    if (slot.would_resign) {
      ++stats_.resign_checks;
      if (outcome_value(outcome, *slot.would_resign) >= 0) ++stats_.resign_false;
    }
    if (slot.called_for) {
      ++stats_.decided;
      if (outcome_value(outcome, *slot.called_for) <= 0) ++stats_.decided_wrong;  // a draw too
    }
    // The value target: the result, blended with the search's root value and, for games
    // decided by points, with the squashed final margin (a denser signal than win/loss).
    double margin_p0 = 0.0;
    if constexpr (kDecidedByPoints<G>)
      if (termination.empty()) margin_p0 = slot.state.score_margin();  // defined at the end only
    // A draw may instead count as a small win or loss by the game's progress heuristic
    // (train.draw_progress): a gradient towards winning where draws are all self-play sees.
    // A game the turn cap cut may be scored from where it stood (train.cap_value).
    const bool capped = termination.empty() && ended_by_cap(slot.state);
    if (slot.record.outcome != Outcome::kDraw) {
      ++stats_.decisive;
      if (slot.from_archive) ++stats_.archive_decisive;
    }
    if (capped) ++stats_.capped;
    float draw_p0 = 0.0f;
    if constexpr (kHasProgress<G>)
      if (slot.record.outcome == Outcome::kDraw)
        draw_p0 = static_cast<float>(config_.train_draw_progress * slot.state.progress());
    if (capped && config_.train_cap_value != "draw") draw_p0 = capped_value_p0(slot);
    const auto result_for = [&](Player p) {
      if (slot.record.outcome == Outcome::kDraw) return p == Player::kP0 ? draw_p0 : -draw_p0;
      return outcome_value(slot.record.outcome, p);
    };
    const std::vector<float> searched = searched_values(
        slot.players, slot.root_values, result_for(Player::kP0), config_.train_value_horizon);
    const std::size_t n = slot.positions.size();
    for (std::size_t i = 0; i < n; ++i) {
      // train.result_discount: the result counts D^k, k decisions before the end.
      const float z = result_for(slot.players[i]) *
                      static_cast<float>(std::pow(config_.train_result_discount, n - i - 1));
      const double margin = slot.players[i] == Player::kP0 ? margin_p0 : -margin_p0;
      float evaluation = 0.0f;
      if constexpr (kHasEvaluation<G>)
        if (config_.train_evaluation_mix > 0)
          evaluation = azg::evaluation(slot.positions[i].state, slot.players[i]);
      slot.positions[i].value = value_target(config_, z, searched[i], margin, evaluation);
      // The game's end, for the ownership and score targets (computed at sampling time).
      if (config_.net_ownership || config_.net_score_head)
        slot.positions[i].final_state = slot.state;
    }
    if (config_.selfplay_archive_share > 0)
      archive_.add_game(slot.positions, slot.action_counts, slot.record, rng_);
    stats_.positions += static_cast<std::int64_t>(slot.positions.size());
    stats_.games += 1;
    sink_.add(FinishedGame<G>{weighted_by_surprise(slot), slot.record, network_step_.load(),
                              std::move(termination)});
    slot.positions.clear();  // moved from: the next game starts empty
  }

  // train.cap_value for a game the cap cut, player 0's view: the mean root value of the
  // last kCapSearches searches (the very last ones see the cap's draw among their leaves,
  // so one alone would say 0 too), or the static evaluation of the final position.
  static constexpr std::size_t kCapSearches = 16;
  float capped_value_p0(const Slot& slot) const {
    if (config_.train_cap_value == "evaluation") {
      if constexpr (kHasEvaluation<G>)
        return static_cast<float>(
            std::clamp(static_cast<double>(slot.state.evaluate()), -1.0, 1.0));
    }
    const std::size_t n = std::min(kCapSearches, slot.root_values.size());
    double sum = 0;
    for (std::size_t i = slot.root_values.size() - n; i < slot.root_values.size(); ++i)
      sum += slot.players[i] == Player::kP0 ? slot.root_values[i] : -slot.root_values[i];
    return n ? static_cast<float>(sum / static_cast<double>(n)) : 0.0f;
  }

  double elapsed_s() const {
    return base_elapsed_s_ +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  // The game's positions, each as many times as train.policy_surprise gives it.
  std::vector<Position<G>> weighted_by_surprise(Slot& slot) {
    if (config_.train_policy_surprise <= 0) return std::move(slot.positions);
    const std::vector<int> copies =
        surprise_copies(slot.surprise, config_.train_policy_surprise, rng_);
    std::vector<Position<G>> out;
    out.reserve(slot.positions.size());
    for (std::size_t i = 0; i < slot.positions.size(); ++i)
      for (int c = 0; c < copies[i]; ++c) out.push_back(slot.positions[i]);
    return out;
  }

  const TrainConfig& config_;
  TimedEvaluator<G> evaluator_;
  GameSink<G>& sink_;
  SelfPlayStats& stats_;
  const std::atomic<std::int64_t>& network_step_;
  Rng rng_;
  double base_elapsed_s_;
  std::chrono::steady_clock::time_point started_;
  std::vector<Slot> slots_;
  // Each worker keeps its own archive: no lock on the game loop, and a worker's recent
  // games are as good a sample as all workers'.
  static constexpr std::size_t kArchiveCapacity = 512;
  StartArchive<G> archive_{kArchiveCapacity};
};

}  // namespace azg::trainer
