// The run store's start in a learner group (`azg learner --learners N`): rank 0 opens the run as
// usual and hands its network and counters to the other ranks, which open their shards.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/atomic_file.hpp"
#include "trainer/run_store.hpp"

namespace azg::trainer {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

// Rank 0: the run's state (new or resumed) and its network, weights and optimizer state
// in checkpoint form, to every other rank.
void RunStore::share_start(bool fresh) {
  const std::string file = dir_.path("checkpoints/.for-learners.ckpt");
  session_->save_checkpoint(file, meta_);
  const std::string model = read_bytes(file);
  std::filesystem::remove(file);
  const nlohmann::json start{
      {"fresh", fresh}, {"set", checkpoint_set_name(counters_.step)}, {"run", counters_.to_json()}};
  group_->share(start.dump());
  group_->share(model);
}

// Rank k > 0: the network from rank 0, then this rank's part of the set rank 0 resumed
// from (its buffer, feed state, counters and game records), or an empty shard.
RunStore::Opened RunStore::open_shard(const nets::OptimConfig& optim) {
  namespace fs = std::filesystem;
  const std::string rank = "learner rank " + std::to_string(group_->rank());
  const nlohmann::json start = nlohmann::json::parse(group_->share(""));
  const std::string model = group_->share("");
  fs::create_directories(dir_.path("checkpoints"));
  lock_ = std::make_unique<RunLock>(dir_.root());
  const std::string config_text = config_.to_yaml(false);
  if (fs::exists(dir_.path("config.yaml"))) {
    if (read_bytes(dir_.path("config.yaml")) != config_text)
      throw Error(dir_.root() +
                  " holds a shard of a run with another configuration (see its config.yaml); use "
                  "another --run-dir");
  } else {
    write_text_atomically(dir_.path("config.yaml"), config_text);
  }
  const std::string file = dir_.path("checkpoints/.from-rank-0.ckpt");
  write_text_atomically(file, model);
  nets::ModelMeta meta;
  session_ = nets::TrainingSession::resume(file, optim, config_.device, meta);
  fs::remove(file);
  meta.check_matches(meta_, "rank 0's network");

  const RunCounters run = RunCounters::parse(start.at("run").dump(), "rank 0's run state");
  const bool fresh = start.at("fresh").get<bool>();
  const std::string set = dir_.path("checkpoints/" + start.at("set").get<std::string>());
  Opened opened{fresh, ""};
  if (!fresh && fs::exists(set + "/state.json")) {
    resume_games(set);
    opened.resume_set = set;
  } else {
    if (!fresh)
      out_ << rank << ": no shard of " << fs::path(set).filename().string() << " in " << dir_.root()
           << ": starting with an empty buffer (games it had not acknowledged come back from Redis)"
           << std::endl;
    counters_ = RunCounters{};
    rng_.reseed(config_.seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(group_->rank()));
    records_ =
        std::make_unique<GameRecordWriter>(dir_.path("games"), config_.selfplay_games_per_file);
  }
  // The run's clock and progress are rank 0's; the games are this rank's own.
  counters_.step = run.step;
  counters_.elapsed_seconds = run.elapsed_seconds;
  counters_.finished = run.finished;
  counters_.learners = run.learners;
  return opened;  // a fresh shard writes its first set with rank 0's
}

}  // namespace azg::trainer
