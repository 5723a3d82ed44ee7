#pragma once
// `azg train`: self-play workers and the training loop in one process, with checkpoints,
// metrics, evaluations and a final report. Killed at any moment, the same command
// resumes from the last complete checkpoint set. This is the game's part: the replay
// buffer, the workers and the agents; the rest is compiled once (trainer/run_core).
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

#include "play/paired_games.hpp"
#include "play/sprt_match.hpp"
#include "trainer/game_feed.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/run_core.hpp"
#include "trainer/schedule.hpp"
#include "trainer/selfplay.hpp"
#include "trainer/worker_threads.hpp"

namespace azg::trainer {

template <Game G>
nets::ModelMeta model_meta(const TrainConfig& c) {
  nets::NetConfig net;
  net.blocks = c.net_blocks;
  net.channels = c.net_channels;
  net.global_pooling = c.net_global_pooling;
  net.value_head = c.net_value_head;
  net.value_hidden = c.net_value_hidden;
  net.ownership = c.net_ownership;
  net.policy_head = c.net_policy_head;
  net.score_head = c.net_score_head;
  net.score_utility = c.net_score_utility;
  nets::ModelMeta meta = nets::meta_for<G>(net);
  meta.config_hash = c.hash();
  return meta;
}

// Raises the calling thread's nice value (Linux: per thread), so the learner thread wins
// the cores whenever it has work and self-play uses what is left.
inline void lower_thread_priority(int nice) {
  if (nice > 0) ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
}

template <Game G>
class TrainingRun {
 public:
  // `feed`: games from actors instead of the run's own self-play workers (azg learner).
  // `group`: this process is one rank of data-parallel learners (RunCore says who owns
  // what); each rank keeps 1/N of the replay capacity, so the group holds what one
  // learner would.
  TrainingRun(TrainConfig config, std::string run_dir, std::ostream& out,
              std::unique_ptr<GameFeed<G>> feed = nullptr, parallel::LearnerGroup* group = nullptr)
      : learners_(group ? group->size() : 1),
        primary_(group == nullptr || group->rank() == 0),
        buffer_(static_cast<std::size_t>(
            std::max<std::int64_t>(1, config.replay_capacity / learners_))),
        feed_(std::move(feed)),
        core_((check_config_for_game<G>(config), config),  // before the run directory is touched
              std::move(run_dir), out, model_meta<G>(config), hooks(), group) {}

  TrainReport run() {
    nets::set_torch_threads(core_.config().torch_threads);
    core_.open_or_resume();
    if (core_.finished()) {
      core_.out() << "run " << core_.dir().root() << " is already complete (step "
                  << core_.counters().step << ")\n";
      TrainReport report;
      report.final_model = core_.dir().path("models/final.pt");
      return report;
    }
    // In a learner group every rank enters the loop, whose first turn says whether to go
    // on: the end is rank 0's to decide (its clock), and the ranks' calls must pair up.
    if (core_.group() != nullptr || !core_.done()) train_loop();
    core_.save_checkpoint();
    return core_.finish();
  }

 private:
  // The network agent of evaluations (the eval.search.* keys, the run's eval.rollout_mix and
  // eval.heuristic_mix) at `simulations`, and the UCT baseline.
  play::AgentFactory<G> eval_agent(Model model, int simulations) const {
    mcts::SearchConfig search = core_.config().eval_search;
    search.simulations = simulations;
    return play::network_agent<G>(
        std::move(model), search,
        play::LeafMix{core_.config().eval_rollout_mix, core_.config().eval_heuristic_mix});
  }
  play::AgentFactory<G> baseline() const {
    return play::uct_agent<G>(play::uct_search(core_.config().eval_baseline_simulations));
  }

  GameHooks hooks() {
    GameHooks h;
    h.save_buffer = [this](const std::string& path) {
      buffer_.save(path);  // a feed's games are held for the whole checkpoint (hold_games)
      if (feed_) feed_->save(std::filesystem::path(path).parent_path().string());
    };
    h.load_buffer = [this](const std::string& path) {
      buffer_.load(path);
      if (feed_) feed_->load(std::filesystem::path(path).parent_path().string());
    };
    if (feed_) {
      h.hold_games = [this] { return std::unique_lock<std::mutex>(feed_->lock()); };
      h.after_checkpoint = [this] { feed_->checkpointed(); };
      if (primary_)
        h.after_publish = [this](std::int64_t step) { feed_->published(step, exporter()); };
    }
    h.buffer_size = [this] { return buffer_.size(); };
    h.model_match = [this](Model a, Model b, int sims, int games, std::uint64_t seed) {
      return play::match_score<G>(eval_agent(a, sims), eval_agent(b, sims), games, 1, seed,
                                  core_.config().eval_opening_plies);
    };
    h.model_sprt = [this](Model a, Model b, int sims, play::Sprt& sprt, int max_games,
                          std::uint64_t seed) {
      return play::run_sprt<G>(eval_agent(a, sims), eval_agent(b, sims), sprt, max_games, 1, seed,
                               nullptr, core_.config().eval_opening_plies);
    };
    h.vs_uct = [this](Model m, int sims, int games, int threads, std::uint64_t seed) {
      return play::match_score<G>(eval_agent(m, sims), baseline(), games, threads, seed);
    };
    h.vs_random = [this](Model m, int sims, int games, int threads, std::uint64_t seed) {
      return play::match_score<G>(eval_agent(m, sims), play::random_agent<G>(), games, threads,
                                  seed);
    };
    return h;
  }

