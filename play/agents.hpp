#pragma once
// The agent factory: builds agents from specs for a game: random, mcts (the UCT baseline:
// rollout evaluator; or heuristic and ept leaves), ab (alpha-beta), az (a trained network). A
// factory is made once per match (a model file is read once) and then makes one agent per game,
// seeded by the match loop.
#include <functional>
#include <memory>
#include <string>

#include "classic/agent_factory.hpp"
#include "games/games.hpp"
#include "mcts/agent_factory.hpp"
#include "mcts/heuristic_evaluators.hpp"
#include "mcts/policy_agent.hpp"
#include "nets/nn_evaluator.hpp"
#include "play/shipped_models.hpp"

namespace azg::play {

using mcts::AgentFactory;
using mcts::az_search;
using mcts::random_agent;
using mcts::spec_simulations;
using mcts::uct_agent;
using mcts::uct_search;

// What a network agent's leaf values are mixed with: random playouts (rollout_mix) and the
// game's static evaluation with the heuristic agent's near-equal priors (heuristic_mix),
// the same mixes self-play searches with.
struct LeafMix {
  double rollout = 0;
  double heuristic = 0;
  int playout_turns = 0;  // > 0: the heuristic part is an EPT playout of that many turns
};

// A network's evaluator with its leaf mixes, the same for every agent the factory makes.
template <Game G>
std::shared_ptr<mcts::Evaluator<G>> network_evaluator(std::shared_ptr<nets::InferenceModel> model,
                                                      LeafMix mix,
                                                      nets::NnEvaluatorOptions options) {
  std::shared_ptr<mcts::Evaluator<G>> eval =
      std::make_shared<nets::NnEvaluator<G>>(std::move(model), options);
  if (mix.rollout > 0)
    eval = std::make_shared<mcts::RolloutMixEvaluator<G>>(eval, static_cast<float>(mix.rollout));
  if constexpr (kHasEvaluation<G>) {
    if (mix.heuristic > 0)
      eval = std::make_shared<mcts::HeuristicMixEvaluator<G>>(
          eval, static_cast<float>(mix.heuristic), mix.playout_turns);
  }
  return eval;
}

// A network agent on an already loaded model, shared by every agent the factory makes
// (forwards on one model may run concurrently). `raw`: the policy alone, no search
// (mcts/policy_agent.hpp).
template <Game G>
AgentFactory<G> network_agent(std::shared_ptr<nets::InferenceModel> model,
                              const mcts::SearchConfig& config, LeafMix mix = {},
                              nets::NnEvaluatorOptions options = {}, const std::string& name = "az",
                              bool raw = false) {
  return [model, config, mix, options, name,
          raw](std::uint64_t seed) -> std::unique_ptr<mcts::Agent<G>> {
    auto eval = network_evaluator<G>(model, mix, options);
    if (raw) return std::make_unique<mcts::PolicyAgent<G>>(name, std::move(eval), seed);
    return std::make_unique<mcts::MctsAgent<G>>(name, config, std::move(eval), seed);
  };
}

// The network an az spec names, read with the spec's device and precision. model=shipped
// is `game`'s shipped network (play/shipped_models.hpp).
inline std::shared_ptr<nets::InferenceModel> load_agent_model(const mcts::AgentSpec& spec,
                                                              const std::string& game = "") {
  if (!spec.has("model"))
    throw Error("agent spec " + quote_input(spec.text) + ": az needs model=PATH");
  std::string path = spec.options.at("model");
  if (path == kShippedModel) {
    if (game.empty())
      throw Error("agent spec " + quote_input(spec.text) + ": model=shipped needs a game");
    path = shipped_model_path(game);
  }
  return nets::InferenceModel::load(path, spec.has("device") ? spec.options.at("device") : "cpu",
                                    spec.has("precision") ? spec.options.at("precision") : "auto");
}

// Throws unless `model` reads and writes G's current encoding; a shipped model that does
// not is refused with what to do about it.
template <Game G>
void check_agent_model(const nets::InferenceModel& model, const mcts::AgentSpec& spec) {
  const std::string& named = spec.options.at("model");
  if (named != kShippedModel) return model.meta().template check_game<G>(named);
  const std::string game(G::kName);
  try {
    model.meta().template check_game<G>(shipped_model_path(game));
  } catch (const Error& e) {
    if (model.meta().game != game) throw;  // a wrong card, not an older encoding
    throw Error(out_of_date_message(game, e.what()));
  }
}

// The factory a spec names; bad specs and unreadable models fail here, before any game.
// `model`, when given, is an az spec's network already read by load_agent_model (the web
// server reads each model once for all its games).
template <Game G>
AgentFactory<G> agent_factory(const mcts::AgentSpec& spec,
                              std::shared_ptr<nets::InferenceModel> model = nullptr) {
  if (auto factory = classic::network_free_agent_factory<G>(spec)) return *factory;
  if (spec.kind == "az") {
    mcts::check_spec_keys(spec,
                          {"model", "device", "precision", "symmetry", "rollout_mix",
                           "heuristic_mix", "playout_turns", "score_utility", "raw"},
                          /*search=*/true);
    if (!spec.has("model"))
      throw Error("agent spec " + quote_input(spec.text) +
                  ": az needs model=PATH or model=shipped");
    // raw=1: the network's most likely legal action, no search; search keys make no sense.
    const bool raw = mcts::spec_number(spec, "raw", 0, 0, 1) != 0;
    if (raw)
      for (const auto& [key, value] : spec.options)
        if (mcts::find_search_option(key) != nullptr)
          throw Error("agent spec " + quote_input(spec.text) + ": raw=1 plays without search, so " +
                      quote_input(key) + " has no meaning");
    const mcts::SearchConfig config = mcts::search_config_from(spec, mcts::search_preset("az"));
    nets::NnEvaluatorOptions options;
    // Unset: the model's own net.play_symmetry(_mean). all: the mean over every symmetry.
    if (spec.has("symmetry")) {
      const std::string& name = spec.options.at("symmetry");
      const auto symmetry = nets::PlaySymmetry::from_name(name);
      if (!symmetry)
        throw Error("agent spec " + quote_input(spec.text) + ": symmetry must be " +
                    nets::PlaySymmetry::kChoices + ", got " + quote_input(name));
      options.average_symmetries = symmetry->mean;
      options.random_symmetry = symmetry->random;
    }
    // Unset: the model's own net.score_utility (the one it trained with).
    if (spec.has("score_utility"))
      options.score_utility = mcts::spec_number(spec, "score_utility", 0, 0, 1);
    LeafMix mix;
    mix.rollout = mcts::spec_number(spec, "rollout_mix", 0, 0, 1);
    mix.heuristic = mcts::spec_number(spec, "heuristic_mix", 0, 0, 1);
    mix.playout_turns = static_cast<int>(mcts::spec_number(spec, "playout_turns", 0, 0, 1000));
    if (mix.playout_turns > 0 && mix.heuristic <= 0)
      throw Error("agent spec " + quote_input(spec.text) +
                  ": playout_turns needs heuristic_mix above 0");
    if (mix.heuristic > 0 && !kHasEvaluation<G>)
      throw Error("agent spec " + quote_input(spec.text) +
                  ": heuristic_mix needs a game with a static evaluation");
    if (!model) model = load_agent_model(spec, std::string(G::kName));
    check_agent_model<G>(*model, spec);
    if (options.score_utility.value_or(0) > 0 && !model->has_score())
      throw Error("agent spec " + quote_input(spec.text) +
                  ": score_utility needs a network with a score head (" + spec.options.at("model") +
                  " has none)");
    return network_agent<G>(std::move(model), config, mix, options, spec.text, raw);
  }
  throw Error("unknown agent kind " + quote_input(spec.kind) + " in " + quote_input(spec.text) +
              " (known: random, mcts, ab, az)");
}

// Each game's factory, with every agent it builds (searches, evaluators, alpha-beta), is
// compiled once, in play/agent_factory_instance.cpp, and not again in each command, server
// and test that makes agents (about 40% of `azg arena`'s file: docs/performance.md).
#define AZG_EXTERN_AGENT_FACTORY(G)                                        \
  extern template AgentFactory<G> agent_factory<G>(const mcts::AgentSpec&, \
                                                   std::shared_ptr<nets::InferenceModel>);
AZG_FOR_EACH_GAME(AZG_EXTERN_AGENT_FACTORY)
#undef AZG_EXTERN_AGENT_FACTORY

}  // namespace azg::play
