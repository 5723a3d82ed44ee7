#pragma once
// `azg learner`: the training side of a distributed run. It is `azg train` (the same run
// directory, checkpoints, resume, metrics and evaluations) with its games from actors:
// a feed reads the run's Redis stream into the replay buffer, keeps in every checkpoint
// set which games it holds (the highest sequence number taken from each actor), and
// acknowledges them once that set is complete. New weights go to Redis by version each
// time the run publishes them to itself (train.publish_every).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "distributed/game_stream.hpp"
#include "parallel/learner_group.hpp"
#include "roles/local_ranks.hpp"
#include "roles/options.hpp"
#include "trainer/game_config_check.hpp"
#include "trainer/game_feed.hpp"
#include "trainer/game_payload.hpp"
#include "trainer/training_run.hpp"

namespace azg::roles {

template <Game G>
class RedisFeed final : public trainer::GameFeed<G> {
 public:
  RedisFeed(const distributed::Endpoint& endpoint, const distributed::RunKeys& keys,
            const std::string& name, std::ostream& out)
      : stream_redis_(endpoint),
        control_redis_(endpoint),
        keys_(keys),
        consumer_(stream_redis_, keys, name),
        weights_(control_redis_, keys),
        out_(out) {}

  void run(trainer::GameSink<G>& sink, trainer::SelfPlayStats& stats,
           const std::atomic<bool>& stop) override {
    while (!stop.load()) {
      distributed::GameConsumer::Batch batch;
      {
        std::lock_guard lock(consumer_mutex_);
        batch = consumer_.read(64, std::chrono::milliseconds(200));
      }
      std::lock_guard lock(mutex_);
      for (auto& id : batch.duplicates) unacknowledged_.push_back(std::move(id));
      for (auto& m : batch.accepted) {
        unacknowledged_.push_back(m.id);
        taken_[m.actor] = m.seq;  // in the buffer from now: what a checkpoint records
        trainer::FinishedGame<G> game;
        try {
          game = trainer::decode_game<G>(m.payload, "game " + m.id + " from " + m.actor);
        } catch (const Error& e) {
          // One bad entry must not stop the run: say so, drop it (acknowledged with the rest).
          out_ << "learner: dropped " << e.what() << std::endl;
          continue;
        }
        stats.positions += static_cast<std::int64_t>(game.positions.size());
        stats.games += 1;
        if (!game.termination.empty()) stats.resigned += 1;
        sink.add(std::move(game));
      }
    }
  }

  std::mutex& lock() override { return mutex_; }

  void save(const std::string& set_dir) override {
    // The consumer's own record runs ahead (a batch read and not yet added); this one is
    // exactly the buffer's.
    write_text_atomically(set_dir + "/learner.json", nlohmann::json{{"taken", taken_}}.dump(2));
    in_checkpoint_ = unacknowledged_;  // lock() is held: exactly the games in this buffer
  }

  void load(const std::string& set_dir) override {
    const std::string path = set_dir + "/learner.json";
    if (!std::filesystem::exists(path)) return;  // a set from before the first game
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json state;
    try {
      state = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception&) {
      throw Error(path + " is not valid JSON");
    }
    if (!state.is_object() || !state.contains("taken"))
      throw Error(path + " has no 'taken' object");
    std::lock_guard lock(consumer_mutex_);
    consumer_.restore(state["taken"]);
    taken_ = state["taken"].get<std::map<std::string, std::int64_t>>();
  }

  // Called with lock() held (the whole checkpoint holds it): no game came in since save().
  void checkpointed() override {
    std::vector<std::string> ids;
    ids.swap(in_checkpoint_);
    unacknowledged_.erase(unacknowledged_.begin(),
                          unacknowledged_.begin() + static_cast<std::ptrdiff_t>(ids.size()));
    std::lock_guard lock(consumer_mutex_);
    consumer_.ack(ids);
  }

  void published(std::int64_t step,
                 const std::function<void(const std::string&)>& export_to) override {
    const auto path = std::filesystem::temp_directory_path() /
                      ("azg-learner-" + std::to_string(::getpid()) + ".pt");
    export_to(path.string());
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::filesystem::remove(path);
    weights_.publish(step, bytes.str());
  }

 private:
  distributed::Redis stream_redis_, control_redis_;  // the feed's thread; the training thread
  distributed::RunKeys keys_;
  std::mutex consumer_mutex_;
  distributed::GameConsumer consumer_;
  distributed::WeightStore weights_;
  std::ostream& out_;
  std::mutex mutex_;
  std::vector<std::string>
      unacknowledged_;                      // ids read since the last complete checkpoint, in order
  std::vector<std::string> in_checkpoint_;  // the prefix of them the last saved buffer holds
  std::map<std::string, std::int64_t>
      taken_;  // per actor, the highest sequence number in the buffer
};

template <Game G>
int run_learner(trainer::TrainConfig config, LearnerOptions options, std::ostream& out) {
  trainer::check_config_for_game<G>(config);
  if (options.run.empty()) throw Error("--run must name the run");
  if (options.learners < 1)
    throw Error("--learners must be at least 1, got " + std::to_string(options.learners));
  if (options.rank >= options.learners)
    throw Error("--rank must be in 0.." + std::to_string(options.learners - 1) + ", got " +
                std::to_string(options.rank));
  if (options.learners > 1)
    parallel::parse_rendezvous(options.rendezvous);  // a bad one fails before anything starts
  // With no --rank, this is rank 0 and the other ranks start here. Each rank has its own
  // consumer name, so the stream's consumer group shares the games out among them, and
  // rank k > 0 keeps its shard in a directory of its own.
  std::unique_ptr<LocalRanks> local;
  if (options.rank < 0) {
    options.rank = 0;
    if (options.learners > 1)
      local = std::make_unique<LocalRanks>(options.relaunch, options.learners);
  }
  const int rank = options.rank;
  if (options.run_dir.empty()) options.run_dir = "runs/" + options.run;
  if (rank > 0)
    options.run_dir += "/rank-" + std::to_string(rank);  // the run's directory holds rank 0's part
  if (rank > 0) options.name += "-rank-" + std::to_string(rank);
  const distributed::Endpoint endpoint = distributed::parse_endpoint(options.redis);
  const distributed::RunKeys keys{options.run};
  {
    distributed::Redis redis(endpoint);
    distributed::check_config(redis, keys, config.hash(), "learner");
  }
  std::unique_ptr<parallel::LearnerGroup> group;
  if (options.learners > 1) {
    parallel::GroupOptions g;
    g.rank = rank;
    g.size = options.learners;
    g.rendezvous = options.rendezvous;
    g.bind = options.bind;
    g.timeout = std::chrono::seconds(options.group_timeout_s);
    group = std::make_unique<parallel::LearnerGroup>(g);
  }
  if (rank == 0)
    out << "learner: run " << options.run << " on " << options.redis << " (stream " << keys.games()
        << ")"
        << (group ? ", " + std::to_string(options.learners) + " learners meeting at " +
                        options.rendezvous
                  : "")
        << std::endl;
  const trainer::TrainReport r = trainer::run_fed_training<G>(
      config, options.run_dir, out,
      std::make_unique<RedisFeed<G>>(endpoint, keys, options.name, out), group.get());
  if (r.trained) out << "model: " << r.final_model << '\n';
  if (local && !local->wait())
    throw Error("a learner rank started here failed (see its lines above)");
  return 0;
}

}  // namespace azg::roles
