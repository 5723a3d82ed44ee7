#pragma once
// One Monte Carlo tree search over a Game: PUCT selection with FPU reduction, Dirichlet
// noise or a Gumbel (top-k + sequential halving) root, chance nodes, virtual loss, tree
// reuse. Searches do not call evaluators themselves: collect() adds leaves to a shared
// EvalBatch and absorb() takes the results, so a driver can batch many searches (see
// driver.hpp). Values are backed up by player identity.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "env/common/game.hpp"
#include "mcts/evaluator.hpp"
#include "mcts/tree.hpp"

namespace azg::mcts {

struct SearchConfig {
  int simulations = 200;
  float c_puct = 1.25f;
  float fpu_reduction = 0.25f;  // unvisited children: parent value minus this x sqrt(visited prior)
  float dirichlet_total = 10.0f;  // root noise alpha = dirichlet_total / number of legal actions
  float noise_fraction = 0.25f;
  bool gumbel = false;      // Gumbel root instead of PUCT + noise at the root
  int gumbel_actions = 16;  // m: actions sampled by Gumbel-top-k
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 1.0f;
  // sigma's q: false maps [-1, 1] to [0, 1]; true rescales each root's completed q by
  // their min and max (mctx's default), so small value gaps still separate the actions.
  bool gumbel_rescale = false;
  // PUCT roots: the policy target is Gumbel's improved policy, softmax(log prior +
  // sigma(completed q)), instead of the visit shares. With few simulations and many legal
  // actions the visit shares mostly echo the priors; the improved policy moves towards
  // the actions the search valued (Danihelka et al. 2022), while the move is still chosen
  // by visits.
  bool improved_policy_target = false;
  int leaves_per_batch = 8;  // leaves one search adds to a batch, spread by virtual loss
  float virtual_loss = 1.0f;
  bool reuse_tree = true;
  std::size_t reserve_nodes = 1 << 14;
};

struct SearchResult {
  std::vector<Action> actions;       // the root's legal actions
  std::vector<std::int32_t> visits;  // visits of each
  std::vector<float> policy;         // training target: visit shares, or Gumbel's improved policy
  std::vector<float> prior;          // the evaluator's prior of each (after root noise)
  Action best = 0;                   // most visited (PUCT) or Gumbel's choice
  float value = 0.0f;                // root value for the player to act at the root
  float network_value = 0.0f;        // the evaluator's value of the root position
  int simulations = 0;
  bool full = true;  // a full search (policy target) or a cheap one
};

template <Game G>
class Search {
 public:
  Search(const SearchConfig& config, std::uint64_t seed) : config_(config), rng_(seed) {
    tree_.reset(config_.reserve_nodes);
  }

  const SearchConfig& config() const { return config_; }
  std::size_t tree_size() const { return tree_.size(); }
  const Tree& tree() const { return tree_; }

  // Starts a search of `simulations` new simulations from `root` (a decision node). The
  // tree kept by advance() is reused when it leads to this very position. `full` marks a
  // full search as opposed to a cheap one. `explore` (self-play) is where root noise is
  // decided, the one place: Dirichlet noise on a full search's PUCT root (a cheap one
  // stays greedy), Gumbel noise on every Gumbel root, whose sampled candidates and choice
  // are its exploration (Imbriqua with noiseless moves after the 30th decision fell from
  // 50% to 15% against UCT-400). Without it a Gumbel root takes the top-k priors and
  // plays the best of them.
  void start(const G& root, int simulations, bool full = true, bool explore = false) {
    assert(!root.is_terminal() && root.to_act() != Player::kChance);
    const bool reuse =
        config_.reuse_tree && !config_.gumbel && have_tree_ && root.hash() == root_.hash();
    if (!reuse) tree_.reset(config_.reserve_nodes);
    have_tree_ = true;
    root_ = root;
    tree_[0].chooser = root.to_act();
    target_ = simulations;
    started_ = finished_ = 0;
    full_ = full;
    noise_ = explore && full && !config_.gumbel;
    gumbel_noise_ = explore && config_.gumbel;
    pending_.clear();
    gumbel_ready_ = false;
    if (tree_[0].expanded()) prepare_root();
  }

