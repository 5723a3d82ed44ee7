#pragma once
// The metrics log, one role of a training run (compiled once): metrics.jsonl lines and the
// progress lines, each written from a RunSnapshot, one moment of the run taken by the
// caller. It reads nothing else of the run; the shares "since the last line" are its own.
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "nets/session.hpp"
#include "trainer/config.hpp"
#include "trainer/run_state.hpp"
#include "trainer/selfplay_stats.hpp"

namespace azg::trainer {

struct RunSnapshot {
  std::int64_t step = 0;
  double elapsed = 0;   // the run's clock, across resumes
  double progress = 0;  // 0 to 1 (trainer/schedule.hpp)
  double seconds = 0;   // since this process's training loop began, never 0
  // The learner group's totals where there is one, this process's otherwise.
  std::int64_t games = 0, positions = 0;
  std::size_t buffer = 0;
  // Since the training loop began: the rates' numerators.
  std::int64_t games_in_loop = 0, evaluations_in_loop = 0;
  nets::Losses losses;
  SelfPlayCounts selfplay;  // this process's self-play
};

// Seconds since `start`, never zero: the divisor of every rate the log reports.
double seconds_since(std::chrono::steady_clock::time_point start);

class MetricsLog {
 public:
  // `terminal`: `out` is one, where the progress line is redrawn in place and the metrics
  // lines are not repeated as text.
  MetricsLog(const TrainConfig& config, const RunDir& dir, std::ostream& out, bool terminal)
      : config_(config), dir_(dir), out_(out), terminal_(terminal) {}

  // The counters as the training loop begins (a resumed run's games were counted before
  // it, its decisive games were not).
  void begin(const SelfPlayCounts& c);
  // One "train" line in metrics.jsonl; without a terminal, its figures as a text line.
  void log(const RunSnapshot& s);
  // The progress line a terminal redraws in place.
  void progress(const RunSnapshot& s);
  // Once self-play ended: the share of its time spent in the network, and the network's
  // rate (returned: the share, for the final evaluation's line).
  double selfplay_time(const SelfPlayCounts& c, const std::string& precision);
  // The whole loop's self-play rate: a "selfplay" line (with `to_file`) and a text line,
  // what a throughput check reads (tools/device_check.sh), training steps or none.
  void selfplay_rate(const RunSnapshot& s, bool to_file);

 private:
  double policy_kl_since_last_line(const SelfPlayCounts& c);
  nlohmann::json decisive_share_since_last_line(const SelfPlayCounts& c);
  std::string loss_text(const nets::Losses& l, int precision, const char* separator) const;

  const TrainConfig& config_;
  const RunDir& dir_;
  std::ostream& out_;
  bool terminal_;
  std::int64_t kl_logged_ = 0, kl_searches_logged_ = 0;
  std::int64_t decisive_logged_ = 0, games_logged_ = 0;
  std::int64_t decisive_at_begin_ = 0, games_at_begin_ = 0;
};

}  // namespace azg::trainer
