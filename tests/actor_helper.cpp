// Stands in for the learner in tests/actor_test.sh (checks the actor alone):
//   actor_helper publish HOST:PORT RUN VERSION CONFIG.yaml [KEY=VALUE...]
//     claims the run for the config's hash and publishes an untrained network of its
//     shape as weights VERSION;
//   actor_helper check HOST:PORT RUN CONFIG.yaml [KEY=VALUE...]
//     reads every game in the run's stream, decodes each strictly, and prints
//     "GAMES games, POSITIONS positions, ACTORS actors, newest weights STEP".
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "distributed/game_stream.hpp"
#include "games/games.hpp"
#include "nets/untrained_model.hpp"
#include "trainer/game_payload.hpp"
#include "trainer/train.hpp"

int main(int argc, char** argv) {
  using namespace azg;
  try {
    if (argc < 5)
      throw Error(
          "usage: actor_helper publish|check HOST:PORT RUN [VERSION] CONFIG [KEY=VALUE...]");
    const std::string mode = argv[1];
    const distributed::Endpoint endpoint = distributed::parse_endpoint(argv[2]);
    const distributed::RunKeys keys{argv[3]};
    int next = 4;
    const std::int64_t version = mode == "publish" ? std::stoll(argv[next++]) : 0;
    const std::string config_path = argv[next++];
    const trainer::TrainConfig config = trainer::TrainConfig::resolve(
        config_path, std::vector<std::string>(argv + next, argv + argc));
    distributed::Redis redis(endpoint);
    return with_game(kGames, config.game, [&](auto type) -> int {
      using G = typename decltype(type)::type;
      if (mode == "publish") {
        distributed::check_config(redis, keys, config.hash(), "learner");
        const auto path = std::filesystem::temp_directory_path() /
                          ("azg-helper-" + std::to_string(version) + ".pt");
        nets::export_untrained_model(trainer::model_meta<G>(config),
                                     static_cast<std::uint64_t>(version) + 1, path.string());
        std::ifstream f(path, std::ios::binary);
        std::stringstream bytes;
        bytes << f.rdbuf();
        distributed::WeightStore(redis, keys).publish(version, bytes.str());
        std::filesystem::remove(path);
        std::cout << "published weights version " << version << '\n';
        return 0;
      }
      distributed::GameConsumer consumer(redis, keys, "checker");
      std::int64_t games = 0, positions = 0, newest = -1;
      std::set<std::string> actors;
      for (int empty = 0; empty < 2;) {
        const auto batch = consumer.read(100, std::chrono::milliseconds(100));
        if (batch.accepted.empty()) ++empty;
        for (const auto& m : batch.accepted) {
          const auto game = trainer::decode_game<G>(m.payload, "game " + m.id + " from " + m.actor);
          ++games;
          positions += static_cast<std::int64_t>(game.positions.size());
          newest = std::max(newest, game.network_step);
          actors.insert(m.actor);
        }
      }
      std::cout << games << " games, " << positions << " positions, " << actors.size()
                << " actors, newest weights " << newest << '\n';
      return 0;
    });
  } catch (const std::exception& e) {
    std::cerr << "actor_helper: " << e.what() << '\n';
    return 2;
  }
}
