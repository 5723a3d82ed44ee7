#pragma once
// `azg train`: self-play workers and the training loop in one process, with checkpoints,
// metrics, evaluations and a final report. Killed at any moment, the same command
// resumes from the last complete checkpoint set.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <exception>
#include <mutex>
#include <thread>

#include "nets/session.hpp"
#include "trainer/config.hpp"
#include "play/paired_games.hpp"
#include "play/sprt_match.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/run_state.hpp"
#include "trainer/schedule.hpp"
#include "trainer/selfplay.hpp"

namespace azg::trainer {

struct TrainReport {
  std::string final_model;
  play::Score vs_random, vs_uct;
  bool trained = false;
};

template <Game G>
nets::ModelMeta model_meta(const TrainConfig& c) {
  nets::NetConfig net;
  net.blocks = c.net_blocks;
  net.channels = c.net_channels;
  net.global_pooling = c.net_global_pooling;
  net.value_head = c.net_value_head;
  net.value_hidden = c.net_value_hidden;
  net.ownership = c.net_ownership;
  nets::ModelMeta meta = nets::meta_for<G>(net);
  meta.config_hash = c.hash();
  return meta;
}

inline nets::OptimSettings optim_settings(const TrainConfig& c) {
  return {c.optim_optimizer, c.optim_lr, c.optim_momentum, c.optim_weight_decay, c.train_ownership_weight,
          nets::resolve_precision(c.train_precision, c.device)};
}

// Raises the calling thread's nice value (Linux: per thread), so the learner thread wins
// the cores whenever it has work and self-play uses what is left.
inline void lower_thread_priority(int nice) {
  if (nice > 0) ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
}

// Fault injection for the crash-safety test: a pause inside the checkpoint write.
inline void pause_for_crash_test() {
  if (const char* ms = std::getenv("AZG_TEST_CHECKPOINT_PAUSE_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
}

template <Game G>
class TrainingRun {
 public:
  TrainingRun(TrainConfig config, std::string run_dir, std::ostream& out)
      : config_(std::move(config)), dir_(std::move(run_dir)), out_(out), meta_(model_meta<G>(config_)),
        buffer_(static_cast<std::size_t>(config_.replay_capacity)) {
    check_config_for_game<G>(config_);  // before the run directory is touched
  }

  TrainReport run() {
    nets::set_torch_threads(config_.torch_threads);
    open_or_resume();
    records_ = std::make_unique<GameRecordWriter>(dir_.path("games"), config_.selfplay_games_per_file);
    TrainReport report;
    if (!counters_.finished) {
      if (!done()) train_loop();
      save_checkpoint();
      report = finish();
    } else {
      out_ << "run " << dir_.root() << " is already complete (step " << counters_.step << ")\n";
      report.final_model = dir_.path("models/final.pt");
    }
    return report;
  }

 private:
  void open_or_resume() {
    namespace fs = std::filesystem;
    fs::create_directories(dir_.path("checkpoints"));
    fs::create_directories(dir_.path("models"));
    const std::string config_text = config_.to_yaml(false);
    if (dir_.has_checkpoint()) {
      std::ifstream in(dir_.path("config.yaml"));
      const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (saved != config_text)
        throw Error(dir_.root() + " was started with another configuration (see its config.yaml); resume with the same "
                    "options or use another --run-dir");
      const std::string set = dir_.latest_set();
      dir_.prune_checkpoints(2);
      dir_.repair_metrics();
      nets::ModelMeta saved_meta;
      session_ = nets::TrainingSession::resume(set + "/model.ckpt", optim_settings(config_), config_.device, saved_meta);
      saved_meta.template check_game<G>(set + "/model.ckpt");
      buffer_.load(set + "/buffer.bin");
      std::ifstream state_in(set + "/state.json");
      try {
        counters_ = RunCounters::from_json(nlohmann::json::parse(state_in));
      } catch (const nlohmann::json::exception&) {
        throw Error(set + "/state.json is damaged");
      }
      rng_.set_state(counters_.rng);
      out_ << "resuming " << dir_.root() << " at step " << counters_.step << " (" << counters_.games << " games, "
           << buffer_.size() << " positions in the buffer)" << std::endl;
    } else {
      // No complete checkpoint set: a new run (or one killed before its first checkpoint,
      // which starts over).
      dir_.repair_metrics();
      write_text_atomically(dir_.path("config.yaml"), config_text);
      session_ = nets::TrainingSession::create(meta_, optim_settings(config_), config_.seed, config_.device);
      rng_.reseed(config_.seed);
      out_ << "training " << G::kName << " in " << dir_.root() << " (config hash " << config_.hash() << ")" << std::endl;
      save_checkpoint();
    }
    base_elapsed_ = counters_.elapsed_seconds;
    stats_.games = counters_.games;
    stats_.positions = counters_.positions;
  }

  double elapsed() const {
    return base_elapsed_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  bool done() const {
    return counters_.step >= config_.run_steps ||
           (config_.run_minutes > 0 && elapsed() >= config_.run_minutes * 60.0);
  }

  void train_loop() {
    inference_ = session_->make_inference(config_.device, config_.inference_precision);
    nets::NnEvaluator<G> network(inference_);
    mcts::RolloutMixEvaluator<G> mixed(network, static_cast<float>(config_.selfplay_rollout_mix));
    mcts::Evaluator<G>& evaluator = config_.selfplay_rollout_mix > 0 ? static_cast<mcts::Evaluator<G>&>(mixed) : network;
    GameRecordWriter& records = *records_;
    network_step_ = counters_.step;
    std::atomic<bool> stop{false};
    std::vector<std::unique_ptr<SelfPlayWorker<G>>> workers;
    for (int t = 0; t < config_.selfplay_threads; ++t)
      workers.push_back(std::make_unique<SelfPlayWorker<G>>(config_, evaluator, buffer_, records, stats_,
                                                            network_step_, rng_.next()));
    // One OS thread per worker: workers loop for the whole run beside the learner on this
    // thread. (As TBB tasks they ran on TBB's workers only, which number one fewer than
    // the cores, so on 2 cores a second self-play worker never ran beside the first.)
    std::vector<std::thread> threads;
    const auto join_all = [&threads, &stop] {
      stop = true;
      for (auto& t : threads)
        if (t.joinable()) t.join();
    };
    // A worker's exception stops the run and is rethrown here once every thread is joined.
    std::mutex error_mutex;
    std::exception_ptr worker_error;
    for (auto& w : workers)
      threads.emplace_back([&, worker = w.get()] {
        lower_thread_priority(config_.selfplay_nice);
        try {
          worker->run(stop);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!worker_error) worker_error = std::current_exception();
          stop = true;
        }
      });
    const bool tty = ::isatty(STDOUT_FILENO);
    auto last_print = std::chrono::steady_clock::now();
    const auto loop_start = std::chrono::steady_clock::now();
    const std::int64_t games_at_start = stats_.games, evals_at_start = stats_.evaluations;
    nets::RawBatch batch;
    nets::StepLosses losses;
    try {
      while (!done() && !stop) {
        const std::int64_t added = buffer_.added();
        const bool ready = static_cast<std::int64_t>(buffer_.size()) >= config_.train_min_positions &&
                           static_cast<double>((counters_.step + 1) * config_.train_batch_size) <=
                               config_.train_reuse * static_cast<double>(added);
        if (!ready) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
          session_->set_learning_rate(learning_rate(config_, run_progress(config_, counters_.step, elapsed())));
          buffer_.sample(config_.train_batch_size, rng_, config_.replay_symmetries, config_.net_ownership, batch);
          losses = session_->step(batch);
          counters_.step = session_->steps();
          if (counters_.step % config_.train_publish_every == 0) {
            session_->publish_to(*inference_);
            network_step_ = counters_.step;
          }
          if (counters_.step % config_.run_log_every == 0) log_metrics(losses, loop_start, games_at_start, evals_at_start);
          if (counters_.step % config_.run_checkpoint_every == 0) save_checkpoint();
          if (config_.eval_every > 0 && counters_.step % config_.eval_every == 0) evaluate();
        }
        const auto now = std::chrono::steady_clock::now();
        if (tty && now - last_print > std::chrono::milliseconds(500)) {
          print_progress(losses, loop_start, games_at_start, evals_at_start);
          last_print = now;
        }
      }
    } catch (...) {
      join_all();
      throw;
    }
    join_all();
    if (worker_error) std::rethrow_exception(worker_error);
    if (tty) out_ << '\n';
    const double worker_s = static_cast<double>(stats_.worker_nanoseconds.load()) * 1e-9;
    const double nn_s = static_cast<double>(stats_.nn_nanoseconds.load()) * 1e-9;
    if (worker_s > 0) {
      nn_share_ = nn_s / worker_s;
      out_ << std::fixed << std::setprecision(1) << "self-play time: network " << 100 * nn_share_
           << "% (encode + forward + priors), search and rules " << 100 * (1 - nn_share_) << "%\n";
      // The same quantity as azg bench nn's evaluator line on one thread: compare them to
      // see how much the learner and the other workers slow each network call.
      if (nn_s > 0)
        out_ << std::setprecision(0) << "network calls: " << static_cast<double>(stats_.evaluations.load()) / nn_s
             << " evaluations/s per self-play thread while evaluating (" << inference_->precision() << ")\n";
    }
    records.flush();
  }

  void log_metrics(const nets::StepLosses& l, std::chrono::steady_clock::time_point loop_start,
                   std::int64_t games_at_start, std::int64_t evals_at_start) {
    const double s = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count());
    dir_.append_metrics({{"type", "train"},
                         {"step", counters_.step},
                         {"games", stats_.games.load()},
                         {"positions", stats_.positions.load()},
                         {"buffer", buffer_.size()},
                         {"loss_policy", l.policy},
                         {"loss_value", l.value},
                         {"loss_ownership", l.ownership},
                         {"lr", learning_rate(config_, run_progress(config_, counters_.step, elapsed()))},
                         {"games_per_s", static_cast<double>(stats_.games - games_at_start) / s},
                         {"evals_per_s", static_cast<double>(stats_.evaluations - evals_at_start) / s},
                         {"policy_kl", policy_kl_since_last_log()},
                         {"elapsed_s", elapsed()}});
    if (!::isatty(STDOUT_FILENO)) {
      out_ << "step " << counters_.step << "/" << config_.run_steps << "  games " << stats_.games << "  positions "
           << stats_.positions << "  loss " << loss_text(l, 3, " / ") << std::fixed << std::setprecision(1) << "  "
           << static_cast<double>(stats_.games - games_at_start) / s << " games/s  "
           << std::setprecision(0) << static_cast<double>(stats_.evaluations - evals_at_start) / s << " evals/s  "
           << std::setprecision(0) << elapsed() << " s" << std::endl;
    }
  }

  // Mean KL(prior || policy target) of the full searches since the last metrics line.
  double policy_kl_since_last_log() {
    const std::int64_t kl = stats_.policy_kl_micronats.load(), n = stats_.full_searches.load();
    const double mean = n > kl_searches_logged_ ? 1e-6 * static_cast<double>(kl - kl_logged_) /
                                                      static_cast<double>(n - kl_searches_logged_)
                                                : 0.0;
    kl_logged_ = kl;
    kl_searches_logged_ = n;
    return mean;
  }

  // "policy / value", then "/ ownership" for networks with that head.
  std::string loss_text(const nets::StepLosses& l, int precision, const char* separator) const {
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << l.policy << separator << l.value;
    if (config_.net_ownership) text << separator << std::setprecision(precision + 1) << l.ownership;
    return text.str();
  }

  void print_progress(const nets::StepLosses& l, std::chrono::steady_clock::time_point loop_start,
                      std::int64_t games_at_start, std::int64_t evals_at_start) {
    const double s = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count());
    double eta = (config_.run_steps - counters_.step) * s / std::max<std::int64_t>(1, counters_.step + 1);
    if (config_.run_minutes > 0) eta = std::min(eta, config_.run_minutes * 60.0 - elapsed());
    std::ostringstream line;
    line << "\rstep " << counters_.step << "/" << config_.run_steps << "  games " << stats_.games << "  positions "
         << stats_.positions << "  loss " << loss_text(l, 2, "/") << std::fixed << std::setprecision(1) << "  "
         << static_cast<double>(stats_.games - games_at_start) / s << " games/s  "
         << std::setprecision(0) << static_cast<double>(stats_.evaluations - evals_at_start) / s << " evals/s  ETA "
         << static_cast<int>(std::max(0.0, eta)) / 60 << "m" << std::setw(2) << std::setfill('0')
         << static_cast<int>(std::max(0.0, eta)) % 60 << "s   ";
    out_ << line.str() << std::flush;
  }

