#pragma once
// Games that come from elsewhere than the run's own self-play: a learner fed by actors
// (roles/learner.hpp). The training run drives a feed as it drives its workers, and lets
// it keep its own state in each checkpoint set, next to the replay buffer.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "trainer/game_sink.hpp"
#include "trainer/selfplay_stats.hpp"

namespace azg::trainer {

template <Game G>
class GameFeed {
 public:
  virtual ~GameFeed() = default;
  // On a thread of its own until `stop`: adds games to `sink`, each under lock(), and
  // counts them in `stats`.
  virtual void run(GameSink<G>& sink, SelfPlayStats& stats, const std::atomic<bool>& stop) = 0;
  // Held while a game is added and for a whole checkpoint, so that the records, the buffer
  // and the feed's state in a checkpoint set agree on the games.
  virtual std::mutex& lock() = 0;
  // Its state in checkpoint set `set_dir` (called with lock() held, beside the buffer).
  virtual void save(const std::string& set_dir) = 0;
  virtual void load(const std::string& set_dir) = 0;
  // The set just saved is complete (called with lock() held).
  virtual void checkpointed() = 0;
  // New weights at `step`; `export_to(path)` writes them as an exported model.
  virtual void published(std::int64_t step,
                         const std::function<void(const std::string&)>& export_to) = 0;
};

}  // namespace azg::trainer
