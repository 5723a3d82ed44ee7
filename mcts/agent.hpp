#pragma once
// Agents that play games: uniform random, and MCTS with a given evaluator (the UCT
// baseline uses the rollout evaluator). One virtual call per move, never per node.
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "env/common/random_play.hpp"
#include "mcts/driver.hpp"
#include "mcts/search.hpp"

namespace azg::mcts {

// How long an agent thinks: a number of simulations, a time, both (whichever ends first),
// or until stopped. Zero simulations and zero seconds: the agent's own default.
struct Budget {
  int simulations = 0;
  double seconds = 0;
  bool infinite = false;  // until stop() (or a set simulations / seconds limit)
};

template <Game G>
class Agent {
 public:
  virtual ~Agent() = default;
  // The action to play at `state` (a decision of the agent's player).
  virtual Action act(const G& state) = 0;
  // Every action applied to the game, by anyone (chance included), in order.
  virtual void observe(Action) {}
  virtual std::string name() const = 0;
  // The budget of the next act() calls; clears a stop() not yet acted on.
  virtual void set_budget(const Budget&) {}
  // Ends a running act() soon with its best action so far, or the next one if none runs
  // yet (until set_budget()); safe from another thread.
  virtual void stop() {}

  // For match loops that run many games' searches together (one evaluator call for the
  // leaves of all): an agent that decides by a search of a set number of simulations
  // starts it here and returns it; the caller drives it with evaluator() and then calls
  // end_search(), which gives what act() would have. nullptr: call act() instead.
  virtual Search<G>* begin_search(const G&) { return nullptr; }
  virtual Evaluator<G>* evaluator() { return nullptr; }
  virtual Action end_search() { return 0; }
};

template <Game G>
class RandomAgent final : public Agent<G> {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  Action act(const G& state) override { return random_action(state, rng_); }
  std::string name() const override { return "random"; }

 private:
  Rng rng_;
};

// Picks an action from a search result: the best at temperature 0, else visits^(1/t).
inline Action choose_by_visits(const SearchResult& r, float temperature, Rng& rng) {
  if (temperature <= 0.0f || r.actions.size() == 1) return r.best;
  std::vector<double> weights(r.visits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i)
    sum += (weights[i] = std::pow(static_cast<double>(r.visits[i]), 1.0 / temperature));
  if (sum <= 0.0) return r.best;
  double x = rng.uniform() * sum;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if ((x -= weights[i]) < 0.0) return r.actions[i];
  return r.actions.back();
}

template <Game G>
class MctsAgent final : public Agent<G> {
 public:
  MctsAgent(std::string name, const SearchConfig& config, std::shared_ptr<Evaluator<G>> evaluator,
            std::uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), search_(config, seed) {}

  // A search with `infinite` or a time budget and no simulation limit runs up to this.
  static constexpr int kUnboundedSimulations = 20000000;  // a few GB of tree at most

  Action act(const G& state) override {
    using Clock = std::chrono::steady_clock;
    search_.start(state, budget_.simulations > 0 ? budget_.simulations
                         : open_ended()          ? kUnboundedSimulations
                                                 : search_.config().simulations);
    const auto start = Clock::now();
    auto last_report = start;
    Search<G>* searches[] = {&search_};
    run_searches<G>(searches, *evaluator_, batch_, search_.config().leaves_per_batch, [&] {
      if (search_.simulations_done() == 0) return false;  // the root is expanded first
      const auto now = Clock::now();
      if (progress_ && now - last_report >= progress_interval_) {
        last_report = now;
        progress_(search_.result());
      }
      if (stop_requested_.load(std::memory_order_relaxed)) return true;
      return budget_.seconds > 0 &&
             std::chrono::duration<double>(now - start).count() >= budget_.seconds;
    });
    return end_search();
  }
  void observe(Action a) override { search_.advance(a); }
  // A budget of time or until stopped needs act()'s clock.
  Search<G>* begin_search(const G& state) override {
    if (open_ended()) return nullptr;
    search_.start(state,
                  budget_.simulations > 0 ? budget_.simulations : search_.config().simulations);
    return &search_;
  }
  Evaluator<G>* evaluator() override { return evaluator_.get(); }
  Action end_search() override {
    last_ = search_.result();
    return last_.best;
  }
  std::string name() const override { return name_; }
  void set_budget(const Budget& b) override {
    budget_ = b;
    stop_requested_.store(false);
  }
  void stop() override { stop_requested_.store(true); }
  // Calls `report` with the search so far about every `interval` while act() runs.
  void on_progress(std::function<void(const SearchResult&)> report,
                   std::chrono::milliseconds interval) {
    progress_ = std::move(report);
    progress_interval_ = interval;
  }
  const Search<G>& search() const { return search_; }
  const SearchResult& last_result() const { return last_; }

 private:
  bool open_ended() const { return budget_.infinite || budget_.seconds > 0; }

  std::string name_;
  std::shared_ptr<Evaluator<G>> evaluator_;
  Search<G> search_;
  EvalBatch<G> batch_;
  SearchResult last_;
  Budget budget_;
  std::atomic<bool> stop_requested_{false};
  std::function<void(const SearchResult&)> progress_;
  std::chrono::milliseconds progress_interval_{1000};
};

}  // namespace azg::mcts
