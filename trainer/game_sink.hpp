#pragma once
// Where self-play's finished games go. `azg train` keeps them (LocalGameSink: the replay
// buffer and games/*.jsonl); an actor of a distributed run sends them to its learners as
// bytes (game_payload.hpp). The self-play worker is the same code in both, so the two
// modes cannot drift apart.
#include <atomic>
#include <cstdint>
#include <vector>

#include "env/common/random_play.hpp"
#include "trainer/config.hpp"
#include "trainer/game_records.hpp"
#include "trainer/replay_buffer.hpp"

namespace azg::trainer {

// The termination of a self-play game that a player resigned.
inline constexpr std::string_view kResignation = "resignation";

template <Game G>
struct FinishedGame {
  std::vector<Position<G>> positions;  // with their value targets set
  GameRecord record;
  std::int64_t network_step = 0;  // the network that played it
  std::string termination;        // empty: played to its end; else why it stopped ("resignation")
};

template <Game G>
class GameSink {
 public:
  virtual ~GameSink() = default;
  virtual void add(FinishedGame<G>&& game) = 0;  // once per game: off the search's hot path
  // Backpressure: true while the learner is too far behind; workers wait meanwhile.
  virtual bool ahead() const = 0;
};

template <Game G>
class LocalGameSink final : public GameSink<G> {
 public:
  LocalGameSink(const TrainConfig& config, ReplayBuffer<G>& buffer, GameRecordWriter& records,
                const std::atomic<std::int64_t>& network_step)
      : config_(config), buffer_(buffer), records_(records), network_step_(network_step) {}

  void add(FinishedGame<G>&& game) override {
    for (auto& p : game.positions) buffer_.add(std::move(p));
    records_.add(game.record, game.network_step, game.termination);
  }

  // True when self-play has produced more than selfplay.max_lead positions beyond what the
  // learner (at its last published step) will want at train.reuse samples per position,
  // counted once the buffer holds train.min_positions. max_lead 0: never.
  bool ahead() const override {
    if (config_.selfplay_max_lead <= 0) return false;
    const double wanted =
        static_cast<double>(network_step_.load()) * config_.train_batch_size / config_.train_reuse;
    return static_cast<double>(buffer_.added()) >
           wanted + config_.train_min_positions + static_cast<double>(config_.selfplay_max_lead);
  }

 private:
  const TrainConfig& config_;
  ReplayBuffer<G>& buffer_;
  GameRecordWriter& records_;
  const std::atomic<std::int64_t>& network_step_;
};

}  // namespace azg::trainer
