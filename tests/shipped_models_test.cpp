// The shipped models (models/README.md): each loads, matches its game's current encoding
// and plays a whole legal game; the games that ship one are those listed; a model whose game's
// encoding changed, a broken card and a missing model are refused with one line.
#include "play/shipped_models.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>

#include "env/common/random_play.hpp"
#include "games/games.hpp"
#include "nets/inference.hpp"
#include "nets/untrained_model.hpp"
#include "play/agents.hpp"

namespace azg {
namespace {

namespace fs = std::filesystem;

// Plays the shipped model of G (as player 0 and 1 by turns) against random, asserting that
// each of its actions is legal where it is played.
template <Game G>
void plays_a_legal_game(std::uint64_t seed) {
  const auto factory = play::agent_factory<G>(mcts::parse_agent_spec("az:model=shipped,sims=8"));
  auto agent = factory(seed);
  Rng rng(seed);
  G state{};
  const Player az = seed % 2 ? Player::kP0 : Player::kP1;
  int turns = 0;
  while (!state.is_terminal()) {
    Action a;
    if (state.to_act() == az) {
      a = agent->act(state);
      ActionListFor<G> legal;
      state.legal_actions(legal);
      ASSERT_NE(std::find(legal.begin(), legal.end(), a), legal.end())
          << G::kName << ": the shipped model played an illegal action at turn " << turns;
    } else {
      a = random_action(state, rng);
    }
    agent->observe(a);
    state.apply(a);
    ASSERT_LT(++turns, 100000) << G::kName << ": the game does not end";
  }
}

TEST(ShippedModels, EachLoadsInItsGamesEncodingAndPlaysALegalGame) {
  std::set<std::string> shipped;
  for_each_game(kGames, [&](auto type) {
    using G = typename decltype(type)::type;
    if (!play::find_shipped_model(std::string(G::kName))) return;
    shipped.insert(std::string(G::kName));
    SCOPED_TRACE(G::kName);
    // The card's network is this game's, in this build's encoding.
    const auto spec = mcts::parse_agent_spec("az:model=shipped");
    auto model = play::load_agent_model(spec, std::string(G::kName));
    EXPECT_EQ(model->meta().game, G::kName);
    EXPECT_EQ(model->meta().encoding_version, encoding_version<G>());
    EXPECT_NO_THROW(play::check_agent_model<G>(*model, spec));
    EXPECT_LE(fs::file_size(play::shipped_model_path(std::string(G::kName))), 2u << 20)
        << "a shipped model is at most 2 MB";
    plays_a_legal_game<G>(1);
    plays_a_legal_game<G>(2);
  });
  // Every seed game ships one (Imperator's from its two-hour recipe with the pair policy
  // head; its dense default would make a 9.2 MB file); Connect Four, the reference game, none.
  EXPECT_EQ(shipped,
            (std::set<std::string>{"imbriqua", "truchet", "lignes", "intercept", "imperator"}))
      << "the shipped models are not those models/README.md lists";
}

// A folder of shipped models of the test's own making, set as $AZG_MODELS while it lives.
class ModelFolder {
 public:
  ModelFolder() : dir_(fs::temp_directory_path() / ("azg_shipped_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ::setenv("AZG_MODELS", dir_.c_str(), 1);
  }
  ~ModelFolder() {
    ::unsetenv("AZG_MODELS");
    fs::remove_all(dir_);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ShippedModels, AModelOfAnOlderEncodingIsRefusedWithWhatToDo) {
  ModelFolder folder;
  nets::NetConfig net;
  net.blocks = 1;
  net.channels = 8;
  nets::ModelMeta meta = nets::meta_for<Lignes>(net);
  meta.encoding_version += 1;  // as if the game's encoding had changed since it was trained
  nets::export_untrained_model(meta, 1, folder.path("lignes.pt"));
  folder.write("lignes.json", R"({"game": "lignes", "file": "lignes.pt"})");
  const std::string why = error_of(
      [] { play::agent_factory<Lignes>(mcts::parse_agent_spec("az:model=shipped,sims=8")); });
  EXPECT_NE(why.find("encoding version"), std::string::npos) << why;
  EXPECT_NE(why.find("out of date; retrain it"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << "one line";

  // The same model in the current encoding is accepted.
  nets::export_untrained_model(nets::meta_for<Lignes>(net), 1, folder.path("lignes.pt"));
  EXPECT_NO_THROW(play::agent_factory<Lignes>(mcts::parse_agent_spec("az:model=shipped,sims=8")));
}

TEST(ShippedModels, MissingOrBrokenCardsAreOneLineErrors) {
  ModelFolder folder;
  EXPECT_FALSE(play::find_shipped_model("lignes"));
  EXPECT_NE(error_of([] { play::agent_or_shipped("", "lignes"); }).find("give --agent"),
            std::string::npos);
  EXPECT_EQ(play::agent_or_shipped("random", "lignes").kind, "random");
  EXPECT_NE(
      error_of([] { play::shipped_model_path("lignes"); }).find("no shipped model for lignes"),
      std::string::npos);
  folder.write("lignes.json", "{not json");
  EXPECT_NE(error_of([] { play::find_shipped_model("lignes"); }).find("is not JSON"),
            std::string::npos);
  folder.write("lignes.json", R"({"game": "imbriqua", "file": "lignes.pt"})");
  EXPECT_NE(error_of([] { play::find_shipped_model("lignes"); }).find("\"game\" is lignes"),
            std::string::npos);
  folder.write("lignes.json", R"({"game": "lignes", "file": "../../etc/passwd.pt"})");
  EXPECT_NE(error_of([] { play::find_shipped_model("lignes"); }).find("\"file\": \"NAME.pt\""),
            std::string::npos);
  folder.write("lignes.json", R"({"game": "lignes", "file": "gone.pt"})");
  EXPECT_NE(error_of([] { play::find_shipped_model("lignes"); }).find("which is missing"),
            std::string::npos);
  // A model of another game behind a lignes card is refused before any game.
  nets::NetConfig net;
  net.blocks = 1;
  net.channels = 8;
  nets::export_untrained_model(nets::meta_for<Imbriqua>(net), 1, folder.path("other.pt"));
  folder.write("lignes.json", R"({"game": "lignes", "file": "other.pt"})");
  EXPECT_NE(error_of([] {
              play::agent_factory<Lignes>(mcts::parse_agent_spec("az:model=shipped"));
            }).find("is a model for imbriqua"),
            std::string::npos);
  // And a spec without a game to resolve "shipped" against says so.
  EXPECT_NE(error_of([] {
              play::load_agent_model(mcts::parse_agent_spec("az:model=shipped"));
            }).find("needs a game"),
            std::string::npos);
  ::setenv("AZG_MODELS", folder.path("absent").c_str(), 1);
  EXPECT_NE(error_of([] { play::find_shipped_model("lignes"); }).find("is not a folder"),
            std::string::npos);
}

}  // namespace
}  // namespace azg
