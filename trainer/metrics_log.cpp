#include "trainer/metrics_log.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "trainer/schedule.hpp"
#include "trainer/simulation_schedule.hpp"

namespace azg::trainer {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::max(1e-9,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void MetricsLog::begin(const SelfPlayCounts& c) {
  decisive_logged_ = decisive_at_begin_ = c.decisive;
  games_logged_ = games_at_begin_ = c.games;
  kl_logged_ = c.policy_kl_micronats;
  kl_searches_logged_ = c.full_searches;
}

void MetricsLog::log(const RunSnapshot& s) {
  const SelfPlayCounts& c = s.selfplay;
  const nlohmann::json decisive_share = decisive_share_since_last_line(c);
  const nlohmann::json false_resign = c.resign_checks == 0
                                          ? nlohmann::json(nullptr)
                                          : nlohmann::json(static_cast<double>(c.resign_false) /
                                                           static_cast<double>(c.resign_checks));
  const double games_per_s = static_cast<double>(s.games_in_loop) / s.seconds;
  const double evals_per_s = static_cast<double>(s.evaluations_in_loop) / s.seconds;
  dir_.append_metrics({{"type", "train"},
                       {"step", s.step},
                       {"games", s.games},
                       {"positions", s.positions},
                       {"buffer", s.buffer},
                       {"loss_policy", s.losses.policy},
                       {"loss_value", s.losses.value},
                       {"loss_ownership", s.losses.ownership},
                       {"loss_score", s.losses.score},
                       {"lr", learning_rate(config_, s.progress)},
                       {"simulations", full_simulations(config_, s.progress)},
                       {"games_per_s", games_per_s},
                       {"evals_per_s", evals_per_s},
                       {"policy_kl", policy_kl_since_last_line(c)},
                       {"resigned", c.resigned},
                       {"false_resign", false_resign},
                       {"decisive_share", decisive_share},
                       {"decisive", c.decisive},
                       {"capped", c.capped},
                       {"archive_starts", c.archive_starts},
                       {"archive_decisive", c.archive_decisive},
                       {"decided", c.decided},
                       {"decided_wrong", c.decided_wrong},
                       {"elapsed_s", s.elapsed}});
  if (terminal_) return;  // the progress line says it
  out_ << "step " << s.step << "/" << config_.run_steps << "  games " << s.games << "  positions "
       << s.positions << "  loss " << loss_text(s.losses, 3, " / ") << std::fixed
       << std::setprecision(1) << "  " << games_per_s << " games/s  " << std::setprecision(0)
       << evals_per_s << " evals/s  " << std::setprecision(0) << s.elapsed << " s";
  if (decisive_share.is_number())
    out_ << "  decisive " << std::setprecision(0) << 100 * decisive_share.get<double>() << "%";
  if (config_.selfplay_resign_value > 0)
    out_ << "  resigned " << c.resigned << " (wrong " << c.resign_false << " of " << c.resign_checks
         << " played out)";
  if (config_.selfplay_decided_value > 0)
    out_ << "  called " << c.decided << " (wrong " << c.decided_wrong << ")";
  out_ << std::endl;
}

// The share of the self-play games finished since the last metrics line that a side won
// (not drawn, not cut by the turn cap); null when none finished.
nlohmann::json MetricsLog::decisive_share_since_last_line(const SelfPlayCounts& c) {
  nlohmann::json share = nullptr;
  if (c.games > games_logged_)
    share = std::min(1.0, static_cast<double>(c.decisive - decisive_logged_) /
                              static_cast<double>(c.games - games_logged_));
  decisive_logged_ = c.decisive;
  games_logged_ = c.games;
  return share;
}

// Mean KL(prior || policy target) of the full searches since the last metrics line.
double MetricsLog::policy_kl_since_last_line(const SelfPlayCounts& c) {
  const double mean = c.full_searches > kl_searches_logged_
                          ? 1e-6 * static_cast<double>(c.policy_kl_micronats - kl_logged_) /
                                static_cast<double>(c.full_searches - kl_searches_logged_)
                          : 0.0;
  kl_logged_ = c.policy_kl_micronats;
  kl_searches_logged_ = c.full_searches;
  return mean;
}

// "policy / value", then "/ ownership" and "/ score" for networks with those heads.
std::string MetricsLog::loss_text(const nets::Losses& l, int precision,
                                  const char* separator) const {
  std::ostringstream text;
  text << std::fixed << std::setprecision(precision) << l.policy << separator << l.value;
  if (config_.net_ownership) text << separator << std::setprecision(precision + 1) << l.ownership;
  if (config_.net_score_head) text << separator << std::setprecision(precision + 1) << l.score;
  return text.str();
}

void MetricsLog::progress(const RunSnapshot& s) {
  double eta = (config_.run_steps - s.step) * s.seconds / std::max<std::int64_t>(1, s.step + 1);
  if (config_.run_minutes > 0) eta = std::min(eta, config_.run_minutes * 60.0 - s.elapsed);
  const int eta_s = static_cast<int>(std::max(0.0, eta));
  std::ostringstream line;
  line << "\rstep " << s.step << "/" << config_.run_steps << "  games " << s.games << "  positions "
       << s.positions << "  loss " << loss_text(s.losses, 2, "/") << std::fixed
       << std::setprecision(1) << "  " << static_cast<double>(s.games_in_loop) / s.seconds
       << " games/s  " << std::setprecision(0)
       << static_cast<double>(s.evaluations_in_loop) / s.seconds << " evals/s  ETA " << eta_s / 60
       << "m" << std::setw(2) << std::setfill('0') << eta_s % 60 << "s";
  // This process's games since the loop began.
  if (const std::int64_t games = s.selfplay.games - games_at_begin_; games > 0)
    line << "  decisive " << std::setprecision(0)
         << 100.0 * std::min(1.0, static_cast<double>(s.selfplay.decisive - decisive_at_begin_) /
                                      static_cast<double>(games))
         << "%";
  line << "   ";
  out_ << line.str() << std::flush;
}

double MetricsLog::selfplay_time(const SelfPlayCounts& c, const std::string& precision) {
  const double worker_s = static_cast<double>(c.worker_nanoseconds) * 1e-9;
  const double nn_s = static_cast<double>(c.nn_nanoseconds) * 1e-9;
  if (worker_s <= 0) return 0;
  const double nn_share = nn_s / worker_s;
  out_ << std::fixed << std::setprecision(1) << "self-play time: network " << 100 * nn_share
       << "% (encode + forward + priors), search and rules " << 100 * (1 - nn_share) << "%\n";
  // The same quantity as azg bench nn's evaluator line on one thread: compare them to
  // see how much the learner and the other workers slow each network call.
  if (nn_s > 0)
    out_ << std::setprecision(0) << "network calls: " << static_cast<double>(c.evaluations) / nn_s
         << " evaluations/s per self-play thread while evaluating (" << precision << ")\n";
  return nn_share;
}

void MetricsLog::selfplay_rate(const RunSnapshot& s, bool to_file) {
  const double games_per_s = static_cast<double>(s.games_in_loop) / s.seconds;
  const double evals_per_s = static_cast<double>(s.evaluations_in_loop) / s.seconds;
  if (to_file)
    dir_.append_metrics({{"type", "selfplay"},
                         {"step", s.step},
                         {"seconds", s.seconds},
                         {"threads", config_.selfplay_threads},
                         {"games", s.games_in_loop},
                         {"evaluations", s.evaluations_in_loop},
                         {"games_per_s", games_per_s},
                         {"evals_per_s", evals_per_s}});
  out_ << std::fixed << std::setprecision(0) << "self-play: " << evals_per_s << " evaluations/s, "
       << std::setprecision(2) << games_per_s << " games/s over " << std::setprecision(0)
       << s.seconds << " s (" << config_.selfplay_threads << " thread(s))\n";
}

}  // namespace azg::trainer
