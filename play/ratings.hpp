#pragma once
// Ratings from game results: a maximum-likelihood Elo fit (draws count half a point)
// anchored on one agent, with 95% confidence intervals from the observed information; and
// the sequential probability ratio test (SPRT) between two Elo hypotheses.
#include <string>
#include <vector>

namespace azg::play {

struct PairScore {
  int a = 0, b = 0;    // agent indices
  double score_a = 0;  // points of a (win 1, draw 0.5)
  int games = 0;
};

struct EloFit {
  std::vector<double> elo;       // anchor at 0
  std::vector<double> interval;  // 95% half-width (0 for the anchor)
  int iterations = 0;
};

// Newton's method on the log-likelihood of the logistic Elo model. A weak prior (one
// virtual draw against the anchor's level for every agent) keeps the fit finite when an
// agent won or lost every game.
EloFit fit_elo(int agents, const std::vector<PairScore>& results, int anchor);

// Expected score of a player rated `elo` above his opponent.
double elo_to_score(double elo);

class Sprt {
 public:
  Sprt(double elo0, double elo1, double alpha, double beta);
  // Adds one game's score (0, 0.5 or 1 for the tested agent); returns the decision so far.
  enum class Decision { kContinue, kAcceptH0, kAcceptH1 };
  Decision add(double score);
  double llr() const { return llr_; }
  double lower() const { return lower_; }
  double upper() const { return upper_; }
  Decision decision() const;

 private:
  double log_win_, log_loss_;  // per-point log-likelihood ratios
  double llr_ = 0, lower_, upper_;
};

// An SVG picture of ratings with 95% error bars, one row per agent.
std::string ratings_svg(const std::vector<std::string>& names, const EloFit& fit,
                        const std::string& title);
// An SVG line chart of Elo (with error bars) against x (training steps, minutes, ...).
std::string progress_svg(const std::vector<double>& x, const EloFit& fit, const std::string& title,
                         const std::string& x_label = "training step",
                         const std::string& y_label = "Elo (first checkpoint = 0)");

}  // namespace azg::play
