#pragma once
// The learner loop, one role of a training run: when to step (train.min_positions,
// train.reuse, the end of the run, agreed by a learner group in one collective sum), and
// the step itself: a batch from the replay buffer, one optimizer step, and every
// train.publish_every steps the new weights published to the self-play network.
#include <array>
#include <atomic>
#include <cstdint>

#include "nets/session.hpp"
#include "parallel/learner_group.hpp"
#include "trainer/config.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/selfplay.hpp"

namespace azg::trainer {

template <Game G>
class LearnerLoop {
 public:
  // `group`: null alone; else this rank's buffer is one of the group's.
  LearnerLoop(const TrainConfig& config, ReplayBuffer<G>& buffer, nets::TrainingSession& session,
              parallel::LearnerGroup* group)
      : config_(config),
        buffer_(buffer),
        session_(session),
        group_(group),
        learners_(group ? group->size() : 1) {}

  // What this process knows before a turn; `stop` and `learning_rate` count on rank 0 only.
  struct Local {
    bool stop = false;
    double learning_rate = 0;
    std::int64_t step = 0, games = 0, positions = 0;
  };
  // What the loop does next, and the totals the group's metrics show.
  struct Turn {
    bool stop = false, ready = false;
    double learning_rate = 0;
    std::int64_t games = 0, positions = 0;
    std::size_t buffer = 0;
  };
  // Alone, from this process's state; in a learner group, agreed by all ranks in one sum,
  // since each step is collective: rank 0 decides the end (its clock) and the learning
  // rate, any rank's failure stops them all, and they step once the group's buffers
  // together meet train.min_positions and train.reuse (one learner's rules for N times
  // the batch) with none of them empty.
  Turn next_turn(const Local& local) const {
    const Tally mine{buffer_.size() == 0 ? 1.0 : 0.0,
                     local.stop ? 1.0 : 0.0,
                     local.learning_rate,
                     static_cast<double>(buffer_.size()),
                     static_cast<double>(buffer_.added()),
                     static_cast<double>(local.games),
                     static_cast<double>(local.positions)};
    const Tally all = group_ ? mine.summed(*group_) : mine;
    Turn t;
    t.stop = all.stops > 0;
    t.learning_rate = all.learning_rate;
    t.games = static_cast<std::int64_t>(all.games);
    t.positions = static_cast<std::int64_t>(all.positions);
    t.buffer = static_cast<std::size_t>(all.buffer);
    t.ready = all.empty_buffers == 0 &&
              all.buffer >= static_cast<double>(config_.train_min_positions) &&
              static_cast<double>((local.step + 1) * config_.train_batch_size * learners_) <=
                  config_.train_reuse * all.added;
    return t;
  }

  // One step at `learning_rate`; true when its weights went to `inference`, which
  // self-play reads, and `network_step` names them.
  bool step(double learning_rate, Rng& rng, nets::InferenceModel& inference,
            std::atomic<std::int64_t>& network_step) {
    session_.set_learning_rate(learning_rate);
    buffer_.sample(config_.train_batch_size, rng, symmetry_use(config_), sample_targets(config_),
                   batch_);
    losses_ = session_.step(batch_);
    if (session_.steps() % config_.train_publish_every != 0) return false;
    session_.publish_to(inference);
    network_step = session_.steps();
    return true;
  }
  const nets::Losses& losses() const { return losses_; }

 private:
  // One rank's facts, summed over the group in one collective call.
  struct Tally {
    double empty_buffers, stops, learning_rate, buffer, added, games, positions;
    Tally summed(parallel::LearnerGroup& group) const {
      std::array<double, 7> v{empty_buffers, stops, learning_rate, buffer, added, games, positions};
      group.sum(v.data(), v.size());
      return {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
    }
  };

  const TrainConfig& config_;
  ReplayBuffer<G>& buffer_;
  nets::TrainingSession& session_;
  parallel::LearnerGroup* group_;
  int learners_;
  nets::RawBatch batch_;
  nets::Losses losses_;
};

}  // namespace azg::trainer
