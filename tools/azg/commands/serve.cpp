// `azg serve`: the web board (web/) for every game, or one, with named agents. Checks
// every agent before listening: a model that does not load, or is for a game this server
// does not play, stops it with one line.
#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "games/games.hpp"
#include "nets/inference.hpp"
#include "play/agents.hpp"
#include "play/shipped_models.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"
#include "web/api.hpp"
#include "web/server.hpp"

namespace azg::cli {
namespace {

struct ServeArgs {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string game;                 // empty: every game
  std::vector<std::string> agents;  // NAME=SPEC
  web::Limits limits;
};

// Whether an az spec names the shipped models (one agent per served game that has one).
bool names_shipped(const mcts::AgentSpec& spec) {
  return spec.kind == "az" && spec.has("model") && spec.options.at("model") == play::kShippedModel;
}

// The agents NAME=SPEC stands for: one, or with az:model=shipped one per served game with a
// shipped model, each on the network it reads here (the only time the server reads it).
std::vector<web::ServedAgent> served_agents(const std::string& item,
                                            const std::vector<std::string>& games) {
  const auto eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || item.find_first_of(" /\t,:") < eq)
    throw Error("--agent " + quote_input(item) + " must be NAME=SPEC (say az=az:model=m.pt)");
  const web::ServedAgent base{item.substr(0, eq), mcts::parse_agent_spec(item.substr(eq + 1)), "",
                              nullptr};
  if (base.name == "human")
    throw Error("--agent: 'human' names the person at the board, not an agent");
  std::vector<web::ServedAgent> agents;
  if (names_shipped(base.spec)) {
    for (const auto& game : games)
      if (play::find_shipped_model(game)) {
        web::ServedAgent a = base;
        a.game = game;
        a.model = play::load_agent_model(a.spec, game);
        agents.push_back(std::move(a));
      }
    if (agents.empty())
      throw Error("--agent " + base.name + ": no game served here has a shipped model");
  } else {
    web::ServedAgent a = base;
    if (a.spec.kind == "az" && a.spec.has("model")) {
      const std::string& path = a.spec.options.at("model");
      a.model = play::load_agent_model(a.spec);
      a.game = a.model->meta().game;
      if (std::find(games.begin(), games.end(), a.game) == games.end())
        throw Error("--agent " + a.name + ": model " + quote_input(path) + " is for " + a.game +
                    (games.size() == 1 ? ", but this server plays " + games.front()
                                       : ", a game azg does not know"));
    }
    agents.push_back(std::move(a));
  }
  // The whole spec is checked now, model included, on the game it plays (or the first one).
  for (const auto& a : agents)
    with_game(kGames, a.game.empty() ? games.front() : a.game, [&](auto type) {
      play::agent_factory<typename decltype(type)::type>(a.spec, a.model);
      return 0;
    });
  return agents;
}

// Two agents may share a name only when they play different games (the shipped ones).
void check_unique_names(const std::vector<web::ServedAgent>& agents) {
  for (std::size_t i = 0; i < agents.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (agents[i].name == agents[j].name &&
          (agents[i].game.empty() || agents[j].game.empty() || agents[i].game == agents[j].game))
        throw Error("two agents are named " + quote_input(agents[i].name));
}

int serve(const ServeArgs& args, std::ostream& out) {
  std::vector<web::GameKind> games;
  for_each_game(kGames, [&](auto type) {
    using G = typename decltype(type)::type;
    if (args.game.empty() || args.game == G::kName) games.push_back(web::game_kind<G>());
  });
  if (games.empty())
    throw Error("unknown game " + quote_input(args.game) + " (known: " + game_names(kGames) + ")");
  std::vector<std::string> served_names;
  for (const auto& g : games) served_names.push_back(g.name);
  // With no --agent: each served game's shipped model (the first choice of opponent), then
  // the UCT baseline and random.
  std::vector<std::string> defaults = {"uct=mcts:sims=800", "random=random"};
  if (!play::shipped_models(served_names).empty())
    defaults.insert(defaults.begin(), std::string("shipped=az:model=") + play::kShippedModel);
  std::vector<web::ServedAgent> agents;
  for (const auto& item : args.agents.empty() ? defaults : args.agents)
    for (auto& a : served_agents(item, served_names)) agents.push_back(std::move(a));
  check_unique_names(agents);
  if (args.limits.max_sessions < 1) throw Error("--max-sessions must be at least 1");

  // SIGINT and SIGTERM end the server from a thread of their own (a handler may not stop it).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  web::Api api(std::move(games), agents, args.limits, std::random_device{}());
  web::Server server(api);
  const int port = server.bind(args.host, args.port);
  std::string names;  // the agents of one name (the shipped ones) once, with their games
  for (std::size_t i = 0; i < agents.size(); ++i) {
    if (i > 0 && agents[i - 1].name == agents[i].name) continue;
    std::string games_of;
    for (std::size_t j = i; j < agents.size() && agents[j].name == agents[i].name; ++j)
      if (names_shipped(agents[j].spec))
        games_of += (games_of.empty() ? ": " : ", ") + agents[j].game;
    names +=
        (names.empty() ? "" : ", ") + agents[i].name + " (" + agents[i].spec.text + games_of + ")";
  }
  out << "azg serve: http://" << args.host << ":" << port << "/  agents: " << names << std::endl;
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    server.stop();
  });
  server.run();
  // Stopped by a signal: the waiter has returned. Otherwise wake it.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  out << "azg serve: stopped" << std::endl;
  return 0;
}

}  // namespace

Command add_serve(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  auto& limits = args->limits;
  auto* cmd = app.add_subcommand(
      "serve", "Serve the web board: play or watch agents in a browser (docs/web-api.md)");
  cmd->add_option("--host", args->host,
                  "Address to listen on (default 127.0.0.1: this machine only)");
  cmd->add_option("--port", args->port, "Port (default 8080; 0: any free port)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--game,-g", args->game, "Serve this game only (default: every game)");
  cmd->add_option("--agent", args->agents,
                  "NAME=SPEC (repeatable; specs below): an agent the board offers; default "
                  "uct=mcts:sims=800 and "
                  "random=random");
  cmd->add_option(
      "--max-sessions", limits.max_sessions,
      "Games kept open; beyond it the least recently used idle one closes (default 32)");
  cmd->add_option("--max-sims", limits.max_simulations,
                  "Most simulations one request may ask for (default 100000)")
      ->check(CLI::Range(1, 20000000));
  cmd->add_option("--max-seconds", limits.max_seconds,
                  "Most seconds one search may take (default 30)")
      ->check(CLI::Range(0.001, 86400.0));
  cmd->add_option("--sims", limits.default_simulations,
                  "Simulations when neither the request nor the agent's spec says (default 400)")
      ->check(CLI::Range(1, 20000000));
  add_agent_help(cmd);
  return {cmd, [args](const Io& io) { return serve(*args, io.out); }};
}

}  // namespace azg::cli