  std::function<void(const std::string&)> exporter() {
    return [this](const std::string& path) { core_.session().export_model(path, core_.meta()); };
  }

  void train_loop() {
    const TrainConfig& config = core_.config();
    // Self-play wants throughput, not bit-identical games across processes: auto is timed.
    const bool timed = config.inference_precision == "auto";
    core_.inference() = core_.session().make_inference(
        config.device, timed ? core_.auto_precision() : config.inference_precision);
    core_.out() << "self-play network in " << core_.inference()->precision()
                << (!timed ? ""
                    : core_.inference()->precision() == "fp16"
                        ? " (inference_precision=auto on a GPU)"
                        : " (inference_precision=auto: the faster on this CPU)")
                << std::endl;
    SelfPlayEvaluator<G> evaluator(config, core_.inference(), [this, &config] {
      return run_progress(config, core_.network_step().load(), core_.elapsed());
    });
    core_.network_step() = core_.counters().step;
    std::atomic<bool> stop{false};
    LocalGameSink<G> sink(config, buffer_, core_.records(), core_.network_step());
    std::vector<std::unique_ptr<SelfPlayWorker<G>>> workers;
    if (!feed_)
      for (int t = 0; t < config.selfplay_threads; ++t)
        workers.push_back(std::make_unique<SelfPlayWorker<G>>(config, evaluator.get(), sink,
                                                              core_.stats(), core_.network_step(),
                                                              core_.rng().next(), core_.elapsed()));
    // One OS thread per worker: workers loop for the whole run beside the learner on this
    // thread. (As TBB tasks they ran on TBB's workers only, which number one fewer than
    // the cores, so on 2 cores a second self-play worker never ran beside the first.)
    // A worker's exception stops the run and is rethrown once every thread is joined.
    WorkerThreads threads(stop);
    for (auto& w : workers)
      threads.start([&, worker = w.get()] {
        lower_thread_priority(config.selfplay_nice);
        worker->run(stop);
      });
    if (feed_) {
      if (primary_)
        feed_->published(core_.counters().step, exporter());  // actors start from the run's weights
      threads.start([&] { feed_->run(sink, core_.stats(), stop); });
    }
    const bool tty = primary_ && ::isatty(STDOUT_FILENO);
    auto last_print = std::chrono::steady_clock::now();
    const auto loop_start = std::chrono::steady_clock::now();
    nets::RawBatch batch;
    nets::Losses losses;
    std::int64_t games_at_start = 0, evals_at_start = 0;
    try {
      Turn turn = next_turn(stop);
      games_at_start = core_.shown_games();
      evals_at_start = core_.stats().evaluations;
      while (!turn.stop) {
        if (!turn.ready) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
          core_.session().set_learning_rate(turn.learning_rate);
          buffer_.sample(config.train_batch_size, core_.rng(), config.replay_symmetries,
                         sample_targets(config), batch);
          losses = core_.session().step(batch);
          core_.after_step(losses, loop_start, games_at_start, evals_at_start);
        }
        const auto now = std::chrono::steady_clock::now();
        if (tty && now - last_print > std::chrono::milliseconds(500)) {
          core_.print_progress(losses, loop_start, games_at_start, evals_at_start);
          last_print = now;
        }
        turn = next_turn(stop);
      }
    } catch (...) {
      stop = true;  // the threads are joined on the way out
      throw;
    }
    threads.join();
    if (tty) core_.out() << '\n';
    core_.report_selfplay_time(core_.inference()->precision());
    core_.log_selfplay_rate(loop_start, games_at_start, evals_at_start);
    core_.records().flush();
  }

  // What the loop does next. Alone, from this run's own state; in a learner group, agreed
  // by all ranks in one sum, since each step is collective: rank 0 decides the end (its
  // clock) and the learning rate, any rank's failure stops them all, and they step once
  // the group's buffers together meet train.min_positions and train.reuse (one learner's
  // rules for N times the batch) with none of them empty.
  struct Turn {
    bool stop = false, ready = false;
    double learning_rate = 0;
  };
  Turn next_turn(bool stopped) {
    const TrainConfig& config = core_.config();
    const std::int64_t step = core_.counters().step;
    double v[] = {
        buffer_.size() == 0 ? 1.0 : 0.0,
        stopped || (primary_ && core_.done()) ? 1.0 : 0.0,
        primary_ ? learning_rate(config, run_progress(config, step, core_.elapsed())) : 0.0,
        static_cast<double>(buffer_.size()),
        static_cast<double>(buffer_.added()),
        static_cast<double>(core_.stats().games.load()),
        static_cast<double>(core_.stats().positions.load())};
    if (core_.group() != nullptr) core_.group()->sum(v, std::size(v));
    core_.set_group_totals(static_cast<std::int64_t>(v[5]), static_cast<std::int64_t>(v[6]),
                           static_cast<std::size_t>(v[3]));
    Turn t;
    t.stop = v[1] > 0;
    t.learning_rate = v[2];
    t.ready = v[0] == 0 && v[3] >= static_cast<double>(config.train_min_positions) &&
              static_cast<double>((step + 1) * config.train_batch_size * learners_) <=
                  config.train_reuse * v[4];
    return t;
  }

  int learners_;
  bool primary_;
  ReplayBuffer<G> buffer_;
  std::unique_ptr<GameFeed<G>> feed_;  // before core_: its hooks use it
  RunCore core_;
};

}  // namespace azg::trainer