  bool done() const { return finished_ >= target_ && pending_.empty(); }
  int simulations_done() const { return finished_; }

  static constexpr int kMaxDescentsPerCollect = 1024;

  // Adds up to `max_leaves` leaves to `batch`; simulations ending on terminal states are
  // finished on the spot. Returns the number of leaves added.
  int collect(EvalBatch<G>& batch, int max_leaves) {
    int added = 0;
    // Descents that end on terminal states add no leaf; after this many the call returns
    // anyway, so a caller can stop a long search of a solved tree between calls.
    int descents = 0;
    while (started_ < target_ && added < max_leaves && descents++ < kMaxDescentsPerCollect) {
      const Descent d = descend();
      if (d.outcome == Descent::kCollision) break;
      ++started_;
      if (d.outcome == Descent::kTerminal) {
        backup(d.node, d.value, Player::kP0);
        ++finished_;
        continue;
      }
      ActionListFor<G> actions;
      d.state.legal_actions(actions);
      pending_.push_back({d.node, batch.add(d.state, actions, rng_.next())});
      tree_[d.node].flags |= Node::kPending;
      ++added;
    }
    return added;
  }

  // Expands this search's leaves in `batch` with the evaluator's outputs and backs up.
  void absorb(const EvalBatch<G>& batch) {
    for (const auto& [node, index] : pending_) {
      const Player actor = batch.state(index).to_act();
      expand(node, batch.actions(index), batch.priors(index), actor);
      if (node == 0) {
        root_network_value_ = batch.value(index);
        prepare_root();
      }
      backup(node, batch.value(index), actor);
      ++finished_;
    }
    pending_.clear();
  }

  SearchResult result() const {
    SearchResult r;
    const Node& root = tree_[0];
    r.simulations = finished_;
    r.full = full_;
    r.network_value = root_network_value_;
    r.value = root.visits > 0 ? root.value_sum / static_cast<float>(root.visits) : 0.0f;
    for (std::uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = tree_[root.first_child + i];
      r.actions.push_back(c.action);
      r.visits.push_back(c.visits);
      r.prior.push_back(c.prior);
    }
    if (r.actions.empty()) return r;
    if (config_.gumbel) {
      r.policy = gumbel_ready_ ? improved_policy() : std::vector<float>(r.actions.size(), 0.0f);
      r.best = tree_[root.first_child + gumbel_choice()].action;
    } else {
      std::int64_t visit_total = 0;
      for (const auto v : r.visits) visit_total += v;
      const double total = static_cast<double>(std::max<std::int64_t>(1, visit_total));
      std::size_t best = 0;
      for (std::size_t i = 0; i < r.visits.size(); ++i) {
        r.policy.push_back(static_cast<float>(r.visits[i] / total));
        const Node& c = tree_[root.first_child + i];
        const Node& b = tree_[root.first_child + best];
        if (c.visits > b.visits || (c.visits == b.visits && c.prior > b.prior)) best = i;
      }
      r.best = r.actions[best];
      if (config_.improved_policy_target) r.policy = improved_policy();
    }
    return r;
  }

  // Moves the root along an action played in the game (by anyone, chance included), so
  // the next start() from the resulting position reuses that subtree.
  void advance(Action a) {
    if (!have_tree_ || !config_.reuse_tree) return;
    const Node& root = tree_[0];
    for (std::uint32_t i = 0; i < root.num_children; ++i) {
      if (tree_[root.first_child + i].action != a) continue;
      tree_.reroot(root.first_child + i);
      root_.apply(a);
      return;
    }
    have_tree_ = false;
  }

 private:
  struct Descent {
    enum Outcome { kLeaf, kTerminal, kCollision } outcome;
    std::uint32_t node;
    G state;
    float value;  // kTerminal: for player 0
  };
  struct Pending {
    std::uint32_t node;
    std::size_t index;
  };