  void save_checkpoint() {
    char name[32];
    std::snprintf(name, sizeof name, "step-%08lld", static_cast<long long>(counters_.step));
    const std::string set = dir_.path(std::string("checkpoints/") + name);
    std::filesystem::create_directories(set);
    counters_.games = stats_.games;
    counters_.positions = stats_.positions;
    counters_.elapsed_seconds = elapsed();
    counters_.rng = rng_.state();
    if (records_) records_->flush();
    session_->save_checkpoint(set + "/model.ckpt", meta_);
    pause_for_crash_test();
    buffer_.save(set + "/buffer.bin");
    write_text_atomically(set + "/state.json", counters_.to_json().dump(2));
    write_text_atomically(dir_.path("checkpoints/LATEST"), std::string(name) + "\n");
    dir_.prune_checkpoints(2);
  }

  // The network agent of evaluations and the UCT baseline it meets.
  play::AgentFactory<G> eval_agent(std::shared_ptr<nets::InferenceModel> model, int simulations) const {
    return play::network_agent<G>(std::move(model), play::az_search(simulations), config_.eval_rollout_mix);
  }
  play::AgentFactory<G> baseline() const {
    return play::uct_agent<G>(play::uct_search(config_.eval_baseline_simulations));
  }

  void evaluate() {
    char name[32];
    std::snprintf(name, sizeof name, "models/step-%08lld.pt", static_cast<long long>(counters_.step));
    const std::string model_path = dir_.path(name);
    session_->export_model(model_path, meta_);
    auto current = nets::InferenceModel::load(model_path, config_.device, config_.inference_precision);
    nlohmann::json line = {{"type", "eval"}, {"step", counters_.step}, {"model", name}};
    const std::uint64_t seed = config_.seed * 31 + static_cast<std::uint64_t>(counters_.step);
    if (!counters_.previous_model.empty() && std::filesystem::exists(dir_.path(counters_.previous_model))) {
      auto previous =
          nets::InferenceModel::load(dir_.path(counters_.previous_model), config_.device, config_.inference_precision);
      const auto current_agent = eval_agent(current, config_.eval_simulations);
      const auto previous_agent = eval_agent(previous, config_.eval_simulations);
      line["previous"] = counters_.previous_model;
      if (config_.eval_gate == "sprt") {
        // Colour-swapped pairs of games until the SPRT decides (H0: no gain, H1: +elo1).
        play::Sprt sprt(0.0, config_.eval_sprt_elo1, 0.05, 0.05);
        const play::SprtMatch m =
            play::run_sprt<G>(current_agent, previous_agent, sprt, config_.eval_sprt_max_games, 1, seed);
        line["vs_previous"] = m.score.rate();
        line["sprt_llr"] = sprt.llr();
        line["sprt_games"] = m.score.games();
        line["gate"] = m.decision == play::Sprt::Decision::kAcceptH1 ? "promoted" : "kept previous";
        if (m.decision == play::Sprt::Decision::kAcceptH1) counters_.best_model = name;
      } else {
        const play::Score s = play::match_score<G>(current_agent, previous_agent, config_.eval_games, 1, seed);
        line["vs_previous"] = s.rate();
        if (s.rate() >= 0.5) counters_.best_model = name;
      }
    } else {
      counters_.best_model = name;
    }
    const play::Score uct = play::match_score<G>(eval_agent(current, config_.eval_simulations), baseline(),
                                                 config_.eval_games, 1, seed + 7);
    line["vs_uct"] = uct.rate();
    line["uct_simulations"] = config_.eval_baseline_simulations;
    counters_.previous_model = name;
    if (counters_.best_model == name)
      std::filesystem::copy_file(model_path, dir_.path("models/best.pt"), std::filesystem::copy_options::overwrite_existing);
    dir_.append_metrics(line);
    out_ << (::isatty(STDOUT_FILENO) ? "\n" : "") << "evaluation at step " << counters_.step << ": " << line.dump() << std::endl;
  }

