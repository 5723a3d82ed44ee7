#pragma once
// The run store, one role of a training run (compiled once): the run directory and its
// lock, the network session with its checkpoint sets, resume, the counters and the game
// records. It knows nothing of the game: the game's parts of a checkpoint set (the
// replay buffer, an actor feed's state) are written by the caller between begin_set() and
// commit_set(), and read back from the set open() names. Nothing here calls out.
#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "core/rng.hpp"
#include "nets/session.hpp"
#include "parallel/learner_group.hpp"
#include "trainer/config.hpp"
#include "trainer/game_records.hpp"
#include "trainer/run_lock.hpp"
#include "trainer/run_state.hpp"

namespace azg::trainer {

// A checkpoint set's directory name: step-00001234.
std::string checkpoint_set_name(std::int64_t step);

// With a learner group (`azg learner --learners N`), rank 0 is the run: its directory
// holds the model's checkpoints, metrics, evaluations and exported models. Every other
// rank keeps only its shard of the games in its own directory (checkpoint sets with its
// buffer, feed state and counters, and its game records), written at the same steps;
// its network comes from rank 0 at start and stays equal to it step by step.
class RunStore {
 public:
  RunStore(const TrainConfig& config, std::string run_dir, std::ostream& out, nets::ModelMeta meta,
           parallel::LearnerGroup* group);

  struct Opened {
    bool fresh = true;       // a new run (or shard): its first set is the caller's to write
    std::string resume_set;  // otherwise the set to read the game's parts from
  };
  // Opens the run directory under its lock: resumes the network, counters and records
  // from the last complete checkpoint set (the same configuration only), or starts anew.
  Opened open(const nets::OptimConfig& optim);
  // The line that says where the run (or shard) starts, once the caller read its buffer.
  void announce(const Opened& opened, std::size_t buffer_positions);

  // A checkpoint set in two halves around the game's parts. begin_set() records the
  // counters and writes the network (rank 0), and returns the set's directory;
  // commit_set() writes the counters and makes the set the run's (LATEST).
  std::string begin_set(std::int64_t positions);
  void commit_set();
  // The run is over: its last set says so, and a later `azg train` only reports it.
  void mark_finished();

  double elapsed() const;  // the run's clock, across resumes
  bool done() const;       // run.steps or run.minutes reached

  // Rank 0 of a learner group, or a run on its own: the one that owns the run directory.
  bool primary() const { return group_ == nullptr || group_->rank() == 0; }
  parallel::LearnerGroup* group() const { return group_; }
  const RunDir& dir() const { return dir_; }
  const nets::ModelMeta& meta() const { return meta_; }
  nets::TrainingSession& session() { return *session_; }
  RunCounters& counters() { return counters_; }
  const RunCounters& counters() const { return counters_; }
  Rng& rng() { return rng_; }
  GameRecordWriter& records() { return *records_; }

 private:
  Opened open_primary(const nets::OptimConfig& optim);
  void resume_games(const std::string& set);  // counters and records of a set
  void share_start(bool fresh);               // run_store_group.cpp
  Opened open_shard(const nets::OptimConfig& optim);

  const TrainConfig& config_;
  RunDir dir_;
  std::ostream& out_;
  nets::ModelMeta meta_;
  parallel::LearnerGroup* group_;
  std::unique_ptr<RunLock> lock_;  // held from open() to the end of the run
  std::unique_ptr<nets::TrainingSession> session_;
  std::unique_ptr<GameRecordWriter> records_;
  RunCounters counters_;
  Rng rng_{1};
  double base_elapsed_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace azg::trainer