  Descent descend() {
    G state = root_;
    std::uint32_t node = 0;
    tree_[0].in_flight++;
    for (;;) {
      if (state.is_terminal())
        return {Descent::kTerminal, node, state, outcome_value(state.outcome(), Player::kP0)};
      Node& n = tree_[node];
      if (!n.expanded()) {
        if (n.pending()) {
          undo_in_flight(node);
          return {Descent::kCollision, node, state, 0.0f};
        }
        if (state.to_act() != Player::kChance) return {Descent::kLeaf, node, state, 0.0f};
        expand_chance(node, state);
      }
      const std::uint32_t child = tree_[node].is_chance() ? select_chance(node)
                                  : (node == 0 && config_.gumbel && gumbel_ready_)
                                      ? select_gumbel_root()
                                      : select_puct(node, state.to_act());
      state.apply(tree_[child].action);
      tree_[child].in_flight++;
      node = child;
    }
  }

  std::uint32_t select_puct(std::uint32_t node, Player actor) const {
    const Node& n = tree_[node];
    const float parent_visits = static_cast<float>(n.visits + n.in_flight);
    const float sqrt_n = std::sqrt(std::max(parent_visits, 1.0f));
    float visited_prior = 0.0f;
    for (std::uint32_t i = 0; i < n.num_children; ++i) {
      const Node& c = tree_[n.first_child + i];
      if (c.visits + c.in_flight > 0) visited_prior += c.prior;
    }
    const float parent_q = n.visits > 0 ? value_for(n, actor) / static_cast<float>(n.visits) : 0.0f;
    const float fpu = parent_q - config_.fpu_reduction * std::sqrt(visited_prior);
    std::uint32_t best = n.first_child;
    float best_score = -1e30f;
    for (std::uint32_t i = 0; i < n.num_children; ++i) {
      const Node& c = tree_[n.first_child + i];
      const int count = c.visits + c.in_flight;
      const float q = count > 0
                          ? (c.value_sum - config_.virtual_loss * static_cast<float>(c.in_flight)) /
                                static_cast<float>(count)
                          : fpu;
      const float score =
          q + config_.c_puct * c.prior * sqrt_n / (1.0f + static_cast<float>(count));
      if (score > best_score) {
        best_score = score;
        best = n.first_child + i;
      }
    }
    return best;
  }

  // Chance nodes: the outcome furthest below its share of the visits, so visit shares
  // track the probabilities and the node's value is their expectation.
  std::uint32_t select_chance(std::uint32_t node) const {
    const Node& n = tree_[node];
    const float total = static_cast<float>(n.visits + n.in_flight + 1);
    std::uint32_t best = n.first_child;
    float best_deficit = -1e30f;
    for (std::uint32_t i = 0; i < n.num_children; ++i) {
      const Node& c = tree_[n.first_child + i];
      const float deficit = c.prior * total - static_cast<float>(c.visits + c.in_flight);
      if (deficit > best_deficit) {
        best_deficit = deficit;
        best = n.first_child + i;
      }
    }
    return best;
  }

  // The node's value sum seen by `player`.
  static float value_for(const Node& n, Player player) {
    return n.value_view() == player ? n.value_sum : -n.value_sum;
  }

  void expand_chance(std::uint32_t node, const G& state) {
    ChanceListFor<G> outcomes;
    state.chance_outcomes(outcomes);
    const std::uint32_t first = tree_.add_children(node, outcomes.size());
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      Node& c = tree_[first + static_cast<std::uint32_t>(i)];
      c.action = outcomes[i].action;
      c.prior = static_cast<float>(outcomes[i].probability);
      c.chooser = Player::kChance;
    }
    tree_[node].flags |= Node::kExpanded | Node::kChance;
  }

  void expand(std::uint32_t node, std::span<const Action> actions, std::span<const float> priors,
              Player actor) {
    const std::uint32_t first = tree_.add_children(node, actions.size());
    for (std::size_t i = 0; i < actions.size(); ++i) {
      Node& c = tree_[first + static_cast<std::uint32_t>(i)];
      c.action = actions[i];
      c.prior = priors[i];
      c.chooser = actor;
    }
    Node& n = tree_[node];
    n.flags = static_cast<std::uint8_t>((n.flags | Node::kExpanded) & ~Node::kPending);
  }