  TrainReport finish() {
    TrainReport r;
    r.trained = true;
    r.final_model = dir_.path("models/final.pt");
    session_->export_model(r.final_model, meta_);
    if (config_.eval_final_games > 0) {
      out_ << "final evaluation: " << config_.eval_final_simulations << " simulations vs random and vs UCT ("
           << config_.eval_baseline_simulations << " rollouts), " << config_.eval_final_games << " games each\n";
      auto model = nets::InferenceModel::load(r.final_model, config_.device, config_.inference_precision);
      const std::uint64_t seed = config_.seed * 97 + 5;
      // Training is over: the final games use every self-play thread.
      const auto agent = eval_agent(model, config_.eval_final_simulations);
      const int threads = std::max(1, config_.selfplay_threads);
      r.vs_random = play::match_score<G>(agent, play::random_agent<G>(), config_.eval_final_games, threads, seed);
      r.vs_uct = play::match_score<G>(agent, baseline(), config_.eval_final_games, threads, seed + 1);
      dir_.append_metrics({{"type", "final"},
                           {"step", counters_.step},
                           {"model", "models/final.pt"},
                           {"simulations", config_.eval_final_simulations},
                           {"vs_random", r.vs_random.rate()},
                           {"vs_uct", r.vs_uct.rate()},
                           {"uct_simulations", config_.eval_baseline_simulations},
                           {"games", config_.eval_final_games},
                           {"nn_share_of_selfplay", nn_share_}});
    }
    counters_.finished = true;
    counters_.elapsed_seconds = elapsed();
    write_text_atomically(dir_.latest_set() + "/state.json", counters_.to_json().dump(2));
    return r;
  }

  TrainConfig config_;
  RunDir dir_;
  std::ostream& out_;
  nets::ModelMeta meta_;
  ReplayBuffer<G> buffer_;
  std::unique_ptr<nets::TrainingSession> session_;
  std::shared_ptr<nets::InferenceModel> inference_;
  std::unique_ptr<GameRecordWriter> records_;
  SelfPlayStats stats_;
  std::atomic<std::int64_t> network_step_{0};
  RunCounters counters_;
  Rng rng_{1};
  double base_elapsed_ = 0;
  double nn_share_ = 0;
  std::int64_t kl_logged_ = 0, kl_searches_logged_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace azg::trainer
