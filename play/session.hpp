#pragma once
// A game in progress, as the engine protocol and the web board see it: a position reached
// from a setup by a history of action strings, with undo, the legal actions (with their
// probabilities at a chance node), the result, and an agent that thinks on it with a
// budget and can be stopped. `Session` is the game-free interface; `GameSession<G>`
// implements it with copy-make (one state per ply kept, so undo is a pop).
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"
#include "play/agents.hpp"

namespace azg::play {

// How clients name who decides: p1 (player 0, who moves first), p2, or chance.
inline std::string player_name(Player p) {
  return p == Player::kP0 ? "p1" : p == Player::kP1 ? "p2" : "chance";
}

struct LegalAction {
  std::string action;
  double probability = 0;  // at a chance node: the outcome's probability; else 0
};

// One root action as the search sees it.
struct ActionInfo {
  std::string action;
  int visits = 0;
  double share = 0;             // of the root's child visits
  double value = 0;             // for the player to act at the root, in [-1, 1] (0 when unvisited)
  double prior = 0;             // the evaluator's prior
  std::vector<std::string> pv;  // this action, then the most visited line below it
};

// What an agent's search says about the position, while and after it thinks.
struct Thought {
  std::string best;  // the action it plays (or would now)
  double value = 0;  // for the player to act, in [-1, 1]
  int simulations = 0;
  std::vector<ActionInfo> actions;               // by visits, most visited first
  std::vector<std::string> principal_variation;  // the best action's line
};

class Session {
 public:
  virtual ~Session() = default;
  virtual std::string_view game() const = 0;
  virtual std::string setup() const = 0;
  virtual const std::vector<std::string>& history() const = 0;
  virtual Player to_act() const = 0;  // kChance, or the player to decide; meaningless when over
  virtual bool over() const = 0;
  virtual Outcome outcome() const = 0;  // only when over()
  virtual std::vector<LegalAction> legal() const = 0;
  // Plays `action` (the game's own string, a chance outcome included); throws azg::Error
  // when it is malformed or illegal, leaving the session as it was.
  virtual void play(std::string_view action) = 0;
  virtual bool undo() = 0;  // false at the start
  // The position after `moves` from `setup` (the game's default start when empty); on a
  // bad setup or move it throws and the session keeps its former position. When this
  // extends the current game, only the new moves are played (the agent keeps its tree).
  virtual void reset(std::string_view setup, const std::vector<std::string>& moves = {}) = 0;
  // A new game from the game's randomised start drawn from `rng` (G::random_setup).
  virtual void random_start(Rng& rng) = 0;
  // At a chance node: an outcome drawn from its probabilities (not played), the way a
  // match draws it, so a referee with the same generator sees the same luck as the arena.
  virtual std::string sample_chance(Rng& rng) const = 0;
  virtual std::string board() const = 0;
  virtual GameRecord record() const = 0;

  // The agent that thinks on this session's positions (replaces the former one). `model`,
  // when given, is an az spec's network already read (play::load_agent_model).
  virtual void set_agent(const mcts::AgentSpec& spec, std::uint64_t seed,
                         std::shared_ptr<nets::InferenceModel> model = nullptr) = 0;
  virtual bool has_agent() const = 0;
  // The agent's choice at the current decision, within `budget`; `progress`, when given,
  // is called about every `interval` from the thinking thread. Does not play the action.
  Thought think(const mcts::Budget& budget,
                const std::function<void(const Thought&)>& progress = nullptr,
                std::chrono::milliseconds interval = std::chrono::milliseconds(1000)) {
    set_budget(budget);
    return think_now(progress, interval);
  }
  // The two halves of think(), for a caller that thinks on another thread: set_budget()
  // on its own thread first, so that a stop() sent right after cannot be lost.
  virtual void set_budget(const mcts::Budget& budget) = 0;
  virtual Thought think_now(const std::function<void(const Thought&)>& progress,
                            std::chrono::milliseconds interval) = 0;
  // Ends a running think() soon (or the next one, until set_budget()); safe from another
  // thread.
  virtual void stop() = 0;
};

template <Game G>
class GameSession final : public Session {
 public:
  explicit GameSession(G start = G{}) { states_.push_back(start); }

  std::string_view game() const override { return G::kName; }
  std::string setup() const override { return states_.front().setup_string(); }
  const std::vector<std::string>& history() const override { return history_; }
  const G& state() const { return states_.back(); }
  Player to_act() const override { return state().to_act(); }
  bool over() const override { return state().is_terminal(); }
  Outcome outcome() const override { return state().outcome(); }

  std::vector<LegalAction> legal() const override {
    std::vector<LegalAction> out;
    if (over()) return out;
    if (to_act() == Player::kChance) {
      ChanceListFor<G> outcomes;
      state().chance_outcomes(outcomes);
      for (const auto& o : outcomes)
        out.push_back({state().action_to_string(o.action), o.probability});
      return out;
    }
    ActionListFor<G> actions;
    state().legal_actions(actions);
    for (const Action a : actions) out.push_back({state().action_to_string(a), 0.0});
    return out;
  }

  void play(std::string_view action) override {
    const Action a = parse_legal_action(state(), action, history_.size());
    G next = state();
    next.apply(a);
    history_.push_back(state().action_to_string(a));  // the canonical spelling
    states_.push_back(next);
    if (agent_) agent_->observe(a);  // keeps its tree, as in a match
  }

  bool undo() override {
    if (history_.empty()) return false;
    states_.pop_back();
    history_.pop_back();
    return true;
  }

