#pragma once
// A match result from one side: kept apart from play/paired_games.hpp so that the
// trainer's report (trainer/train_report.hpp) names it without the match loop's templates.
namespace azg::play {

// One side's wins, draws and losses: the one score type of matches, gates and reports.
struct Score {
  int wins = 0, draws = 0, losses = 0;
  void add(double points) { (points >= 1 ? wins : points <= 0 ? losses : draws)++; }
  int games() const { return wins + draws + losses; }
  double points() const { return wins + 0.5 * draws; }
  double rate() const { return games() ? points() / games() : 0.0; }  // in [0, 1]
  Score& operator+=(const Score& o) {
    wins += o.wins, draws += o.draws, losses += o.losses;
    return *this;
  }
};

}  // namespace azg::play
