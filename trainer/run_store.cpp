#include "trainer/run_store.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace azg::trainer {
namespace {

// Fault injection for the crash-safety test: a pause inside the checkpoint write.
void pause_for_crash_test() {
  if (const char* ms = std::getenv("AZG_TEST_CHECKPOINT_PAUSE_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
}

}  // namespace

std::string checkpoint_set_name(std::int64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "step-%08lld", static_cast<long long>(step));
  return name;
}

RunStore::RunStore(const TrainConfig& config, std::string run_dir, std::ostream& out,
                   nets::ModelMeta meta, parallel::LearnerGroup* group)
    : config_(config),
      dir_(std::move(run_dir)),
      out_(out),
      meta_(std::move(meta)),
      group_(group != nullptr && group->size() > 1 ? group : nullptr) {}

RunStore::Opened RunStore::open(const nets::OptimConfig& optim) {
  Opened opened;
  if (!primary()) {
    opened = open_shard(optim);
  } else {
    opened = open_primary(optim);
    if (group_) share_start(opened.fresh);
  }
  if (group_)
    session_->set_gradient_average(
        [group = group_](float* v, std::size_t n) { group->average(v, n); });
  base_elapsed_ = counters_.elapsed_seconds;
  started_ = std::chrono::steady_clock::now();
  return opened;
}

RunStore::Opened RunStore::open_primary(const nets::OptimConfig& optim) {
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
    session_ =
        nets::TrainingSession::resume(set + "/model.ckpt", optim, config_.device, saved_meta);
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
    return {false, set};
  }
  // No complete checkpoint set: a new run (or one killed before its first checkpoint,
  // which starts over, and so does its log).
  dir_.cut_metrics_after(0);
  write_text_atomically(dir_.path("config.yaml"), config_text);
  session_ = nets::TrainingSession::create(meta_, optim, config_.seed, config_.device);
  if (!config_.run_init_model.empty()) {
    session_->start_from(config_.run_init_model);
    out_ << "starting from the weights of " << config_.run_init_model << std::endl;
  }
  rng_.reseed(config_.seed);
  counters_.learners = group_ ? group_->size() : 1;
  records_ =
      std::make_unique<GameRecordWriter>(dir_.path("games"), config_.selfplay_games_per_file);
  out_ << "training " << meta_.game << " in " << dir_.root() << " (config hash " << config_.hash()
       << ")" << std::endl;
  return {true, ""};
}

void RunStore::resume_games(const std::string& set) {
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

void RunStore::announce(const Opened& opened, std::size_t buffer_positions) {
  if (!primary())
    out_ << "learner rank " << group_->rank() << " of " << group_->size() << ": shard in "
         << dir_.root() << " at step " << counters_.step << " (" << counters_.games << " games, "
         << buffer_positions << " positions in its buffer)" << std::endl;
  else if (!opened.fresh)
    out_ << "resuming " << dir_.root() << " at step " << counters_.step << " (" << counters_.games
         << " games, " << buffer_positions << " positions in the buffer)" << std::endl;
}

double RunStore::elapsed() const {
  return base_elapsed_ +
         std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

bool RunStore::done() const {
  return counters_.step >= config_.run_steps ||
         (config_.run_minutes > 0 && elapsed() >= config_.run_minutes * 60.0);
}

std::string RunStore::begin_set(std::int64_t positions) {
  const std::string set = dir_.path("checkpoints/" + checkpoint_set_name(counters_.step));
  std::filesystem::create_directories(set);
  const RecordsState records = records_->flush();
  counters_.games = records.games;  // exactly the games in games/ files below game_files
  counters_.game_files = records.next_file;
  counters_.positions = positions;
  counters_.elapsed_seconds = elapsed();
  counters_.rng = rng_.state();
  if (primary())
    session_->save_checkpoint(set + "/model.ckpt", meta_);  // the other ranks hold the same network
  pause_for_crash_test();
  return set;
}

void RunStore::commit_set() {
  const std::string name = checkpoint_set_name(counters_.step);
  write_text_atomically(dir_.path("checkpoints/" + name + "/state.json"),
                        counters_.to_json().dump(2));
  // A learner group's set is complete once every rank wrote its part and rank 0's LATEST
  // names it: rank 0 resumes from its LATEST, and each rank from its part of that set.
  if (group_) group_->barrier();
  write_text_atomically(dir_.path("checkpoints/LATEST"), name + "\n");
  dir_.prune_checkpoints(2);
  if (group_) group_->barrier();  // no rank acknowledges games before the set is the run's
}

void RunStore::mark_finished() {
  counters_.finished = true;
  if (primary()) counters_.elapsed_seconds = elapsed();
  write_text_atomically(dir_.latest_set() + "/state.json", counters_.to_json().dump(2));
}

}  // namespace azg::trainer
