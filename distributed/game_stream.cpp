#include "distributed/game_stream.hpp"

#include <algorithm>
#include <cstddef>

#include "core/error.hpp"

namespace azg::distributed {

void check_config(Redis& redis, const RunKeys& keys, const std::string& config_hash,
                  const std::string& role) {
  // SET NX: the first process claims the run; the reply says whether it did.
  const Reply set = redis.command({"SET", keys.config(), config_hash, "NX"});
  if (!set.nil()) return;
  const Reply have = redis.command({"GET", keys.config()});
  if (have.str != config_hash)
    throw Error(role + ": config hash " + config_hash + " differs from run " +
                quote_input(keys.run) + "'s " + have.str +
                " (same config and azg build needed; or give the run another name)");
}

GamePublisher::GamePublisher(Redis& redis, RunKeys keys, const std::string& actor)
    : redis_(redis), keys_(std::move(keys)) {
  const std::int64_t start = redis_.command({"INCR", keys_.actor_starts(actor)}).integer;
  actor_ = actor + "#" + std::to_string(start);
}

void GamePublisher::publish(const std::string& payload) {
  ++seq_;
  redis_.command(
      {"XADD", keys_.games(), "*", "actor", actor_, "seq", std::to_string(seq_), "data", payload});
}

std::int64_t GamePublisher::waiting() {
  const std::int64_t length = redis_.command({"XLEN", keys_.games()}).integer;
  std::int64_t taken = 0;  // read by a learner, not yet acknowledged
  try {
    const Reply pending = redis_.command({"XPENDING", keys_.games(), RunKeys::kGroup});
    if (!pending.elements.empty()) taken = pending.elements.front().integer;
  } catch (const Error& e) {
    // No learner has made the group yet: every entry waits.
    if (std::string(e.what()).find("NOGROUP") == std::string::npos) throw;
  }
  return std::max<std::int64_t>(0, length - taken);
}

GameConsumer::GameConsumer(Redis& redis, RunKeys keys, std::string consumer)
    : redis_(redis), keys_(std::move(keys)), consumer_(std::move(consumer)) {
  try {
    redis_.command({"XGROUP", "CREATE", keys_.games(), RunKeys::kGroup, "0", "MKSTREAM"});
  } catch (const Error& e) {
    if (std::string(e.what()).find("BUSYGROUP") == std::string::npos) throw;  // it exists: fine
  }
}

GameConsumer::Batch GameConsumer::read(int count, std::chrono::milliseconds block) {
  Batch batch;
  std::vector<std::string> args = {"XREADGROUP", "GROUP", RunKeys::kGroup,
                                   consumer_,    "COUNT", std::to_string(count)};
  if (!pending_first_) {
    args.push_back("BLOCK");
    args.push_back(std::to_string(block.count()));
  }
  args.insert(args.end(), {"STREAMS", keys_.games(), pending_first_ ? pending_cursor_ : ">"});
  const Reply r = redis_.command(args);
  std::size_t entries = 0;
  if (!r.nil() && !r.elements.empty()) {
    for (const Reply& entry : r.elements.front().elements.at(1).elements) {
      ++entries;
      GameMessage m;
      m.id = entry.elements.at(0).str;
      if (pending_first_) pending_cursor_ = m.id;  // the backlog is read once, in order
      const Reply& fields = entry.elements.at(1);
      // A pending entry deleted meanwhile comes back with nil fields: acknowledge it.
      if (fields.nil()) {
        batch.duplicates.push_back(m.id);
        continue;
      }
      for (std::size_t i = 0; i + 1 < fields.elements.size(); i += 2) {
        const std::string& k = fields.elements[i].str;
        if (k == "actor")
          m.actor = fields.elements[i + 1].str;
        else if (k == "seq")
          m.seq = std::stoll(fields.elements[i + 1].str);
        else if (k == "data")
          m.payload = fields.elements[i + 1].str;
      }
      auto& taken = taken_[m.actor];
      if (m.seq <= taken) {
        batch.duplicates.push_back(m.id);
        continue;
      }
      taken = m.seq;
      batch.accepted.push_back(std::move(m));
    }
  }
  if (pending_first_ && entries == 0)
    pending_first_ = false;  // the backlog is done: new entries now
  return batch;
}

void GameConsumer::ack(const std::vector<std::string>& ids) {
  // XACK and XDEL in one script, which Redis runs (and writes to its AOF) as one step: as two
  // commands, a learner killed between them left counted entries in the stream for ever,
  // where actors took them for games waiting (backpressure) and nothing deleted them.
  // Repeating the script after a lost reply is harmless. Chunks keep Lua's unpack() within
  // its stack.
  static const std::string script =
      "redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2)) "
      "return redis.call('XDEL', KEYS[1], unpack(ARGV, 2))";
  constexpr std::size_t kChunk = 1000;
  for (std::size_t begin = 0; begin < ids.size(); begin += kChunk) {
    const std::size_t end = std::min(ids.size(), begin + kChunk);
    std::vector<std::string> args = {"EVAL", script, "1", keys_.games(), RunKeys::kGroup};
    args.insert(args.end(), ids.begin() + static_cast<std::ptrdiff_t>(begin),
                ids.begin() + static_cast<std::ptrdiff_t>(end));
    redis_.command(args);
  }
}

nlohmann::json GameConsumer::dedup_state() const {
  return taken_;
}

void GameConsumer::restore(const nlohmann::json& state) {
  if (!state.is_object()) throw Error("the learner's dedup state must be a JSON object");
  taken_.clear();
  for (const auto& [actor, seq] : state.items()) {
    if (!seq.is_number_integer())
      throw Error("the learner's dedup state has a bad entry for " + quote_input(actor));
    taken_[actor] = seq.get<std::int64_t>();
  }
}

void WeightStore::publish(std::int64_t version, const std::string& blob, int keep) {
  redis_.command({"SET", keys_.weights(version), blob});
  redis_.command({"SET", keys_.latest(), std::to_string(version)});
  for (std::int64_t old = version - keep; old >= 0 && old > version - keep - 16; --old)
    redis_.command({"DEL", keys_.weights(old)});
  redis_.command({"PUBLISH", keys_.channel(), std::to_string(version)});
}

std::optional<std::int64_t> WeightStore::latest() {
  const Reply r = redis_.command({"GET", keys_.latest()});
  if (r.nil()) return std::nullopt;
  return std::stoll(r.str);
}

std::optional<std::string> WeightStore::fetch(std::int64_t version) {
  Reply r = redis_.command({"GET", keys_.weights(version)});
  if (r.nil()) return std::nullopt;
  return std::move(r.str);
}

}  // namespace azg::distributed
