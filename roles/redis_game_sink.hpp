#pragma once
// An actor's GameSink: each finished game goes to the run's Redis stream as a payload
// (trainer/game_payload.hpp). Workers share one connection under a lock; a game is sent
// as soon as it ends, so a killed actor loses only the games it was playing.
#include <chrono>
#include <mutex>

#include "distributed/game_stream.hpp"
#include "trainer/game_payload.hpp"
#include "trainer/game_sink.hpp"

namespace azg::roles {

template <Game G>
class RedisGameSink final : public trainer::GameSink<G> {
 public:
  // `max_waiting`: games sent and not yet taken by a learner beyond which workers pause.
  RedisGameSink(distributed::Redis& redis, const distributed::RunKeys& keys,
                const std::string& actor, std::int64_t max_waiting)
      : publisher_(redis, keys, actor), max_waiting_(max_waiting) {}

  void add(trainer::FinishedGame<G>&& game) override {
    const auto start = std::chrono::steady_clock::now();
    const std::string payload = trainer::encode_game(game);
    std::lock_guard lock(mutex_);
    publisher_.publish(payload);
    bytes_ += static_cast<std::int64_t>(payload.size());
    send_nanoseconds_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  }

  // The data plane's cost per game so far: payload bytes, and milliseconds to encode and
  // send (XADD's round trip included).
  double mean_bytes() const {
    std::lock_guard lock(mutex_);
    return publisher_.sent() ? static_cast<double>(bytes_) / static_cast<double>(publisher_.sent())
                             : 0.0;
  }
  double mean_send_ms() const {
    std::lock_guard lock(mutex_);
    return publisher_.sent() ? 1e-6 * static_cast<double>(send_nanoseconds_) /
                                   static_cast<double>(publisher_.sent())
                             : 0.0;
  }

  // Asks Redis at most every 200 ms; between answers the last one stands.
  bool ahead() const override {
    if (max_waiting_ <= 0) return false;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - checked_ > std::chrono::milliseconds(200)) {
      ahead_ = publisher_.waiting() > max_waiting_;
      checked_ = now;
    }
    return ahead_;
  }

  std::int64_t sent() const {
    std::lock_guard lock(mutex_);
    return publisher_.sent();
  }
  // The id this process's games carry: its name and its start ("a1#3").
  const std::string& id() const { return publisher_.id(); }

 private:
  mutable distributed::GamePublisher publisher_;
  std::int64_t max_waiting_;
  mutable std::mutex mutex_;
  mutable std::chrono::steady_clock::time_point checked_{};
  mutable bool ahead_ = false;
  std::int64_t bytes_ = 0, send_nanoseconds_ = 0;
};

}  // namespace azg::roles
