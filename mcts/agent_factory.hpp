#pragma once
// Agents that need no network, from specs: `random` and `mcts` (the UCT baseline: rollout
// or uniform values). The play layer adds `az` (play/agents.hpp); keeping these here lets
// tools and fuzzers without LibTorch build the same agents from the same specs.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mcts/agent.hpp"
#include "mcts/agent_spec.hpp"
#include "mcts/evaluator.hpp"

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

template <Game G>
AgentFactory<G> uct_agent(const SearchConfig& config, const std::string& name = "uct",
                          const std::string& evaluator = "rollout") {
  return [config, name, evaluator](std::uint64_t seed) -> std::unique_ptr<Agent<G>> {
    std::shared_ptr<Evaluator<G>> eval;
    if (evaluator == "uniform") eval = std::make_shared<UniformEvaluator<G>>();
    else eval = std::make_shared<RolloutEvaluator<G>>();
    return std::make_unique<MctsAgent<G>>(name, config, eval, seed);
  };
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
    check_spec_keys(spec, {"evaluator"}, /*search=*/true);
    const std::string evaluator = spec.has("evaluator") ? spec.options.at("evaluator") : "rollout";
    if (evaluator != "rollout" && evaluator != "uniform")
      throw Error("agent spec " + quote_input(spec.text) + ": evaluator must be rollout or uniform");
    return uct_agent<G>(search_config_from(spec, search_preset("uct")), spec.text, evaluator);
  }
  return std::nullopt;
}

}  // namespace azg::mcts