  void reset(std::string_view setup, const std::vector<std::string>& moves) override {
    GameSession fresh(start_of(setup));
    for (const auto& m : moves) fresh.play(m);  // every move checked before anything changes
    const bool extends = fresh.setup() == this->setup() &&
                         fresh.history_.size() >= history_.size() &&
                         std::equal(history_.begin(), history_.end(), fresh.history_.begin());
    if (extends) {
      // The same game, further on: play only the new moves, so the agent follows them.
      for (std::size_t i = history_.size(); i < fresh.history_.size(); ++i) play(fresh.history_[i]);
      return;
    }
    states_ = std::move(fresh.states_);
    history_ = std::move(fresh.history_);
  }

  void random_start(Rng& rng) override {
    states_.assign(1, G::random_setup(rng));
    history_.clear();
  }

  std::string sample_chance(Rng& rng) const override {
    if (over() || to_act() != Player::kChance) throw Error("no chance outcome to draw here");
    return state().action_to_string(azg::sample_chance(state(), rng));
  }

  std::string board() const override { return state().render(); }

  GameRecord record() const override {
    GameRecord r;
    r.setup = setup();
    r.actions = history_;
    r.outcome = over() ? outcome() : Outcome::kDraw;
    return r;
  }

  void set_agent(const mcts::AgentSpec& spec, std::uint64_t seed,
                 std::shared_ptr<nets::InferenceModel> model = nullptr) override {
    if (!factory_ || spec.text != factory_spec_) {
      factory_ =
          agent_factory<G>(spec, std::move(model));  // a model is read once, not once per game
      factory_spec_ = spec.text;
    }
    agent_ = factory_(seed);
    search_agent_ = dynamic_cast<mcts::MctsAgent<G>*>(agent_.get());
  }
  bool has_agent() const override { return agent_ != nullptr; }

  void stop() override {
    if (agent_) agent_->stop();
  }

  void set_budget(const mcts::Budget& budget) override {
    if (agent_) agent_->set_budget(budget);
  }

  Thought think_now(const std::function<void(const Thought&)>& progress,
                    std::chrono::milliseconds interval) override {
    if (!agent_) throw Error("no agent is set to think");
    if (over()) throw Error("the game is over");
    if (to_act() == Player::kChance)
      throw Error("chance acts here, not a player: play one of its outcomes");
    if (search_agent_) {
      search_agent_->on_progress(progress
                                     ? [&](const mcts::SearchResult& r) { progress(thought_of(r)); }
                                     : std::function<void(const mcts::SearchResult&)>{},
                                 interval);
      // The agent has observed the moves played since it was made, so it keeps its tree
      // along the game; after an undo or a reset the search sees another root and starts
      // afresh.
      const Action best = search_agent_->act(state());
      Thought t = thought_of(search_agent_->last_result());
      t.best = state().action_to_string(best);  // Gumbel's choice need not be the most visited
      search_agent_->on_progress(nullptr, interval);
      return t;
    }
    Thought t;
    t.best = state().action_to_string(agent_->act(state()));
    return t;
  }

 private:
  // An empty setup is the game's default start (Truchet's from_setup wants its 49 bits).
  static G start_of(std::string_view setup) { return setup.empty() ? G{} : G::from_setup(setup); }

  Thought thought_of(const mcts::SearchResult& r) const {
    Thought t;
    t.value = r.value;
    t.simulations = r.simulations;
    const mcts::Tree& tree = search_agent_->search().tree();
    const mcts::Node& root = tree[0];
    std::int64_t total = 0;
    for (std::uint32_t i = 0; i < root.num_children; ++i)
      total += tree[root.first_child + i].visits;
    for (std::uint32_t i = 0; i < root.num_children; ++i) {
      const std::uint32_t child = root.first_child + i;
      const mcts::Node& c = tree[child];
      ActionInfo info;
      info.action = state().action_to_string(c.action);
      info.visits = c.visits;
      info.share = total > 0 ? static_cast<double>(c.visits) / static_cast<double>(total) : 0.0;
      info.value = c.visits > 0 ? c.value_sum / static_cast<float>(c.visits) : 0.0;
      info.prior = c.prior;
      G next = state();
      next.apply(c.action);
      info.pv.push_back(info.action);
      for (auto& a : line_below(tree, child, next)) info.pv.push_back(std::move(a));
      t.actions.push_back(std::move(info));
    }
    std::stable_sort(t.actions.begin(), t.actions.end(),
                     [](const ActionInfo& a, const ActionInfo& b) { return a.visits > b.visits; });
    if (!t.actions.empty()) {
      t.best = t.actions.front().action;
      t.principal_variation = t.actions.front().pv;
    }
    return t;
  }

  // The most visited line below `node` (whose position is `state`), through decisions only:
  // a chance node ends it.
  static std::vector<std::string> line_below(const mcts::Tree& tree, std::uint32_t node, G state) {
    std::vector<std::string> line;
    while (tree[node].num_children > 0 && !state.is_terminal() &&
           state.to_act() != Player::kChance) {
      std::uint32_t best = tree[node].first_child;
      for (std::uint32_t c = 1; c < tree[node].num_children; ++c)
        if (tree[tree[node].first_child + c].visits > tree[best].visits)
          best = tree[node].first_child + c;
      if (tree[best].visits == 0) break;
      line.push_back(state.action_to_string(tree[best].action));
      state.apply(tree[best].action);
      node = best;
    }
    return line;
  }

  std::vector<G> states_;
  std::vector<std::string> history_;
  AgentFactory<G> factory_;
  std::string factory_spec_;
  std::unique_ptr<mcts::Agent<G>> agent_;
  mcts::MctsAgent<G>* search_agent_ = nullptr;
};

}  // namespace azg::play
