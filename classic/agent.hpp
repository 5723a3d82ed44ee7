#pragma once
// The alpha-beta player as an agent (mcts/agent.hpp's interface): `ab:depth=D` searches D
// decisions deep, `ab:ms=T` deepens iteratively for T milliseconds a decision (both: the
// first limit reached). A client's budget (engine protocol `go movetime`, the web board)
// replaces the spec's time; `go infinite` searches until stop().
#include <memory>
#include <string>

#include "classic/alphabeta.hpp"
#include "mcts/agent.hpp"

namespace azg::classic {

template <Game G>
requires kHasEvaluation<G>
class AlphaBetaAgent final : public mcts::Agent<G> {
 public:
  AlphaBetaAgent(std::string name, AlphaBetaLimits limits)
      : name_(std::move(name)), limits_(limits) {}

  Action act(const G& state) override {
    AlphaBetaLimits limits = limits_;
    if (budget_.seconds > 0) limits.seconds = budget_.seconds;
    if (budget_.infinite && budget_.seconds <= 0) limits = {64, 0};
    last_ = search_->search(state, limits);
    return last_.best;
  }
  std::string name() const override { return name_; }
  void set_budget(const mcts::Budget& b) override {
    budget_ = b;
    search_->clear_stop();
  }
  void stop() override { search_->request_stop(); }
  const AlphaBetaResult& last_result() const { return last_; }

 private:
  std::string name_;
  AlphaBetaLimits limits_;
  mcts::Budget budget_;
  std::unique_ptr<AlphaBeta<G>> search_ = std::make_unique<AlphaBeta<G>>();
  AlphaBetaResult last_;
};

}  // namespace azg::classic
