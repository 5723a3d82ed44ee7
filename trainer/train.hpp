#pragma once
// `azg train`: self-play workers and the training loop in one process, with checkpoints,
// metrics, evaluations and a final report. Killed at any moment, the same command
// resumes from the last complete checkpoint set. TrainingRun<G> wires the run's roles,
// and data flows one way: self-play workers (or an actor feed) -> replay buffer ->
// learner loop -> published weights. The roles without the game are compiled once: the
// run store (directory, checkpoint sets, counters), the metrics log and the evaluation
// gate; the game's are the buffer, the workers, the learner loop and the matches.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "trainer/evaluation_gate.hpp"
#include "trainer/game_feed.hpp"
#include "trainer/game_matches.hpp"
#include "trainer/learner_loop.hpp"
#include "trainer/metrics_log.hpp"
#include "trainer/model_meta.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/run_precision.hpp"
#include "trainer/run_store.hpp"
#include "trainer/schedule.hpp"
#include "trainer/selfplay.hpp"
#include "trainer/training_run.hpp"
#include "trainer/worker_threads.hpp"

namespace azg::trainer {

// Raises the calling thread's nice value (Linux: per thread), so the learner thread wins
// the cores whenever it has work and self-play uses what is left.
inline void lower_thread_priority(int nice) {
  if (nice > 0) ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
}

template <Game G>
class TrainingRun {
 public:
  // `feed`: games from actors instead of the run's own self-play workers (azg learner).
  // `group`: this process is one rank of data-parallel learners (RunStore says who owns
  // what); each rank keeps 1/N of the replay capacity, so the group holds what one
  // learner would.
  TrainingRun(TrainConfig config, std::string run_dir, std::ostream& out,
              std::unique_ptr<GameFeed<G>> feed = nullptr, parallel::LearnerGroup* group = nullptr)
      : config_((check_config_for_game<G>(config), std::move(config))),  // before the directory
        out_(out),
        meta_(model_meta<G>(config_)),
        precision_(config_, meta_),
        store_(config_, std::move(run_dir), out, meta_, group),
        metrics_(config_, store_.dir(), out, ::isatty(STDOUT_FILENO) != 0),
        gate_(config_, store_.dir(), out),
        matches_(config_),
        buffer_(static_cast<std::size_t>(
            std::max<std::int64_t>(1, config_.replay_capacity / (group ? group->size() : 1)))),
        feed_(std::move(feed)) {}

  TrainReport run() {
    nets::set_torch_threads(config_.torch_threads);
    open();
    if (store_.counters().finished) {
      out_ << "run " << store_.dir().root() << " is already complete (step "
           << store_.counters().step << ")\n";
      TrainReport report;
      report.final_model = store_.dir().path("models/final.pt");
      return report;
    }
    // In a learner group every rank enters the loop, whose first turn says whether to go
    // on: the end is rank 0's to decide (its clock), and the ranks' calls must pair up.
    if (store_.group() != nullptr || !store_.done()) train_loop();
    save_checkpoint();
    TrainReport report;
    if (store_.primary())  // rank 0 exports the model and plays the final evaluation
      report = gate_.finish(store_.session(), meta_, store_.counters().step, nn_share_, matches_);
    store_.mark_finished();
    return report;
  }

 private:
  // The run store opens the directory; the buffer and the feed's state come from the set
  // it resumes, and a new run writes its first set at once.
  void open() {
    const RunStore::Opened opened = store_.open(precision_.optim_config());
    if (!opened.resume_set.empty()) {
      buffer_.load(opened.resume_set + "/buffer.bin");
      if (feed_) feed_->load(opened.resume_set);
    }
    store_.announce(opened, buffer_.size());
    if (opened.fresh) save_checkpoint();
    stats_.games = store_.counters().games;
    stats_.positions = store_.counters().positions;
  }

  // A checkpoint set: the store's network and counters around this run's buffer and feed
  // state. A feed's games are held for the whole set, so the records, the buffer and the
  // feed's state in it agree on the games; the feed hears of the set once it is the run's.
  void save_checkpoint() {
    const std::unique_lock<std::mutex> games_held =
        feed_ ? std::unique_lock<std::mutex>(feed_->lock()) : std::unique_lock<std::mutex>{};
    const std::string set = store_.begin_set(stats_.positions);
    buffer_.save(set + "/buffer.bin");
    if (feed_) feed_->save(set);
    store_.commit_set();
    if (feed_) feed_->checkpointed();  // games are held: it must not add any
  }

  std::function<void(const std::string&)> exporter() {
    return [this](const std::string& path) { store_.session().export_model(path, meta_); };
  }

  // The moment the metrics log reads.
  RunSnapshot snapshot(const typename LearnerLoop<G>::Turn& turn, const nets::Losses& losses,
                       std::chrono::steady_clock::time_point loop_start) const {
    RunSnapshot s;
    s.step = store_.counters().step;
    s.elapsed = store_.elapsed();
    s.progress = run_progress(config_, s.step, s.elapsed);
    s.seconds = seconds_since(loop_start);
    s.games = turn.games;
    s.positions = turn.positions;
    s.buffer = turn.buffer;
    s.games_in_loop = turn.games - games_at_loop_start_;
    s.selfplay = SelfPlayCounts::of(stats_);
    s.evaluations_in_loop = s.selfplay.evaluations - evals_at_loop_start_;
    s.losses = losses;
    return s;
  }

