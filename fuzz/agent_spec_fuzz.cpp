// Fuzzes agent specs (`--agent NAME=SPEC`, the engine's agent): parsing, the search keys
// and their ranges, and building the agent (mcts/agent_factory.hpp). Specs that make a cheap agent
// also play one move, so a value that passes the checks but breaks the search shows here.
#include <cstdint>
#include <string>

#include "classic/agent_factory.hpp"
#include "env/common/random_play.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] {
      const auto spec = azg::mcts::parse_agent_spec(input);
      // `az` specs load a model file (model_file_fuzz covers those); any other kind but
      // random, mcts and ab is refused by the play layer's factory with one line.
      const auto factory = azg::classic::network_free_agent_factory<G>(spec);
      if (!factory) return;
      if (spec.kind == "mcts" && azg::mcts::spec_simulations(spec) > 64)
        return;  // keep each input fast
      if (spec.kind == "ab" &&
          !(spec.has("depth") && azg::mcts::spec_number(spec, "depth", 0, 1, 64) <= 2) &&
          !(spec.has("ms") && azg::mcts::spec_number(spec, "ms", 0, 1, 3.6e6) <= 20))
        return;  // keep each input fast
      auto agent = (*factory)(1);
      azg::Rng rng(1);
      G state = G::random_setup(rng);
      while (state.to_act() == azg::Player::kChance) state.apply(azg::random_action(state, rng));
      if (!state.is_terminal()) {
        azg::ActionListFor<G> legal;
        state.legal_actions(legal);
        const azg::Action a = agent->act(state);
        bool found = false;
        for (const azg::Action b : legal) found = found || a == b;
        azg::fuzz::require(found);
      }
    });
  });
  return 0;
}
