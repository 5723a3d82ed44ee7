#pragma once
// The agent factory: builds agents from specs for a game: random, mcts (the UCT baseline:
// rollout evaluator), az (a trained network).
#include <memory>

#include "mcts/agent.hpp"
#include "mcts/agent_spec.hpp"
#include "nets/nn_evaluator.hpp"

namespace azg::play {

template <Game G>
std::unique_ptr<mcts::Agent<G>> make_agent(const mcts::AgentSpec& spec, std::uint64_t seed) {
  if (spec.kind == "random") {
    mcts::check_spec_keys(spec, {});
    return std::make_unique<mcts::RandomAgent<G>>(seed);
  }
  if (spec.kind == "mcts") {
    mcts::check_spec_keys(spec, {"sims", "cpuct", "fpu", "batch", "vl", "reuse", "evaluator"});
    mcts::SearchConfig defaults;
    defaults.simulations = 400;
    defaults.c_puct = 1.5f;
    defaults.fpu_reduction = 0.0f;
    defaults.leaves_per_batch = 1;
    const mcts::SearchConfig config = mcts::search_config_from(spec, defaults);
    const std::string evaluator = spec.has("evaluator") ? spec.options.at("evaluator") : "rollout";
    std::shared_ptr<mcts::Evaluator<G>> eval;
    if (evaluator == "rollout") eval = std::make_shared<mcts::RolloutEvaluator<G>>();
    else if (evaluator == "uniform") eval = std::make_shared<mcts::UniformEvaluator<G>>();
    else throw Error("agent spec '" + spec.text + "': evaluator must be rollout or uniform");
    return std::make_unique<mcts::MctsAgent<G>>(spec.text, config, eval, seed);
  }
  if (spec.kind == "az") {
    mcts::check_spec_keys(spec, {"model", "sims", "cpuct", "fpu", "batch", "vl", "reuse", "gumbel", "gumbel_k",
                                 "device", "precision", "symmetry", "rollout_mix"});
    if (!spec.has("model")) throw Error("agent spec '" + spec.text + "': az needs model=PATH");
    mcts::SearchConfig defaults;
    defaults.simulations = 100;
    defaults.leaves_per_batch = 8;
    const mcts::SearchConfig config = mcts::search_config_from(spec, defaults);
    const std::string device = spec.has("device") ? spec.options.at("device") : "cpu";
    const std::string precision = spec.has("precision") ? spec.options.at("precision") : "auto";
    auto model = nets::InferenceModel::load(spec.options.at("model"), device, precision);
    model->meta().template check_game<G>(spec.options.at("model"));
    nets::NnEvaluatorOptions options;
    options.random_symmetry = mcts::spec_number(spec, "symmetry", 0, 0, 1) != 0;
    std::shared_ptr<mcts::Evaluator<G>> eval = std::make_shared<nets::NnEvaluator<G>>(model, options);
    if (const double mix = mcts::spec_number(spec, "rollout_mix", 0, 0, 1); mix > 0)
      eval = std::make_shared<mcts::RolloutMixEvaluator<G>>(eval, static_cast<float>(mix));
    return std::make_unique<mcts::MctsAgent<G>>(spec.text, config, eval, seed);
  }
  throw Error("unknown agent kind '" + spec.kind + "' in '" + spec.text + "' (known: random, mcts, az)");
}

}  // namespace azg::play