  typename LearnerLoop<G>::Turn next_turn(LearnerLoop<G>& learner, bool stopped) const {
    const std::int64_t step = store_.counters().step;
    typename LearnerLoop<G>::Local local;
    local.stop = stopped || (store_.primary() && store_.done());
    local.learning_rate =
        store_.primary() ? learning_rate(config_, run_progress(config_, step, store_.elapsed()))
                         : 0.0;
    local.step = step;
    local.games = stats_.games.load();
    local.positions = stats_.positions.load();
    return learner.next_turn(local);
  }

  // After a step: the checkpoints, metrics and evaluations that fall on it.
  void after_step(const typename LearnerLoop<G>::Turn& turn, const nets::Losses& losses,
                  std::chrono::steady_clock::time_point loop_start) {
    const std::int64_t step = store_.counters().step;
    if (store_.primary() && step % config_.run_log_every == 0)
      metrics_.log(snapshot(turn, losses, loop_start));
    if (step % config_.run_checkpoint_every == 0) save_checkpoint();
    if (store_.primary() && config_.eval_every > 0 && step % config_.eval_every == 0)
      gate_.evaluate(store_.session(), meta_, store_.counters(), matches_);
  }

  void train_loop() {
    // Self-play wants throughput, not bit-identical games across processes: auto is timed.
    const bool timed = config_.inference_precision == "auto";
    inference_ = store_.session().make_inference(
        config_.device, timed ? precision_.automatic() : config_.inference_precision);
    out_ << "self-play network in " << inference_->precision()
         << (!timed ? ""
             : inference_->precision() == "fp16"
                 ? " (inference_precision=auto on a GPU)"
                 : " (inference_precision=auto: the faster on this CPU)")
         << std::endl;
    SelfPlayEvaluator<G> evaluator(config_, inference_, [this] {
      return run_progress(config_, network_step_.load(), store_.elapsed());
    });
    network_step_ = store_.counters().step;
    std::atomic<bool> stop{false};
    LocalGameSink<G> sink(config_, buffer_, store_.records(), network_step_);
    std::vector<std::unique_ptr<SelfPlayWorker<G>>> workers;
    if (!feed_)
      for (int t = 0; t < config_.selfplay_threads; ++t)
        workers.push_back(std::make_unique<SelfPlayWorker<G>>(
            config_, evaluator.get(), sink, stats_, network_step_, store_.rng().next(),
            store_.elapsed()));
    // One OS thread per worker: workers loop for the whole run beside the learner on this
    // thread. (As TBB tasks they ran on TBB's workers only, which number one fewer than
    // the cores, so on 2 cores a second self-play worker never ran beside the first.)
    // A worker's exception stops the run and is rethrown once every thread is joined.
    WorkerThreads threads(stop);
    for (auto& w : workers)
      threads.start([this, &stop, worker = w.get()] {
        lower_thread_priority(config_.selfplay_nice);
        worker->run(stop);
      });
    if (feed_) {
      if (store_.primary())
        feed_->published(store_.counters().step,
                         exporter());  // actors start from the run's weights
      threads.start([&] { feed_->run(sink, stats_, stop); });
    }
    LearnerLoop<G> learner(config_, buffer_, store_.session(), store_.group());
    const bool tty = store_.primary() && ::isatty(STDOUT_FILENO);
    auto last_print = std::chrono::steady_clock::now();
    const auto loop_start = std::chrono::steady_clock::now();
    typename LearnerLoop<G>::Turn turn;
    try {
      turn = next_turn(learner, stop);
      games_at_loop_start_ = turn.games;
      evals_at_loop_start_ = stats_.evaluations;
      metrics_.begin(SelfPlayCounts::of(stats_));
      while (!turn.stop) {
        if (!turn.ready) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
          const bool published =
              learner.step(turn.learning_rate, store_.rng(), *inference_, network_step_);
          store_.counters().step = store_.session().steps();
          if (published && feed_ && store_.primary())
            feed_->published(store_.counters().step, exporter());
          after_step(turn, learner.losses(), loop_start);
        }
        const auto now = std::chrono::steady_clock::now();
        if (tty && now - last_print > std::chrono::milliseconds(500)) {
          metrics_.progress(snapshot(turn, learner.losses(), loop_start));
          last_print = now;
        }
        turn = next_turn(learner, stop);
      }
    } catch (...) {
      stop = true;  // the threads are joined on the way out
      throw;
    }
    threads.join();
    if (tty) out_ << '\n';
    nn_share_ = metrics_.selfplay_time(SelfPlayCounts::of(stats_), inference_->precision());
    metrics_.selfplay_rate(snapshot(turn, learner.losses(), loop_start), store_.primary());
    store_.records().flush();
  }

  TrainConfig config_;
  std::ostream& out_;
  nets::ModelMeta meta_;
  RunPrecision precision_;
  RunStore store_;
  MetricsLog metrics_;
  EvaluationGate gate_;
  GameMatches<G> matches_;
  ReplayBuffer<G> buffer_;
  std::unique_ptr<GameFeed<G>> feed_;
  SelfPlayStats stats_;  // the workers' (or the feed's) counters
  Model inference_;      // the self-play network, which the learner publishes to
  std::atomic<std::int64_t> network_step_{0};
  std::int64_t games_at_loop_start_ = 0, evals_at_loop_start_ = 0;
  double nn_share_ = 0;
};

template <Game G>
TrainReport run_training(const TrainConfig& config, const std::string& run_dir, std::ostream& out) {
  return TrainingRun<G>(config, run_dir, out).run();
}

template <Game G>
TrainReport run_fed_training(const TrainConfig& config, const std::string& run_dir,
                             std::ostream& out, std::unique_ptr<GameFeed<G>> feed,
                             parallel::LearnerGroup* group) {
  return TrainingRun<G>(config, run_dir, out, std::move(feed), group).run();
}

}  // namespace azg::trainer
