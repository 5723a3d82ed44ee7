#pragma once
// Agents that need no network, from specs: `random` and `mcts` (the UCT baseline: rollout
// or uniform values; or the game's static evaluation: `evaluator=heuristic`, or
// `evaluator=ept,playout_turns=K` for playouts cut after K turns and scored by it). The
// play layer adds `az` (play/agents.hpp); keeping these here lets tools and fuzzers
// without LibTorch build the same agents from the same specs.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mcts/agent.hpp"
#include "mcts/agent_spec.hpp"
#include "mcts/evaluator.hpp"
#include "mcts/heuristic_evaluators.hpp"

namespace azg::mcts {

template <Game G>
using AgentFactory = std::function<std::unique_ptr<Agent<G>>(std::uint64_t seed)>;

// The UCT baseline's search and a network agent's (the presets of mcts/search_options.hpp)
// with `simulations`.
inline SearchConfig uct_search(int simulations = 400) {
  SearchConfig c = search_preset("uct");
  c.simulations = simulations;
  return c;
}

inline SearchConfig az_search(int simulations = 100) {
  SearchConfig c = search_preset("az");
  c.simulations = simulations;
  return c;
}

// The simulations per move of a spec's agent: its sims=, else its preset's.
inline int spec_simulations(const AgentSpec& spec) {
  return search_config_from(spec, search_preset(spec.kind == "mcts" ? "uct" : "az")).simulations;
}

template <Game G>
AgentFactory<G> random_agent() {
  return [](std::uint64_t seed) -> std::unique_ptr<Agent<G>> {
    return std::make_unique<RandomAgent<G>>(seed);
  };
}

// How an `mcts` agent values its leaves.
struct LeafEvaluation {
  std::string kind = "rollout";  // rollout | uniform | heuristic | ept
  int playout_turns = 4;         // ept: turns before the playout is scored
  int decisive = 1;              // ept: 1 takes a move that wins at once inside the playout, 2 also
                                 // avoids one that hands such a win over, 0 neither
};

template <Game G>
std::shared_ptr<Evaluator<G>> make_leaf_evaluator(const LeafEvaluation& leaf) {
  if (leaf.kind == "uniform") return std::make_shared<UniformEvaluator<G>>();
  if constexpr (kHasEvaluation<G>) {
    if (leaf.kind == "heuristic") return std::make_shared<HeuristicEvaluator<G>>();
    if (leaf.kind == "ept")
      return std::make_shared<EptEvaluator<G>>(leaf.playout_turns, leaf.decisive);
  }
  return std::make_shared<RolloutEvaluator<G>>();
}

template <Game G>
AgentFactory<G> uct_agent(const SearchConfig& config, const std::string& name = "uct",
                          LeafEvaluation leaf = {}) {
  return [config, name, leaf](std::uint64_t seed) -> std::unique_ptr<Agent<G>> {
    return std::make_unique<MctsAgent<G>>(name, config, make_leaf_evaluator<G>(leaf), seed);
  };
}

// An `mcts` spec's leaf evaluation; bad keys and values throw azg::Error, and so does a
// heuristic one for a game without an evaluation.
template <Game G>
LeafEvaluation leaf_evaluation_from(const AgentSpec& spec) {
  LeafEvaluation leaf;
  if (spec.has("evaluator")) leaf.kind = spec.options.at("evaluator");
  if (leaf.kind != "rollout" && leaf.kind != "uniform" && leaf.kind != "heuristic" &&
      leaf.kind != "ept")
    throw Error("agent spec " + quote_input(spec.text) +
                ": evaluator must be rollout, uniform, heuristic or ept");
  if ((leaf.kind == "heuristic" || leaf.kind == "ept") && !kHasEvaluation<G>)
    throw Error("agent spec " + quote_input(spec.text) + ": " + std::string(G::kName) +
                " has no static evaluation for evaluator=" + leaf.kind);
  if ((spec.has("playout_turns") || spec.has("decisive")) && leaf.kind != "ept")
    throw Error("agent spec " + quote_input(spec.text) +
                ": playout_turns and decisive go with evaluator=ept");
  leaf.playout_turns = spec_whole(spec, "playout_turns", leaf.playout_turns, 0, 1000);
  leaf.decisive = spec_whole(spec, "decisive", leaf.decisive, 0, 2);
  return leaf;
}

// The factory for a `random` or `mcts` spec; nullopt for other kinds (the play layer's).
// Bad keys and values throw azg::Error here, before any game.
template <Game G>
std::optional<AgentFactory<G>> search_agent_factory(const AgentSpec& spec) {
  if (spec.kind == "random") {
    check_spec_keys(spec, {});
    return random_agent<G>();
  }
  if (spec.kind == "mcts") {
    check_spec_keys(spec, {"evaluator", "playout_turns", "decisive"}, /*search=*/true);
    const LeafEvaluation leaf = leaf_evaluation_from<G>(spec);
    return uct_agent<G>(search_config_from(spec, search_preset("uct")), spec.text, leaf);
  }
  return std::nullopt;
}

}  // namespace azg::mcts
