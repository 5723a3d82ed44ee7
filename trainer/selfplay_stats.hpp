#pragma once
// Counters the self-play workers add to and the run reports: shared by every worker
// thread, so each is atomic.
#include <atomic>
#include <cstdint>

namespace azg::trainer {

struct SelfPlayStats {
  std::atomic<std::int64_t> games{0};
  std::atomic<std::int64_t> positions{0};
  std::atomic<std::int64_t> evaluations{0};
  std::atomic<std::int64_t> nn_nanoseconds{0};
  std::atomic<std::int64_t> worker_nanoseconds{0};
  // KL(prior || policy target) summed over full searches, in micro-nats: how far search
  // moves the network's policy (0 would mean self-play teaches the policy nothing).
  std::atomic<std::int64_t> policy_kl_micronats{0};
  std::atomic<std::int64_t> full_searches{0};
  // selfplay.resign_value: games ended by a resignation; games played out (nobody may
  // resign) in which a player crossed the resignation line, and of those the ones that
  // player did not lose (a resignation there would have been wrong).
  std::atomic<std::int64_t> resigned{0};
  std::atomic<std::int64_t> resign_checks{0};
  std::atomic<std::int64_t> resign_false{0};
  // Games won by either side (resignations included), and games the turn cap cut.
  std::atomic<std::int64_t> decisive{0};
  std::atomic<std::int64_t> capped{0};
  // Games started from the start-state archive (selfplay.archive_share), and of those
  // the ones won: what the archive adds to the decisive share.
  std::atomic<std::int64_t> archive_starts{0};
  std::atomic<std::int64_t> archive_decisive{0};
  // selfplay.decided_value: games the root values called for one side (their later
  // searches cheap), and of those the ones that side did not win (a wrong call).
  std::atomic<std::int64_t> decided{0};
  std::atomic<std::int64_t> decided_wrong{0};
};

// The counters at one moment, as plain numbers: what metrics and progress lines read.
struct SelfPlayCounts {
  std::int64_t games = 0, positions = 0, evaluations = 0, nn_nanoseconds = 0,
               worker_nanoseconds = 0, policy_kl_micronats = 0, full_searches = 0, resigned = 0,
               resign_checks = 0, resign_false = 0, decisive = 0, capped = 0, archive_starts = 0,
               archive_decisive = 0, decided = 0, decided_wrong = 0;

  static SelfPlayCounts of(const SelfPlayStats& s) {
    return {s.games.load(),          s.positions.load(),          s.evaluations.load(),
            s.nn_nanoseconds.load(), s.worker_nanoseconds.load(), s.policy_kl_micronats.load(),
            s.full_searches.load(),  s.resigned.load(),           s.resign_checks.load(),
            s.resign_false.load(),   s.decisive.load(),           s.capped.load(),
            s.archive_starts.load(), s.archive_decisive.load(),   s.decided.load(),
            s.decided_wrong.load()};
  }
};

}  // namespace azg::trainer
