#pragma once
// Agents that need no network, from specs: `ab:depth=D` / `ab:ms=T` (classical alpha-beta
// on the game's static evaluation) here, and `random` and `mcts` from the search layer
// (mcts/agent_factory.hpp). The play layer adds `az` (play/agents.hpp).
#include <optional>

#include "classic/agent.hpp"
#include "mcts/agent_factory.hpp"

namespace azg::classic {

// The factory for an `ab`, `random` or `mcts` spec; nullopt for other kinds. Bad keys and
// values, and `ab` for a game without a static evaluation, throw azg::Error.
template <Game G>
std::optional<mcts::AgentFactory<G>> network_free_agent_factory(const mcts::AgentSpec& spec) {
  if (spec.kind != "ab") return mcts::search_agent_factory<G>(spec);
  mcts::check_spec_keys(spec, {"depth", "ms"});
  if constexpr (!kHasEvaluation<G>) {
    throw Error("agent spec " + quote_input(spec.text) + ": " + std::string(G::kName) +
                " has no static evaluation for the alpha-beta player");
  } else {
    const AlphaBetaLimits limits{mcts::spec_whole(spec, "depth", 0, 1, 64),
                                 mcts::spec_number(spec, "ms", 0, 1, 3.6e6) / 1000.0};
    if (limits.depth == 0 && limits.seconds == 0)
      throw Error("agent spec " + quote_input(spec.text) +
                  ": ab needs depth=D (decisions) or ms=T (per decision)");
    const std::string name = spec.text;
    return [limits, name](std::uint64_t) -> std::unique_ptr<mcts::Agent<G>> {
      return std::make_unique<AlphaBetaAgent<G>>(name, limits);
    };
  }
}

}  // namespace azg::classic
