#pragma once
// The data plane of a distributed run on Redis: finished self-play games from actors to
// learners through a Redis Stream read by a consumer group, weights as versioned blobs with
// a notification, and the config hash every process must share.
//
// Delivery is at least once, counting is exactly once:
// - an actor sends each game with (actor id, sequence number); a send repeated after a
//   lost reply only makes a duplicate entry. The id is the actor's name and its start
//   ("a1#3": the third process named a1), so an actor restarted under the same name
//   numbers its games afresh without its first ones looking like ones already taken;
// - a learner acknowledges entries (XACK and XDEL, in one atomic script) only once their
//   positions are in the replay buffer and that buffer is in a checkpoint; killed before,
//   it gets its pending entries again on restart (same consumer name);
// - the learner keeps, in its checkpoint, the highest sequence number taken from each
//   actor into its buffer, and restore()s the consumer from it, which then drops any entry
//   at or below it.
#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "distributed/redis.hpp"

namespace azg::distributed {

// The keys of one run.
struct RunKeys {
  std::string run;
  std::string games() const { return "azg:" + run + ":games"; }
  std::string config() const { return "azg:" + run + ":config"; }
  std::string weights(std::int64_t version) const {
    return "azg:" + run + ":weights:" + std::to_string(version);
  }
  std::string latest() const { return "azg:" + run + ":weights:latest"; }
  std::string channel() const { return "azg:" + run + ":weights:published"; }
  // How many processes have started under an actor's name (each start takes the next).
  std::string actor_starts(const std::string& name) const {
    return "azg:" + run + ":actor-starts:" + name;
  }
  static constexpr const char* kGroup = "learners";
};

// The first process of a run records its config hash; every later one must bring the
// same, or is refused: "actor: config hash X differs from run R's Y".
void check_config(Redis& redis, const RunKeys& keys, const std::string& config_hash,
                  const std::string& role);

struct GameMessage {
  std::string id;  // the stream entry's id
  std::string actor;
  std::int64_t seq = 0;
  std::string payload;
};

class GamePublisher {
 public:
  // Takes this start's number for `actor` from Redis (one INCR).
  GamePublisher(Redis& redis, RunKeys keys, const std::string& actor);
  // The id this process sends its games under: "NAME#START".
  const std::string& id() const { return actor_; }
  // Sends one finished game (its payload is opaque here).
  void publish(const std::string& payload);
  // Entries no learner has taken yet: the backpressure measure, how far the learners lag.
  // Entries a learner has read are not counted, though they stay in the stream until its
  // next checkpoint acknowledges them: counting them made actors and a learner wait on
  // each other whenever the learner needed more games than the bound to reach that
  // checkpoint (the stream's length less the group's pending entries).
  std::int64_t waiting();
  std::int64_t sent() const { return seq_; }

 private:
  Redis& redis_;
  RunKeys keys_;
  std::string actor_;
  std::int64_t seq_ = 0;
};

class GameConsumer {
 public:
  // `consumer`: a name that stays the same across restarts of one learner.
  GameConsumer(Redis& redis, RunKeys keys, std::string consumer);
  // Up to `count` entries, waiting up to `block` for one: first this consumer's entries
  // delivered before and not acknowledged (after a restart), then new ones. Duplicates
  // (an actor's sequence number already taken) come back with `accepted` false; only
  // accepted ones should be counted.
  struct Batch {
    std::vector<GameMessage> accepted;
    std::vector<std::string> duplicates;  // ids to acknowledge along with the rest
  };
  Batch read(int count, std::chrono::milliseconds block);
  // Acknowledges and deletes entries, atomically (after they are in a checkpoint).
  void ack(const std::vector<std::string>& ids);
  // The highest sequence number read from each actor. It runs ahead of a learner's buffer
  // by the batch being added, so the learner checkpoints its own record of what it added
  // (roles/learner.hpp) and restore()s from that.
  nlohmann::json dedup_state() const;
  void restore(const nlohmann::json& state);

 private:
  Redis& redis_;
  RunKeys keys_;
  std::string consumer_;
  bool pending_first_ = true;
  std::string pending_cursor_ = "0";  // the backlog read so far
  std::map<std::string, std::int64_t> taken_;
};

// Weights as versioned blobs: publish() stores version v, points `latest` at it, drops
// versions older than the `keep` newest, and notifies subscribers.
class WeightStore {
 public:
  WeightStore(Redis& redis, RunKeys keys) : redis_(redis), keys_(std::move(keys)) {}
  void publish(std::int64_t version, const std::string& blob, int keep = 2);
  std::optional<std::int64_t> latest();
  // The blob of `version`, or nothing if it was dropped meanwhile (ask latest() again).
  std::optional<std::string> fetch(std::int64_t version);

 private:
  Redis& redis_;
  RunKeys keys_;
};

}  // namespace azg::distributed
