// The search's signature, like a chess engine's bench signature: fixed-seed games between
// search agents on every seed game, hashed. A change that alters what the search or the
// rules do, on purpose or not, changes a signature; one made on purpose updates the
// constant below in the same change, saying why. Covered: PUCT with rollout leaves, a
// Gumbel root, heuristic and EPT leaves, alpha-beta, and tree reuse between moves.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "classic/agent_factory.hpp"
#include "env/imbriqua/imbriqua.hpp"
#include "env/imperator/imperator.hpp"
#include "env/intercept/intercept.hpp"
#include "env/lignes/lignes.hpp"
#include "env/truchet/truchet.hpp"

namespace azg::classic {
namespace {

// FNV-1a over the game's action strings: the same on every platform.
std::uint64_t fnv(std::uint64_t h, const std::string& text) {
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return (h ^ ' ') * 0x100000001b3ull;
}

// `decisions` decisions (chance sampled from a fixed seed) of agent `a` (player 0) against
// `b` (player 1), from the fixed-seed setup.
template <Game G>
std::uint64_t signature(const std::string& a, const std::string& b, int decisions) {
  Rng rng(2026);
  G g = G::random_setup(rng);
  auto first = (*network_free_agent_factory<G>(mcts::parse_agent_spec(a)))(11);
  auto second = (*network_free_agent_factory<G>(mcts::parse_agent_spec(b)))(12);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < decisions && !g.is_terminal(); ++i) {
    Action action = 0;
    if (g.to_act() == Player::kChance)
      action = sample_chance(g, rng);
    else
      action = (g.to_act() == Player::kP0 ? first : second)->act(g);
    h = fnv(h, g.action_to_string(action));
    first->observe(action);
    second->observe(action);
    g.apply(action);
  }
  return h;
}

template <Game G>
std::uint64_t game_signature() {
  return signature<G>("mcts:sims=64", "mcts:sims=48,gumbel=1", 24) ^
         signature<G>("mcts:sims=64,evaluator=heuristic",
                      "mcts:sims=64,evaluator=ept,playout_turns=2", 24) *
             3 ^
         signature<G>("ab:depth=2", "mcts:sims=32", 12) * 7;
}

TEST(SearchSignature, FixedSeedGamesOfEveryGameStayTheSame) {
  EXPECT_EQ(game_signature<Imbriqua>(), 13343960994250720240u);
  EXPECT_EQ(game_signature<Truchet>(), 14754258373052495725u);
  EXPECT_EQ(game_signature<Imperator>(), 4124033354114432936u);
  EXPECT_EQ(game_signature<Lignes>(), 15309901935762925147u);
  EXPECT_EQ(game_signature<Intercept>(),
            15265323606421096884u);  // 2026-11-27: the path-race evaluation
}

}  // namespace
}  // namespace azg::classic