  // `value` is for `player`; every node on the path gets it from its own chooser's view.
  void backup(std::uint32_t node, float value, Player player) {
    while (node != kNoNode) {
      Node& n = tree_[node];
      n.visits++;
      n.in_flight--;
      n.value_sum += n.value_view() == player ? value : -value;
      node = n.parent;
    }
  }

  void undo_in_flight(std::uint32_t node) {
    for (; node != kNoNode; node = tree_[node].parent) tree_[node].in_flight--;
  }

  // Called once the root is expanded: root noise, or the Gumbel candidates.
  void prepare_root() {
    Node& root = tree_[0];
    if (noise_) {
      const float alpha = config_.dirichlet_total / static_cast<float>(root.num_children);
      std::gamma_distribution<float> gamma(alpha, 1.0f);
      std::vector<float> noise(root.num_children);
      float sum = 0.0f;
      for (float& x : noise) sum += (x = gamma(rng_));
      if (sum > 0.0f) {
        for (std::uint32_t i = 0; i < root.num_children; ++i) {
          Node& c = tree_[root.first_child + i];
          c.prior =
              (1.0f - config_.noise_fraction) * c.prior + config_.noise_fraction * noise[i] / sum;
        }
      }
      noise_ = false;
    }
    if (config_.gumbel && !gumbel_ready_) init_gumbel();
  }

