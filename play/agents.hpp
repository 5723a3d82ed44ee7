#pragma once
// The agent factory: builds agents from specs for a game: random, mcts (the UCT baseline:
// rollout evaluator), az (a trained network). A factory is made once per match (a model
// file is read once) and then makes one agent per game, seeded by the match loop.
#include <functional>
#include <memory>
#include <string>

#include "mcts/agent.hpp"
#include "mcts/agent_spec.hpp"
#include "nets/nn_evaluator.hpp"

namespace azg::play {

template <Game G>
using AgentFactory = std::function<std::unique_ptr<mcts::Agent<G>>(std::uint64_t seed)>;

// The UCT baseline's search and a network agent's (the presets of mcts/search_options.hpp)
// with `simulations`.
inline mcts::SearchConfig uct_search(int simulations = 400) {
  mcts::SearchConfig c = mcts::search_preset("uct");
  c.simulations = simulations;
  return c;
}

inline mcts::SearchConfig az_search(int simulations = 100) {
  mcts::SearchConfig c = mcts::search_preset("az");
  c.simulations = simulations;
  return c;
}

// The simulations per move of a spec's agent: its sims=, else its preset's.
inline int spec_simulations(const mcts::AgentSpec& spec) {
  return mcts::search_config_from(spec, mcts::search_preset(spec.kind == "mcts" ? "uct" : "az")).simulations;
}

template <Game G>
AgentFactory<G> random_agent() {
  return [](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    return std::make_unique<mcts::RandomAgent<G>>(seed);
  };
}

template <Game G>
AgentFactory<G> uct_agent(const mcts::SearchConfig& config, const std::string& name = "uct",
                          const std::string& evaluator = "rollout") {
  return [config, name, evaluator](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    std::shared_ptr<mcts::Evaluator<G>> eval;
    if (evaluator == "uniform") eval = std::make_shared<mcts::UniformEvaluator<G>>();
    else eval = std::make_shared<mcts::RolloutEvaluator<G>>();
    return std::make_unique<mcts::MctsAgent<G>>(name, config, eval, seed);
  };
}

// A network agent on an already loaded model, shared by every agent the factory makes
// (forwards on one model may run concurrently).
template <Game G>
AgentFactory<G> network_agent(std::shared_ptr<nets::InferenceModel> model, const mcts::SearchConfig& config,
                              double rollout_mix = 0, nets::NnEvaluatorOptions options = {},
                              const std::string& name = "az") {
  return [model, config, rollout_mix, options, name](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    std::shared_ptr<mcts::Evaluator<G>> eval = std::make_shared<nets::NnEvaluator<G>>(model, options);
    if (rollout_mix > 0)
      eval = std::make_shared<mcts::RolloutMixEvaluator<G>>(eval, static_cast<float>(rollout_mix));
    return std::make_unique<mcts::MctsAgent<G>>(name, config, eval, seed);
  };
}

// The factory a spec names; bad specs and unreadable models fail here, before any game.
template <Game G>
AgentFactory<G> agent_factory(const mcts::AgentSpec& spec) {
  if (spec.kind == "random") {
    mcts::check_spec_keys(spec, {});
    return random_agent<G>();
  }
  if (spec.kind == "mcts") {
    mcts::check_spec_keys(spec, {"evaluator"}, /*search=*/true);
    const std::string evaluator = spec.has("evaluator") ? spec.options.at("evaluator") : "rollout";
    if (evaluator != "rollout" && evaluator != "uniform")
      throw Error("agent spec " + quote_input(spec.text) + ": evaluator must be rollout or uniform");
    return uct_agent<G>(mcts::search_config_from(spec, mcts::search_preset("uct")), spec.text, evaluator);
  }
  if (spec.kind == "az") {
    mcts::check_spec_keys(spec, {"model", "device", "precision", "symmetry", "rollout_mix"}, /*search=*/true);
    if (!spec.has("model")) throw Error("agent spec " + quote_input(spec.text) + ": az needs model=PATH");
    const mcts::SearchConfig config = mcts::search_config_from(spec, mcts::search_preset("az"));
    const std::string device = spec.has("device") ? spec.options.at("device") : "cpu";
    const std::string precision = spec.has("precision") ? spec.options.at("precision") : "auto";
    nets::NnEvaluatorOptions options;
    options.random_symmetry = mcts::spec_number(spec, "symmetry", 0, 0, 1) != 0;
    const double mix = mcts::spec_number(spec, "rollout_mix", 0, 0, 1);
    auto model = nets::InferenceModel::load(spec.options.at("model"), device, precision);
    model->meta().template check_game<G>(spec.options.at("model"));
    return network_agent<G>(std::move(model), config, mix, options, spec.text);
  }
  throw Error("unknown agent kind " + quote_input(spec.kind) + " in " + quote_input(spec.text) + " (known: random, mcts, az)");
}

}  // namespace azg::play
