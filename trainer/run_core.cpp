#include "trainer/run_core.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <thread>

#include "core/atomic_file.hpp"
#include "trainer/schedule.hpp"
#include "trainer/simulation_schedule.hpp"

namespace azg::trainer {
namespace {

// Fault injection for the crash-safety test: a pause inside the checkpoint write.
void pause_for_crash_test() {
  if (const char* ms = std::getenv("AZG_TEST_CHECKPOINT_PAUSE_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
}

// Seconds since the training loop began, never zero: the divisor of every rate it reports.
double seconds_since(std::chrono::steady_clock::time_point loop_start) {
  return std::max(
      1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count());
}

}  // namespace

RunCore::RunCore(TrainConfig config, std::string run_dir, std::ostream& out, nets::ModelMeta meta,
                 GameHooks hooks, parallel::LearnerGroup* group)
    : config_(std::move(config)),
      dir_(std::move(run_dir)),
      out_(out),
      meta_(std::move(meta)),
      hooks_(std::move(hooks)),
      group_(group != nullptr && group->size() > 1 ? group : nullptr) {}

const std::string& RunCore::auto_precision() {
  // Where bfloat16 slows this network's forward it slows its training steps as much
  // (docs/performance.md), so self-play and the learner share one timing.
  if (auto_precision_.empty()) {
    auto_precision_ = nets::resolve_precision("auto", config_.device);
    if (auto_precision_ == "bf16") auto_precision_ = nets::faster_precision(meta_);
  }
  return auto_precision_;
}

nets::OptimConfig RunCore::optim_config() {
  const TrainConfig& c = config_;
  return {c.optim_optimizer, c.optim_lr, c.optim_momentum, c.optim_weight_decay,
          c.train_ownership_weight,
          // fp16 training would need loss scaling: on a GPU the learner trains in fp32.
          c.train_precision == "auto" ? (auto_precision() == "fp16" ? "fp32" : auto_precision())
                                      : nets::resolve_precision(c.train_precision, c.device),
          c.train_score_weight};
}

void RunCore::open_or_resume() {
  if (!primary()) {
    open_shard();
  } else {
    const bool fresh = open_primary();
    if (group_) share_start(fresh);
    if (fresh) save_checkpoint();
  }
  if (group_)
    session_->set_gradient_average(
        [group = group_](float* v, std::size_t n) { group->average(v, n); });
  base_elapsed_ = counters_.elapsed_seconds;
  stats_.games = counters_.games;
  stats_.positions = counters_.positions;
}

bool RunCore::open_primary() {
  namespace fs = std::filesystem;
  fs::create_directories(dir_.path("checkpoints"));
  fs::create_directories(dir_.path("models"));
  lock_ = std::make_unique<RunLock>(
      dir_.root());  // before anything in the directory is read or written
  const std::string config_text = config_.to_yaml(false);
  if (dir_.has_checkpoint()) {
    std::ifstream in(dir_.path("config.yaml"));
    const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (saved != config_text)
      throw Error(
          dir_.root() +
          " was started with another configuration (see its config.yaml); resume with the same "
          "options or use another --run-dir");
    const std::string set = dir_.latest_set();
    dir_.prune_checkpoints(2);
    nets::ModelMeta saved_meta;
    session_ = nets::TrainingSession::resume(set + "/model.ckpt", optim_config(), config_.device,
                                             saved_meta);
    saved_meta.check_matches(meta_, set + "/model.ckpt");
    resume_games(set);
    if (const int dropped = dir_.cut_metrics_after(counters_.step, !counters_.finished);
        dropped > 0)
      out_ << "dropped " << dropped << " metrics line(s) written after the last checkpoint (step "
           << counters_.step << ") from " << dir_.path("metrics.jsonl") << std::endl;
    const int learners = group_ ? group_->size() : 1;
    if (counters_.learners != learners)
      throw Error(dir_.root() + " was trained by " + std::to_string(counters_.learners) +
                  " learner(s): resume it with --learners " + std::to_string(counters_.learners));
    out_ << "resuming " << dir_.root() << " at step " << counters_.step << " (" << counters_.games
         << " games, " << hooks_.buffer_size() << " positions in the buffer)" << std::endl;
    return false;
  }
  // No complete checkpoint set: a new run (or one killed before its first checkpoint,
  // which starts over, and so does its log).
  dir_.cut_metrics_after(0);
  write_text_atomically(dir_.path("config.yaml"), config_text);
  session_ = nets::TrainingSession::create(meta_, optim_config(), config_.seed, config_.device);
  rng_.reseed(config_.seed);
  counters_.learners = group_ ? group_->size() : 1;
  records_ =
      std::make_unique<GameRecordWriter>(dir_.path("games"), config_.selfplay_games_per_file);
  out_ << "training " << meta_.game << " in " << dir_.root() << " (config hash " << config_.hash()
       << ")" << std::endl;
  return true;
}

void RunCore::resume_games(const std::string& set) {
  hooks_.load_buffer(set + "/buffer.bin");
  std::ifstream state_in(set + "/state.json");
  const std::string state_text((std::istreambuf_iterator<char>(state_in)),
                               std::istreambuf_iterator<char>());
  counters_ = RunCounters::parse(state_text, set + "/state.json");
  rng_.set_state(counters_.rng);
  records_ = std::make_unique<GameRecordWriter>(dir_.path("games"), config_.selfplay_games_per_file,
                                                RecordsState{counters_.games, counters_.game_files},
                                                counters_.game_files > 0);
  if (records_->moved_files() > 0)
    out_ << "moved " << records_->moved_files()
         << " game file(s) written after the last checkpoint to " << dir_.path("games/uncounted")
         << "/ (their positions were lost with the killed run)" << std::endl;
}

double RunCore::elapsed() const {
  return base_elapsed_ +
         std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

bool RunCore::done() const {
  return counters_.step >= config_.run_steps ||
         (config_.run_minutes > 0 && elapsed() >= config_.run_minutes * 60.0);
}

void RunCore::after_step(const nets::Losses& losses,
                         std::chrono::steady_clock::time_point loop_start,
                         std::int64_t games_at_start, std::int64_t evals_at_start) {
  counters_.step = session_->steps();
  if (counters_.step % config_.train_publish_every == 0) {
    session_->publish_to(*inference_);
    network_step_ = counters_.step;
    if (hooks_.after_publish) hooks_.after_publish(counters_.step);
  }
  if (primary() && counters_.step % config_.run_log_every == 0)
    log_metrics(losses, loop_start, games_at_start, evals_at_start);
  if (counters_.step % config_.run_checkpoint_every == 0) save_checkpoint();
  if (primary() && config_.eval_every > 0 && counters_.step % config_.eval_every == 0) evaluate();
}

void RunCore::log_metrics(const nets::Losses& l, std::chrono::steady_clock::time_point loop_start,
                          std::int64_t games_at_start, std::int64_t evals_at_start) {
  const double s = seconds_since(loop_start);
  const double progress = run_progress(config_, counters_.step, elapsed());
  const nlohmann::json decisive_share = decisive_share_since_last_log();
  dir_.append_metrics(
      {{"type", "train"},
       {"step", counters_.step},
       {"games", shown_games()},
       {"positions", shown_positions()},
       {"buffer", shown_buffer()},
       {"loss_policy", l.policy},
       {"loss_value", l.value},
       {"loss_ownership", l.ownership},
       {"loss_score", l.score},
       {"lr", learning_rate(config_, progress)},
       {"simulations", full_simulations(config_, progress)},
       {"games_per_s", static_cast<double>(shown_games() - games_at_start) / s},
       {"evals_per_s", static_cast<double>(stats_.evaluations - evals_at_start) / s},
       {"policy_kl", policy_kl_since_last_log()},
       {"resigned", stats_.resigned.load()},
       {"false_resign", false_resign_share()},
       {"decisive_share", decisive_share},
       {"decisive", stats_.decisive.load()},
       {"capped", stats_.capped.load()},
       {"archive_starts", stats_.archive_starts.load()},
       {"decided", stats_.decided.load()},
       {"decided_wrong", stats_.decided_wrong.load()},
       {"elapsed_s", elapsed()}});
  if (!::isatty(STDOUT_FILENO)) {
    out_ << "step " << counters_.step << "/" << config_.run_steps << "  games " << shown_games()
         << "  positions " << shown_positions() << "  loss " << loss_text(l, 3, " / ") << std::fixed
         << std::setprecision(1) << "  " << static_cast<double>(shown_games() - games_at_start) / s
         << " games/s  " << std::setprecision(0)
         << static_cast<double>(stats_.evaluations - evals_at_start) / s << " evals/s  "
         << std::setprecision(0) << elapsed() << " s";
    if (decisive_share.is_number())
      out_ << "  decisive " << std::setprecision(0) << 100 * decisive_share.get<double>() << "%";
    if (config_.selfplay_resign_value > 0)
      out_ << "  resigned " << stats_.resigned.load() << " (wrong " << stats_.resign_false.load()
           << " of " << stats_.resign_checks.load() << " played out)";
    if (config_.selfplay_decided_value > 0)
      out_ << "  called " << stats_.decided.load() << " (wrong " << stats_.decided_wrong.load()
           << ")";
    out_ << std::endl;
  }
}

// Of the games played out in which a player crossed the resignation line, the share that
// player did not lose; null before there is one.
nlohmann::json RunCore::false_resign_share() const {
  const std::int64_t checks = stats_.resign_checks.load();
  if (checks == 0) return nullptr;
  return static_cast<double>(stats_.resign_false.load()) / static_cast<double>(checks);
}

// The share of the self-play games finished since the last metrics line that a side won
// (not drawn, not cut by the turn cap); null when none finished.
nlohmann::json RunCore::decisive_share_since_last_log() {
  const std::int64_t decisive = stats_.decisive.load(), games = stats_.games.load();
  nlohmann::json share = nullptr;
  if (games > games_logged_)
    share = std::min(1.0, static_cast<double>(decisive - decisive_logged_) /
                              static_cast<double>(games - games_logged_));
  decisive_logged_ = decisive;
  games_logged_ = games;
  return share;
}

// Mean KL(prior || policy target) of the full searches since the last metrics line.
double RunCore::policy_kl_since_last_log() {
  const std::int64_t kl = stats_.policy_kl_micronats.load(), n = stats_.full_searches.load();
  const double mean = n > kl_searches_logged_ ? 1e-6 * static_cast<double>(kl - kl_logged_) /
                                                    static_cast<double>(n - kl_searches_logged_)
                                              : 0.0;
  kl_logged_ = kl;
  kl_searches_logged_ = n;
  return mean;
}

// "policy / value", then "/ ownership" and "/ score" for networks with those heads.
std::string RunCore::loss_text(const nets::Losses& l, int precision, const char* separator) const {
  std::ostringstream text;
  text << std::fixed << std::setprecision(precision) << l.policy << separator << l.value;
  if (config_.net_ownership) text << separator << std::setprecision(precision + 1) << l.ownership;
  if (config_.net_score_head) text << separator << std::setprecision(precision + 1) << l.score;
  return text.str();
}

void RunCore::print_progress(const nets::Losses& l,
                             std::chrono::steady_clock::time_point loop_start,
                             std::int64_t games_at_start, std::int64_t evals_at_start) {
  const double s = seconds_since(loop_start);
  double eta =
      (config_.run_steps - counters_.step) * s / std::max<std::int64_t>(1, counters_.step + 1);
  if (config_.run_minutes > 0) eta = std::min(eta, config_.run_minutes * 60.0 - elapsed());
  std::ostringstream line;
  line << "\rstep " << counters_.step << "/" << config_.run_steps << "  games " << shown_games()
       << "  positions " << shown_positions() << "  loss " << loss_text(l, 2, "/") << std::fixed
       << std::setprecision(1) << "  " << static_cast<double>(shown_games() - games_at_start) / s
       << " games/s  " << std::setprecision(0)
       << static_cast<double>(stats_.evaluations - evals_at_start) / s << " evals/s  ETA "
       << static_cast<int>(std::max(0.0, eta)) / 60 << "m" << std::setw(2) << std::setfill('0')
       << static_cast<int>(std::max(0.0, eta)) % 60 << "s";
  if (const std::int64_t games = stats_.games.load(); games > 0)  // this process's games
    line << "  decisive " << std::setprecision(0)
         << 100.0 * std::min(1.0, static_cast<double>(stats_.decisive.load()) /
                                      static_cast<double>(games))
         << "%";
  line << "   ";
  out_ << line.str() << std::flush;
}

void RunCore::report_selfplay_time(const std::string& precision) {
  const double worker_s = static_cast<double>(stats_.worker_nanoseconds.load()) * 1e-9;
  const double nn_s = static_cast<double>(stats_.nn_nanoseconds.load()) * 1e-9;
  if (worker_s <= 0) return;
  nn_share_ = nn_s / worker_s;
  out_ << std::fixed << std::setprecision(1) << "self-play time: network " << 100 * nn_share_
       << "% (encode + forward + priors), search and rules " << 100 * (1 - nn_share_) << "%\n";
  // The same quantity as azg bench nn's evaluator line on one thread: compare them to
  // see how much the learner and the other workers slow each network call.
  if (nn_s > 0)
    out_ << std::setprecision(0)
         << "network calls: " << static_cast<double>(stats_.evaluations.load()) / nn_s
         << " evaluations/s per self-play thread while evaluating (" << precision << ")\n";
}

void RunCore::log_selfplay_rate(std::chrono::steady_clock::time_point loop_start,
                                std::int64_t games_at_start, std::int64_t evals_at_start) {
  const double s = seconds_since(loop_start);
  const std::int64_t evaluations = stats_.evaluations - evals_at_start;
  const std::int64_t games = shown_games() - games_at_start;
  if (primary())
    dir_.append_metrics({{"type", "selfplay"},
                         {"step", counters_.step},
                         {"seconds", s},
                         {"threads", config_.selfplay_threads},
                         {"games", games},
                         {"evaluations", evaluations},
                         {"games_per_s", static_cast<double>(games) / s},
                         {"evals_per_s", static_cast<double>(evaluations) / s}});
  out_ << std::fixed << std::setprecision(0)
       << "self-play: " << static_cast<double>(evaluations) / s << " evaluations/s, "
       << std::setprecision(2) << static_cast<double>(games) / s << " games/s over "
       << std::setprecision(0) << s << " s (" << config_.selfplay_threads << " thread(s))\n";
}

std::string checkpoint_set_name(std::int64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "step-%08lld", static_cast<long long>(step));
  return name;
}

void RunCore::save_checkpoint() {
  const std::unique_lock<std::mutex> games_held =
      hooks_.hold_games ? hooks_.hold_games() : std::unique_lock<std::mutex>{};
  const std::string name = checkpoint_set_name(counters_.step);
  const std::string set = dir_.path(std::string("checkpoints/") + name);
  std::filesystem::create_directories(set);
  const RecordsState records = records_->flush();
  counters_.games = records.games;  // exactly the games in games/ files below game_files
  counters_.game_files = records.next_file;
  counters_.positions = stats_.positions;
  counters_.elapsed_seconds = elapsed();
  counters_.rng = rng_.state();
  if (primary())
    session_->save_checkpoint(set + "/model.ckpt", meta_);  // the other ranks hold the same network
  pause_for_crash_test();
  hooks_.save_buffer(set + "/buffer.bin");
  write_text_atomically(set + "/state.json", counters_.to_json().dump(2));
  // A learner group's set is complete once every rank wrote its part and rank 0's LATEST
  // names it: rank 0 resumes from its LATEST, and each rank from its part of that set.
  if (group_) group_->barrier();
  write_text_atomically(dir_.path("checkpoints/LATEST"), name + "\n");
  dir_.prune_checkpoints(2);
  if (group_) group_->barrier();  // no rank acknowledges games before the set is the run's
  if (hooks_.after_checkpoint) hooks_.after_checkpoint();  // games may be held: it must not add any
}

void RunCore::evaluate() {
  char name[32];
  std::snprintf(name, sizeof name, "models/step-%08lld.pt", static_cast<long long>(counters_.step));
  const std::string model_path = dir_.path(name);
  session_->export_model(model_path, meta_);
  auto current =
      nets::InferenceModel::load(model_path, config_.device, config_.inference_precision);
  nlohmann::json line = {{"type", "eval"}, {"step", counters_.step}, {"model", name}};
  const std::uint64_t seed = config_.seed * 31 + static_cast<std::uint64_t>(counters_.step);
  if (!counters_.previous_model.empty() &&
      std::filesystem::exists(dir_.path(counters_.previous_model))) {
    auto previous = nets::InferenceModel::load(dir_.path(counters_.previous_model), config_.device,
                                               config_.inference_precision);
    line["previous"] = counters_.previous_model;
    if (config_.eval_gate == "sprt") {
      // Colour-swapped pairs of games until the SPRT decides (H0: no gain, H1: +elo1).
      play::Sprt sprt(0.0, config_.eval_sprt_elo1, 0.05, 0.05);
      const play::SprtMatch m =
          hooks_.model_sprt(current, previous, config_.eval_search.simulations, sprt,
                            config_.eval_sprt_max_games, seed);
      line["vs_previous"] = m.score.rate();
      line["sprt_llr"] = sprt.llr();
      line["sprt_games"] = m.score.games();
      line["gate"] = m.decision == play::Sprt::Decision::kAcceptH1 ? "promoted" : "kept previous";
      if (m.decision == play::Sprt::Decision::kAcceptH1) counters_.best_model = name;
    } else {
      const play::Score s = hooks_.model_match(current, previous, config_.eval_search.simulations,
                                               config_.eval_games, seed);
      line["vs_previous"] = s.rate();
      if (s.rate() >= 0.5) counters_.best_model = name;
    }
  } else {
    counters_.best_model = name;
  }
  const play::Score uct =
      hooks_.vs_uct(current, config_.eval_search.simulations, config_.eval_games, 1, seed + 7);
  line["vs_uct"] = uct.rate();
  line["uct_simulations"] = config_.eval_baseline_simulations;
  counters_.previous_model = name;
  if (counters_.best_model == name)
    std::filesystem::copy_file(model_path, dir_.path("models/best.pt"),
                               std::filesystem::copy_options::overwrite_existing);
  dir_.append_metrics(line);
  out_ << (::isatty(STDOUT_FILENO) ? "\n" : "") << "evaluation at step " << counters_.step << ": "
       << line.dump() << std::endl;
}

TrainReport RunCore::finish() {
  TrainReport r;
  if (!primary()) {  // rank 0 exports the model and plays the final evaluation
    counters_.finished = true;
    write_text_atomically(dir_.latest_set() + "/state.json", counters_.to_json().dump(2));
    return r;
  }
  r.trained = true;
  r.final_model = dir_.path("models/final.pt");
  session_->export_model(r.final_model, meta_);
  if (config_.eval_final_games > 0) {
    out_ << "final evaluation: " << config_.eval_final_simulations
         << " simulations vs random and vs UCT (" << config_.eval_baseline_simulations
         << " rollouts), " << config_.eval_final_games << " games each\n";
    auto model =
        nets::InferenceModel::load(r.final_model, config_.device, config_.inference_precision);
    const std::uint64_t seed = config_.seed * 97 + 5;
    // Training is over: the final games use every self-play thread.
    const int threads = std::max(1, config_.selfplay_threads);
    r.vs_random = hooks_.vs_random(model, config_.eval_final_simulations, config_.eval_final_games,
                                   threads, seed);
    r.vs_uct = hooks_.vs_uct(model, config_.eval_final_simulations, config_.eval_final_games,
                             threads, seed + 1);
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

}  // namespace azg::trainer