  // ---- Gumbel root: Gumbel-top-k, then sequential halving on g + logit + sigma(q). ----
  void init_gumbel() {
    const Node& root = tree_[0];
    const int n = root.num_children;
    gumbel_.assign(n, 0.0f);
    logits_.assign(n, 0.0f);
    for (int i = 0; i < n; ++i) {
      const double u = std::max(rng_.uniform(), 1e-300);
      gumbel_[i] = gumbel_noise_ ? static_cast<float>(-std::log(-std::log(u))) : 0.0f;
      logits_[i] = std::log(std::max(tree_[root.first_child + i].prior, 1e-12f));
    }
    candidates_.resize(n);
    for (int i = 0; i < n; ++i) candidates_[i] = i;
    const int m = std::min(config_.gumbel_actions, n);
    std::partial_sort(
        candidates_.begin(), candidates_.begin() + m, candidates_.end(),
        [&](int a, int b) { return gumbel_[a] + logits_[a] > gumbel_[b] + logits_[b]; });
    candidates_.resize(m);
    phases_ = std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(m)))));
    phase_target_ = 0;
    next_phase_target();
    gumbel_ready_ = true;
  }

  void next_phase_target() {
    const int per_action = std::max(1, target_ / (phases_ * static_cast<int>(candidates_.size())));
    phase_target_ += candidates_.size() == 1 ? target_ : per_action;
  }

  // sigma(q) = (c_visit + max child visits) x c_scale x q scaled into [0, 1] by `Sigma`'s
  // range: [-1, 1], or with gumbel_rescale the root's completed q values (visited children
  // their q, the others `v_mix`, mixed_value()) from lowest to highest.
  struct Sigma {
    float factor = 0.0f, lo = -1.0f, hi = 1.0f;
    float operator()(float q) const { return factor * (q - lo) / std::max(hi - lo, 1e-6f); }
  };
  Sigma sigma(float v_mix) const {
    const Node& root = tree_[0];
    int max_visits = 0;
    for (std::uint32_t i = 0; i < root.num_children; ++i)
      max_visits = std::max(max_visits, tree_[root.first_child + i].visits);
    Sigma s;
    s.factor = (config_.gumbel_c_visit + static_cast<float>(max_visits)) * config_.gumbel_c_scale;
    if (config_.gumbel_rescale) {
      s.lo = 1.0f, s.hi = -1.0f;
      for (std::uint32_t i = 0; i < root.num_children; ++i) {
        const float q = completed_q(static_cast<int>(i), v_mix);
        s.lo = std::min(s.lo, q), s.hi = std::max(s.hi, q);
      }
    }
    return s;
  }

  float child_q(int i) const {
    const Node& c = tree_[tree_[0].first_child + i];
    return c.visits > 0 ? c.value_sum / static_cast<float>(c.visits) : 0.0f;
  }
  float completed_q(int i, float v_mix) const {
    return tree_[tree_[0].first_child + i].visits > 0 ? child_q(i) : v_mix;
  }

  // v_mix: the network's root value blended with the prior-weighted q of the visited
  // children, the value an unvisited child is given (Gumbel MuZero's completed q).
  float mixed_value() const {
    const Node& root = tree_[0];
    double visited_prior = 0.0, weighted_q = 0.0, total_visits = 0.0;
    for (std::uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = tree_[root.first_child + i];
      if (c.visits == 0) continue;
      visited_prior += c.prior;
      weighted_q += c.prior * child_q(static_cast<int>(i));
      total_visits += c.visits;
    }
    return static_cast<float>(
        visited_prior > 0 ? (root_network_value_ + total_visits / visited_prior * weighted_q) /
                                (1.0 + total_visits)
                          : root_network_value_);
  }

  float gumbel_score(int i, const Sigma& sigma) const {
    return gumbel_[i] + logits_[i] + sigma(child_q(i));
  }

  std::uint32_t select_gumbel_root() {
    const std::uint32_t first = tree_[0].first_child;
    for (;;) {
      int best = -1, best_count = 1 << 30;
      for (const int i : candidates_) {
        const Node& c = tree_[first + i];
        const int count = c.visits + c.in_flight;
        if (count < phase_target_ && count < best_count) best = i, best_count = count;
      }
      if (best >= 0) return first + best;
      // Every candidate reached this phase's visits: keep the better half.
      if (candidates_.size() > 1) {
        const Sigma s = sigma(mixed_value());
        std::sort(candidates_.begin(), candidates_.end(),
                  [&](int a, int b) { return gumbel_score(a, s) > gumbel_score(b, s); });
        candidates_.resize((candidates_.size() + 1) / 2);
      }
      next_phase_target();
    }
  }

  int gumbel_choice() const {
    if (!gumbel_ready_ || candidates_.empty()) return 0;
    const Sigma s = sigma(mixed_value());
    int best = candidates_[0];
    for (const int i : candidates_)
      if (gumbel_score(i, s) > gumbel_score(best, s)) best = i;
    return best;
  }

  // softmax(log prior + sigma(completed q)): visited actions use their q, the others
  // v_mix. The priors are those the root searched with (a Gumbel root's logits).
  std::vector<float> improved_policy() const {
    const Node& root = tree_[0];
    const int n = root.num_children;
    const float v_mix = mixed_value();
    const Sigma s = sigma(v_mix);
    double max_logit = -1e30;
    std::vector<double> z(n);
    for (int i = 0; i < n; ++i) {
      z[i] =
          std::log(std::max(tree_[root.first_child + i].prior, 1e-12f)) + s(completed_q(i, v_mix));
      max_logit = std::max(max_logit, z[i]);
    }
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += (z[i] = std::exp(z[i] - max_logit));
    std::vector<float> policy(n);
    for (int i = 0; i < n; ++i) policy[i] = static_cast<float>(z[i] / sum);
    return policy;
  }

  SearchConfig config_;
  Rng rng_;
  Tree tree_;
  G root_{};
  bool have_tree_ = false;
  int target_ = 0, started_ = 0, finished_ = 0;
  bool full_ = true, noise_ = false, gumbel_noise_ = false;
  float root_network_value_ = 0.0f;
  std::vector<Pending> pending_;
  // Gumbel root state.
  bool gumbel_ready_ = false;
  std::vector<float> gumbel_, logits_;
  std::vector<int> candidates_;
  int phases_ = 1, phase_target_ = 0;
};

}  // namespace azg::mcts
