#pragma once
// A progress line for long matches (a round-robin ladder runs for an hour on two cores):
// "ladder: 120/600 games, 3m12s, about 12m50s left", at most once per interval and once at
// the end, so a person (or a log) sees it is alive and when it will be done. play_pairs
// makes its calls one at a time. It plays many games at once (kGamesPerThread a thread), and
// they finish together: until as many games as were started at once are done, the rate of
// finished games says nothing about the rest (the first of 16 Lignes games read "about 49m
// left" for a match done 1m23s later), so the line waits for them before it estimates.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>

namespace azg::play {

// Called once per finished game: games done so far and the total.
using GameDone = std::function<void(std::size_t done, std::size_t total)>;

// "45s", "3m12s", "1h04m".
inline std::string short_duration(double seconds) {
  const long s = seconds < 0 ? 0 : static_cast<long>(seconds + 0.5);
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%lds", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return text;
}

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  // at_once: how many games the match plays at the same time (games_at_once in
  // paired_games.hpp); no estimate is printed before that many are done.
  ProgressLine(std::ostream& out, std::string what, double interval_s = 60.0,
               std::size_t at_once = 1)
      : out_(out),
        what_(std::move(what)),
        interval_s_(interval_s),
        at_once_(at_once < 1 ? 1 : at_once),
        start_(Clock::now()),
        last_(start_) {}

  void game_done(std::size_t done, std::size_t total) {
    const auto now = Clock::now();
    const bool last = done >= total;
    if (!last && std::chrono::duration<double>(now - last_).count() < interval_s_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    out_ << what_ << ": " << done << "/" << total << " games, " << short_duration(elapsed);
    const std::size_t at_once = at_once_ < total ? at_once_ : total;
    if (!last && done >= at_once)
      out_ << ", about "
           << short_duration(elapsed * static_cast<double>(total - done) /
                             static_cast<double>(done))
           << " left";
    else if (!last)
      out_ << ", " << at_once << " at once: time left after the first " << at_once;
    out_ << std::endl;
  }
  GameDone callback() {
    return [this](std::size_t done, std::size_t total) { game_done(done, total); };
  }

 private:
  std::ostream& out_;
  std::string what_;
  double interval_s_;
  std::size_t at_once_;
  Clock::time_point start_, last_;
};

}  // namespace azg::play
