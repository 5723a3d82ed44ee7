#pragma once
// The game-free part of a training run, compiled once: the run directory (config, resume,
// checkpoint sets), the network session, counters and metrics, progress lines, the
// evaluations with their gate, and the final report. The game's part (trainer/train.hpp)
// owns the replay buffer, the self-play workers and the agents, and lends them here as
// functions.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "nets/session.hpp"
#include "parallel/learner_group.hpp"
#include "play/sprt_match.hpp"
#include "trainer/config.hpp"
#include "trainer/game_records.hpp"
#include "trainer/run_lock.hpp"
#include "trainer/run_state.hpp"
#include "trainer/selfplay_stats.hpp"

namespace azg::trainer {

struct TrainReport {
  std::string final_model;
  play::Score vs_random, vs_uct;
  bool trained = false;
};

using Model = std::shared_ptr<nets::InferenceModel>;

// What the game's part lends the core: its replay buffer's persistence and the matches
// evaluations play (network agents on exported models, with the run's search settings).
struct GameHooks {
  std::function<void(const std::string&)> save_buffer, load_buffer;
  std::function<std::size_t()> buffer_size;
  // `a` against `b` at `simulations`: a's score.
  std::function<play::Score(Model a, Model b, int simulations, int games, std::uint64_t seed)>
      model_match;
  std::function<play::SprtMatch(Model a, Model b, int simulations, play::Sprt& sprt, int max_games,
                                std::uint64_t seed)>
      model_sprt;
  // The model at `simulations` against the UCT baseline, or against random: its score.
  std::function<play::Score(Model m, int simulations, int games, int threads, std::uint64_t seed)>
      vs_uct, vs_random;
  // Optional, for a learner fed by actors: once a checkpoint set is complete (LATEST
  // names it), and each time new weights are published to the run's own inference model.
  std::function<void()> after_checkpoint;
  // Optional: held for a whole checkpoint, so no game is added meanwhile and the records,
  // the buffer and the feed's state in the set agree on the games.
  std::function<std::unique_lock<std::mutex>()> hold_games;
  std::function<void(std::int64_t step)> after_publish;
};

// A checkpoint set's directory name: step-00001234.
std::string checkpoint_set_name(std::int64_t step);

// With a learner group (`azg learner --learners N`), rank 0 is the run: its directory
// holds the model's checkpoints, metrics, evaluations and exported models. Every other
// rank keeps only its shard of the games in its own directory (checkpoint sets with its
// buffer, feed state and counters, and its game records), written at the same steps;
// its network comes from rank 0 at start and stays equal to it step by step.
class RunCore {
 public:
  RunCore(TrainConfig config, std::string run_dir, std::ostream& out, nets::ModelMeta meta,
          GameHooks hooks, parallel::LearnerGroup* group = nullptr);

  // Opens the run directory: resumes from its last complete checkpoint set (the same
  // configuration only), or starts a new run and writes its first set.
  void open_or_resume();
  bool finished() const { return counters_.finished; }
  double elapsed() const;
  bool done() const;  // run.steps or run.minutes reached

  // After each training step: the step count, learning rate, metrics, checkpoints and
  // evaluations that fall on it.
  void after_step(const nets::Losses& losses, std::chrono::steady_clock::time_point loop_start,
                  std::int64_t games_at_start, std::int64_t evals_at_start);
  void print_progress(const nets::Losses& l, std::chrono::steady_clock::time_point loop_start,
                      std::int64_t games_at_start, std::int64_t evals_at_start);
  // The share of self-play time spent in the network, and its rate, once self-play ended.
  void report_selfplay_time(const std::string& precision);
  // The whole loop's self-play rate, one metrics row of type "selfplay" and one line: what
  // a throughput check reads (tools/device_check.sh), training steps or none.
  void log_selfplay_rate(std::chrono::steady_clock::time_point loop_start,
                         std::int64_t games_at_start, std::int64_t evals_at_start);
  void save_checkpoint();
  TrainReport finish();

  // Rank 0 of a learner group, or a run on its own: the one that owns the run directory.
  bool primary() const { return group_ == nullptr || group_->rank() == 0; }
  parallel::LearnerGroup* group() { return group_; }
  // The games and positions of the whole learner group, for metrics and progress lines.
  void set_group_totals(std::int64_t games, std::int64_t positions, std::size_t buffer) {
    group_games_ = games;
    group_positions_ = positions;
    group_buffer_ = buffer;
  }
  std::int64_t shown_games() const { return group_ ? group_games_ : stats_.games.load(); }
  std::int64_t shown_positions() const {
    return group_ ? group_positions_ : stats_.positions.load();
  }
  std::size_t shown_buffer() const { return group_ ? group_buffer_ : hooks_.buffer_size(); }

  const TrainConfig& config() const { return config_; }
  RunDir& dir() { return dir_; }
  std::ostream& out() { return out_; }
  nets::TrainingSession& session() { return *session_; }
  RunCounters& counters() { return counters_; }
  SelfPlayStats& stats() { return stats_; }
  Rng& rng() { return rng_; }
  GameRecordWriter& records() { return *records_; }
  std::atomic<std::int64_t>& network_step() { return network_step_; }
  Model& inference() { return inference_; }
  // What inference_precision=auto and train.precision=auto mean for this run: on a CPU
  // with native bfloat16, the faster of fp32 and bf16 for this network, timed once.
  const std::string& auto_precision();
  // The learner's settings from the config, train.precision=auto resolved as above.
  nets::OptimConfig optim_config();
  const nets::ModelMeta& meta() const { return meta_; }

 private:
  void evaluate();
  bool open_primary();                        // true for a new run
  void resume_games(const std::string& set);  // the buffer, counters and records of a set
  void share_start(bool fresh);
  void open_shard();

  void log_metrics(const nets::Losses& l, std::chrono::steady_clock::time_point loop_start,
                   std::int64_t games_at_start, std::int64_t evals_at_start);
  double policy_kl_since_last_log();
  nlohmann::json false_resign_share() const;
  nlohmann::json decisive_share_since_last_log();
  std::string loss_text(const nets::Losses& l, int precision, const char* separator) const;

  TrainConfig config_;
  RunDir dir_;
  std::string auto_precision_;  // "" until auto_precision() first decides
  std::ostream& out_;
  nets::ModelMeta meta_;
  GameHooks hooks_;
  parallel::LearnerGroup* group_;
  std::int64_t group_games_ = 0, group_positions_ = 0;
  std::size_t group_buffer_ = 0;
  std::unique_ptr<RunLock> lock_;  // held from open_or_resume() to the end of the run
  std::unique_ptr<nets::TrainingSession> session_;
  Model inference_;
  std::unique_ptr<GameRecordWriter> records_;
  SelfPlayStats stats_;
  std::atomic<std::int64_t> network_step_{0};
  RunCounters counters_;
  Rng rng_{1};
  double base_elapsed_ = 0;
  double nn_share_ = 0;
  std::int64_t kl_logged_ = 0, kl_searches_logged_ = 0;
  std::int64_t decisive_logged_ = 0, games_logged_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace azg::trainer
