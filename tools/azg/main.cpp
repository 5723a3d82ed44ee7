// azg: the command-line entry point. Thin: it parses arguments with CLI11 and calls the
// library code; every bad input ends as one line on stderr and exit status 2.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "env/common/error.hpp"
#include "mcts/search_options.hpp"
#include "nets/allocator.hpp"
#include "nets/cpu_support.hpp"
#include "nets/inference.hpp"
#include "tools/azg/game_commands.hpp"
#include "tools/azg/actor_command.hpp"
#include "tools/azg/arena_commands.hpp"
#include "tools/azg/export_command.hpp"
#include "tools/azg/games.hpp"
#include "tools/azg/ladder_commands.hpp"
#include "tools/azg/registry.hpp"
#include "tools/azg/nn_bench_command.hpp"
#include "tools/azg/protocol_commands.hpp"
#include "tools/azg/records_command.hpp"
#include "tools/azg/search_commands.hpp"
#include "tools/azg/serve_command.hpp"
#include "tools/azg/train_command.hpp"
#include "trainer/config.hpp"

namespace {

constexpr int kUsageError = 2;

void add_game_option(CLI::App* cmd, std::string& game) {
  cmd->add_option("--game,-g", game, "Game: " + azg::game_names(azg::kGames))->required();
}

void add_position_options(CLI::App* cmd, azg::PositionArgs& pos) {
  cmd->add_option("--setup", pos.setup,
                  "Game-specific setup (Truchet: 49 tile bits a1..g7); default: the game's "
                  "standard start, or a random one drawn from --seed")
      ->each([&pos](const std::string&) { pos.setup_given = true; });
  cmd->add_option("--moves", pos.moves,
                  "Action strings replayed from the start, separated by spaces");
  cmd->add_option("--seed", pos.seed, "Seed for a random setup (games that have one)");
}

// What every process of a distributed run gives alike (the config hash covers the last two).
void add_run_options(CLI::App* cmd, std::string& redis, std::string& run, std::string& config,
                     std::vector<std::string>& overrides) {
  cmd->add_option("--redis", redis, "Redis HOST:PORT (password in AZG_REDIS_PASSWORD)")->required();
  cmd->add_option("--run", run, "The run's name: the same for the learner and its actors")->required();
  cmd->add_option("--config", config, "The run's YAML config: the same in every process")->required();
  cmd->add_option("--set", overrides, "KEY=VALUE overrides: the same in every process");
}

// What every --agent takes, from the one declaration of the search options.
std::string agent_spec_help() {
  return "Agent specs: random | mcts[:KEY=VALUE,...] (the UCT baseline: random-rollout values; also "
         "evaluator=rollout|uniform|heuristic|ept: heuristic scores leaves by the game's static evaluation, ept by a "
         "random playout cut after playout_turns=K turns (default 4; decisive=0 leaves out taking wins at once)) | "
         "ab:depth=D|ms=T (alpha-beta on the static evaluation: D decisions deep, or deepening for T ms a decision) | "
         "az:model=PATH[,KEY=VALUE,...] (a trained network; also device=cpu|cuda|auto, "
         "precision=fp32|bf16|auto|fastest, symmetry=0|1, rollout_mix=L, heuristic_mix=H, score_utility=U).\nSearch keys (defaults of the uct and az "
         "presets):\n" +
         azg::mcts::search_options_help();
}

}  // namespace

int main(int argc, char** argv) {
  // azg parallelises over games and searches; BLAS threads inside each call would only
  // compete with them (`azg train` sets torch_threads for both).
  azg::nets::set_blas_threads(1);
  azg::nets::reexec_for_blas_kernels(argv);
  // Tensor-sized blocks stay with the process between forwards (nets/allocator.hpp).
  azg::nets::keep_freed_memory_for_reuse();
  CLI::App app{
      "azg: AlphaZero-style self-play training for five board games.\n"
      "Games: " + azg::game_names(azg::kGames)};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");

  std::string game;
  azg::PositionArgs pos;

  auto* games = app.add_subcommand("games", "List the games");

  auto* legal = app.add_subcommand("legal", "Print the legal actions, one per line");
  bool with_probabilities = false;
  add_game_option(legal, game);
  add_position_options(legal, pos);
  legal->add_flag("--probabilities", with_probabilities,
                  "At a chance node, print each outcome's probability after it");

  auto* perft = app.add_subcommand("perft", "Count action sequences of a given length");
  int depth = 1;
  bool divide = false;
  add_game_option(perft, game);
  add_position_options(perft, pos);
  perft->add_option("--depth,-d", depth, "Depth (actions)")->required();
  perft->add_flag("--divide", divide, "Print the count below each legal action first");

  auto* show = app.add_subcommand("show", "Print the position as text: board, who acts, phase");
  add_game_option(show, game);
  add_position_options(show, pos);

  auto* play_random = app.add_subcommand("play-random", "Play random games and print records");
  int count = 1;
  add_game_option(play_random, game);
  add_position_options(play_random, pos);
  play_random->add_option("--count,-n", count, "Number of games (game i uses seed + i)");

  auto* records = app.add_subcommand(
      "records", "Read game records back (games/*.jsonl, arena games.jsonl) and replay every game strictly");
  std::vector<std::string> record_files;
  add_game_option(records, game);
  records->add_option("files", record_files, "JSON-lines record files")->required();

  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  auto* bench_env = bench->add_subcommand("env", "Random playouts on one thread: games/s, actions/s");
  double seconds = 3.0;
  add_game_option(bench_env, game);
  bench_env->add_option("--seconds", seconds, "How long to run (default 3)");
  bench_env->add_option("--seed", pos.seed, "Seed");

  auto* play_agents = app.add_subcommand("play-agents", "Play two agents against each other, alternating colours");
  std::vector<std::string> agent_specs;
  int match_games = 2, match_threads = 1;
  std::uint64_t match_seed = 1;
  add_game_option(play_agents, game);
  play_agents->add_option("--agents", agent_specs,
                          "Two agent specs: random | mcts[:sims=N,cpuct=C,batch=B,evaluator=rollout|uniform|heuristic|ept] | "
                          "ab:depth=D|ms=T | az:model=PATH[,sims=N,gumbel=1,batch=B,device=cpu|cuda|auto,symmetry=1]")
      ->required()
      ->expected(2);
  play_agents->add_option("--games", match_games, "Number of games (colours alternate; default 2)");
  play_agents->add_option("--seed", match_seed, "Seed (agents and chance)");
  play_agents->add_option("--threads", match_threads, "Games played at once (default 1)");

  auto* bench_mcts = bench->add_subcommand("mcts", "Search speed: simulations/s and nodes");
  azg::MctsBenchOptions mcts_bench;
  add_game_option(bench_mcts, game);
  bench_mcts->add_option("--evaluator", mcts_bench.evaluator, "uniform (default) or rollout");
  bench_mcts->add_option("--sims", mcts_bench.simulations, "Simulations per search (default 800)");
  bench_mcts->add_option("--threads", mcts_bench.threads, "Worker threads (default 1)");
  bench_mcts->add_option("--searches", mcts_bench.searches_per_thread, "Concurrent searches per thread (default 16)");
  bench_mcts->add_option("--batch", mcts_bench.batch, "Leaves per evaluator call (default 64)");
  bench_mcts->add_option("--seconds", mcts_bench.seconds, "How long to run (default 3)");
  bench_mcts->add_option("--seed", mcts_bench.seed, "Seed");

  auto* bench_agent = bench->add_subcommand("agent", "Milliseconds per decision of an agent (a ladder rung's cost)");
  std::string bench_agent_spec;
  int bench_agent_moves = 40;
  add_game_option(bench_agent, game);
  bench_agent->add_option("--agent", bench_agent_spec, "An agent spec, as arena takes it (mcts:sims=400, ab:depth=3, ...)")
      ->required();
  bench_agent->add_option("--moves", bench_agent_moves, "Decisions timed, each at a position from a random game (default 40)")
      ->check(CLI::Range(1, 100000));
  bench_agent->add_option("--seed", pos.seed, "Seed");

  auto* bench_nn = bench->add_subcommand("nn", "Network evaluator speed and its ratio to a bare forward");
  azg::NnBenchOptions nn_bench;
  add_game_option(bench_nn, game);
  bench_nn->add_option("--batch", nn_bench.batch, "Batch size (default 64)");
  bench_nn->add_option("--seconds", nn_bench.seconds, "Seconds per measurement (default 3)");
  bench_nn->add_option("--blocks", nn_bench.net.blocks, "Residual blocks (default 4)");
  bench_nn->add_option("--channels", nn_bench.net.channels, "Channels (default 32)");
  bench_nn->add_option("--policy-head", nn_bench.net.policy_head, "fc or conv (default fc)")
      ->check(CLI::IsMember({"fc", "conv"}));
  bench_nn->add_option("--device", nn_bench.device, "cpu, cuda or auto (default cpu)");
  bench_nn->add_option("--precision", nn_bench.precision,
                       "fp32, bf16, auto (the default: bf16 on CPUs with native bfloat16, else fp32) or fastest (where "
                       "auto says bf16, the faster of the two timed on this network, as self-play chooses)");
  bench_nn->add_option("--threads", nn_bench.threads, "Threads evaluating at once, as in self-play (default 1)");
  bench_nn->add_option("--model", nn_bench.model, "An exported model (default: fresh weights of --blocks x --channels)");
  bench_nn->add_option("--positions", nn_bench.positions, "Positions for the precision check (default 1000)");
  bench_nn->add_option("--train-batch", nn_bench.train_batch,
                       "Also measure training steps/s at this batch size (fresh weights of the same shape)");
  bench_nn->add_flag("--profile", nn_bench.profile,
                     "Time per operator and its backend, FLOPs, and the share of the matrix-multiply peak");

  auto* export_cmd = app.add_subcommand("export", "Export a checkpoint's network as TorchScript with meta.json (and ONNX)");
  azg::ExportArgs export_args;
  export_cmd->add_option("--checkpoint", export_args.checkpoint, "Checkpoint file");
  export_cmd->add_option("--out", export_args.out, "Output model file (.pt)");
  export_cmd->add_option("--model", export_args.model, "An exported model to convert (with --onnx), instead of a checkpoint");
  export_cmd->add_flag("--onnx", export_args.onnx,
                       "Also write the network as ONNX beside the model (m.onnx, through python3-torch) and "
                       "m.onnx.check.json: LibTorch's outputs on real positions, for checking a runtime");

  auto* train = app.add_subcommand("train", "Train a network by self-play (resumes a killed run)");
  azg::TrainArgs train_args;
  bool help_config = false;
  train->add_option("--config,-c", train_args.config_path, "YAML config (configs/<game>.yaml)");
  train->add_option("--run-dir", train_args.run_dir, "Run directory (default runs/<game>)");
  train->add_option("--set", train_args.overrides, "Override a config key: KEY=VALUE (repeatable)");
  train->add_flag("--print-config", train_args.print_config, "Print the resolved config and exit");
  train->add_flag("--help-config", help_config, "Print every config key with its default and help");

  auto* arena = app.add_subcommand("arena", "Play agents against each other and rate them (Elo, 95% intervals)");
  std::vector<std::string> arena_agents;
  int arena_games = 10, arena_threads = 1, arena_opening_plies = 0;
  std::uint64_t arena_seed = 1;
  std::string arena_format = "round-robin", arena_anchor, arena_out;
  add_game_option(arena, game);
  arena->add_option("--agent", arena_agents,
                    "NAME=SPEC (repeatable): random | mcts:sims=N | az:model=PATH,sims=N[,gumbel=1] | "
                    "run:dir=RUN_DIR[,sims=N] (every models/step-*.pt of a run)")
      ->required();
  arena->add_option("--games", arena_games, "Games per pair of agents (rounded up to even; default 10)");
  arena->add_option("--format", arena_format, "round-robin (default) or gauntlet (the first agent against each other)");
  arena->add_option("--threads", arena_threads, "Games played at once (default 1)");
  arena->add_option("--seed", arena_seed, "Seed (agents and chance)");
  arena->add_option("--anchor", arena_anchor, "Agent rated 0 (default: the first)");
  arena->add_option("--opening-plies", arena_opening_plies,
                    "Random decisions shared by each colour-swapped pair of games before the agents play (default 0; "
                    "deterministic agents in a game without chance otherwise replay one pair of games)")
      ->check(CLI::Range(0, 100));  // the bounds of eval.opening_plies
  arena->add_option("--out", arena_out, "Folder for ratings.json/.csv/.svg, pairwise.csv and games.jsonl");

  auto* sprt = app.add_subcommand("sprt", "Sequential probability ratio test: is the first agent elo1 better?");
  std::vector<std::string> sprt_agents;
  double elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05;
  int sprt_max = 2000, sprt_threads = 1;
  std::uint64_t sprt_seed = 1;
  add_game_option(sprt, game);
  sprt->add_option("--agent", sprt_agents, "NAME=SPEC, twice: the tested agent, then the reference")->required();
  sprt->add_option("--elo0", elo0, "Elo difference under H0 (default 0)");
  sprt->add_option("--elo1", elo1, "Elo difference under H1 (default 20)");
  sprt->add_option("--alpha", alpha, "False positive rate (default 0.05)");
  sprt->add_option("--beta", beta, "False negative rate (default 0.05)");
  sprt->add_option("--max-games", sprt_max, "Stop without a decision after this many games (default 2000)");
  sprt->add_option("--threads", sprt_threads, "Games played at once (default 1)");
  sprt->add_option("--seed", sprt_seed, "Seed");

  auto* ladder = app.add_subcommand("ladder", "Rate agents on the UCT ladder: Elo with UCT-400 = 0, the same scale for every game");
  azg::LadderArgs ladder_args;
  add_game_option(ladder, game);
  ladder->add_option("--agent", ladder_args.agents,
                     "SPEC or NAME=SPEC (repeatable): random | mcts:sims=N | az:model=PATH[,sims=N,...]; none: the "
                     "rungs alone");
  ladder->add_option("--rungs", ladder_args.rungs,
                     "Rungs by family, in order of strength: uct:N,... heur:N,... (MCTS on the static evaluation) "
                     "ept:N,... (MCTS on playouts cut after 4 turns) ab:D,... (alpha-beta, D decisions deep) "
                     "model:NAME[@SIMS],... (models/ladder/NAME.pt, 100 simulations); a plain list is UCT; UCT-400 "
                     "among them (default: the game's ladder, docs/ladder.md)");
  ladder->add_option("--opening-plies", ladder_args.opening_plies,
                     "Random decisions opening each colour-swapped couple (default: the game's, 4 without chance)")
      ->check(CLI::Range(0, 100));
  ladder->add_flag("--round-robin", ladder_args.round_robin,
                   "Rungs play every other rung, not only their neighbours (the tables of docs/ladder.md)");
  ladder->add_option("--games", ladder_args.games, "Paired games per pairing (rounded up to even; default 100)");
  ladder->add_option("--threads", ladder_args.threads, "Games played at once (default 1)");
  ladder->add_option("--seed", ladder_args.seed, "Seed of setups and chance (default 1)");
  ladder->add_option("--out", ladder_args.out, "Folder for ladder.json, ladder.csv and ladder.svg");
  ladder->add_option("--calibration", ladder_args.calibration,
                     "File keeping rung-against-rung results (default ~/.cache/azg/ladder-GAME.json)");

  auto* report = app.add_subcommand("report", "Elo of a run's successive models: against each other, or on the UCT ladder (--ladder)");
  std::string report_dir;
  int report_games = 6, report_sims = 32, report_threads = 1, report_models = 6;
  bool report_ladder = false;
  report->add_option("--run-dir", report_dir, "Run directory")->required();
  report->add_option("--games", report_games, "Games per pair of models, or per model and rung with --ladder (default 6; 40 with --ladder)");
  report->add_option("--sims", report_sims, "Simulations per move (default 32; 100 with --ladder)");
  report->add_option("--threads", report_threads, "Games played at once (default 1)");
  report->add_flag("--ladder", report_ladder,
                   "Rate the models on the UCT ladder; writes ladder-curve.svg/.csv (Elo against training minutes)");
  report->add_option("--models", report_models, "With --ladder: at most this many models, evenly spaced (default 6)");
  report->add_option("--rungs", ladder_args.rungs, "With --ladder: the rungs, as azg ladder takes them (default: the game's ladder)");
  report->add_option("--seed", ladder_args.seed, "With --ladder: seed of setups and chance (default 1)");
  report->add_option("--out", ladder_args.out, "With --ladder: output folder (default the run directory)");

  auto* actor = app.add_subcommand("actor", "Self-play for a distributed run: games to the learners through Redis");
  azg::ActorArgs actor_args;
  add_run_options(actor, actor_args.options.redis, actor_args.options.run, actor_args.config_path, actor_args.overrides);
  actor->add_option("--threads", actor_args.options.threads, "Self-play threads (default: selfplay.threads)")
      ->check(CLI::Range(1, 1024));
  actor->add_option("--name", actor_args.options.name, "This actor's name in the stream (default HOST-PID)");
  actor->add_option("--games", actor_args.options.games, "Stop once at least this many games are sent (default: never)")
      ->check(CLI::Range(0, 1000000000));
  actor->add_option("--max-waiting", actor_args.options.max_waiting,
                    "Pause while more games than this wait for the learner (default 64 per thread)")
      ->check(CLI::Range(0, 1000000000));

  auto* learner = app.add_subcommand("learner", "Training for a distributed run: games from actors through Redis");
  azg::LearnerArgs learner_args;
  add_run_options(learner, learner_args.options.redis, learner_args.options.run, learner_args.config_path,
                  learner_args.overrides);
  learner->add_option("--run-dir", learner_args.options.run_dir, "Run directory (default runs/RUN); rank k > 0 keeps its shard in RUN_DIR/rank-k");
  learner->add_option("--name", learner_args.options.name,
                      "Its consumer name in the stream; keep it across restarts (default learner)");
  learner->add_option("--learners", learner_args.options.learners,
                      "Data-parallel learner processes (torch.distributed Gloo); train.batch_size is per learner")
      ->check(CLI::Range(1, 256));
  learner->add_option("--rank", learner_args.options.rank,
                      "This process's rank in 0..N-1 (default: rank 0, which starts the others on this machine)");
  learner->add_option("--rendezvous", learner_args.options.rendezvous,
                      "HOST:PORT of rank 0's TCPStore, where the learners meet (default 127.0.0.1:29500)");
  learner->add_option("--bind", learner_args.options.bind,
                      "The address the other learners reach this one at (default: 127.0.0.1 for a loopback "
                      "rendezvous, else this host's name)");
  learner->add_option("--group-timeout", learner_args.options.group_timeout_s,
                      "Seconds a learner waits for a silent one (rank 0's evaluations pause the others; default 1800)")
      ->check(CLI::Range(1, 86400));

  auto* serve = app.add_subcommand("serve", "Serve the web board: play or watch agents in a browser (docs/web-api.md)");
  azg::ServeArgs serve_args;
  serve->add_option("--host", serve_args.host, "Address to listen on (default 127.0.0.1: this machine only)");
  serve->add_option("--port", serve_args.port, "Port (default 8080; 0: any free port)")->check(CLI::Range(0, 65535));
  serve->add_option("--game,-g", serve_args.game, "Serve this game only (default: every game)");
  serve->add_option("--agent", serve_args.agents,
                    "NAME=SPEC (repeatable): an agent the board offers; default uct=mcts:sims=800 and random=random");
  serve->add_option("--max-sessions", serve_args.limits.max_sessions,
                    "Games kept open; beyond it the least recently used idle one closes (default 32)");
  serve->add_option("--max-sims", serve_args.limits.max_simulations,
                    "Most simulations one request may ask for (default 100000)")->check(CLI::Range(1, 20000000));
  serve->add_option("--max-seconds", serve_args.limits.max_seconds,
                    "Most seconds one search may take (default 30)")->check(CLI::Range(0.001, 86400.0));
  serve->add_option("--sims", serve_args.limits.default_simulations,
                    "Simulations when neither the request nor the agent's spec says (default 400)")->check(CLI::Range(1, 20000000));

  auto* engine = app.add_subcommand("engine", "Speak the engine protocol on stdin/stdout (docs/protocol.md)");
  std::string engine_agent;
  add_game_option(engine, game);
  engine->add_option("--agent", engine_agent, "The agent that thinks: mcts:sims=N | az:model=PATH,sims=N | random")
      ->required();

  auto* analysis = app.add_subcommand("analysis", "Analyse positions: JSON queries in, JSON lines out (docs/protocol.md)");
  add_game_option(analysis, game);
  analysis->add_option("--agent", engine_agent, "The agent that analyses: mcts:sims=N | az:model=PATH,sims=N")
      ->required();

  auto* match = app.add_subcommand("match", "Referee: play engine processes against each other over the protocol");
  azg::MatchArgs match_args;
  add_game_option(match, game);
  match->add_option("--engine", match_args.engines, "[NAME=]COMMAND (repeatable): an engine process, run with /bin/sh -c")
      ->required();
  match->add_option("--games", match_args.options.games, "Games per pair of engines (rounded up to even; default 10)");
  match->add_option("--concurrency", match_args.options.concurrency, "Games at once, each with its own processes (default 1)");
  match->add_option("--seed", match_args.options.seed, "Seed of setups, chance and the engines' Seed option (default 1)");
  match->add_option("--sims", match_args.options.simulations, "Simulations per move (go sims N; default: the engine's own)");
  match->add_option("--movetime", match_args.options.movetime_ms, "Milliseconds per move (go movetime MS)");
  match->add_option("--timeout", match_args.options.timeout_ms,
                    "A move's limit in ms before the engine loses (default movetime + 5000, else 60000)");
  match->add_option("--format", match_args.format, "round-robin (default) or gauntlet");
  match->add_option("--anchor", match_args.anchor, "Engine rated 0 (default: the first)");
  match->add_option("--out", match_args.out_dir, "Folder for ratings.json/.csv/.svg, pairwise.csv and games.jsonl");

  for (CLI::App* cmd : {arena, sprt, ladder, play_agents, engine, analysis, serve}) cmd->footer(agent_spec_help());

  // Every subcommand is declared above this line: an unknown first word is reported as
  // such rather than as CLI11's "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const auto known = app.get_subcommands([&](CLI::App* cmd) { return cmd->get_name() == argv[1]; });
    if (known.empty()) {
      std::cerr << "azg: error: unknown command '" << argv[1] << "' (see azg --help)\n";
      return kUsageError;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (const auto nl = message.find('\n'); nl != std::string::npos) message.resize(nl);
    std::cerr << "azg: error: " << message << " (see azg --help)\n";
    return kUsageError;
  }

  try {
    auto& out = std::cout;
    if (*train) {
      if (help_config) {
        out << azg::trainer::config_reference();
        return 0;
      }
      return azg::cmd_train(train_args, out);
    }
    if (*report) {
      azg::trainer::TrainConfig run_config = azg::trainer::TrainConfig::defaults();
      run_config.load_yaml(report_dir + "/config.yaml");
      return azg::with_game(azg::kGames, run_config.game, [&](auto type) -> int {
        using G = typename decltype(type)::type;
        if (report_ladder) {
          ladder_args.games = report->count("--games") ? report_games : 40;
          ladder_args.threads = report_threads;
          return azg::cmd_report_ladder<G>(report_dir, ladder_args, report->count("--sims") ? report_sims : 100,
                                           report_models, out);
        }
        return azg::cmd_report<G>(report_dir, report_games, report_sims, report_threads, 1, out);
      });
    }
    if (*export_cmd) return azg::cmd_export(export_args, out);
    if (*serve) return azg::cmd_serve(serve_args, out);
    if (*actor) return azg::cmd_actor(actor_args, out);
    if (*learner) {
      learner_args.options.relaunch.assign(argv, argv + argc);
      return azg::cmd_learner(learner_args, out);
    }
    if (*games) {
      azg::for_each_game(azg::kGames, [&](auto type) {
        using G = typename decltype(type)::type;
        out << G::kName << '\n';
      });
      return 0;
    }
    return azg::with_game(azg::kGames, game, [&](auto type) -> int {
      using G = typename decltype(type)::type;
      if (*legal) return azg::cmd_legal<G>(pos, with_probabilities, out);
      if (*perft) return azg::cmd_perft<G>(pos, depth, divide, out);
      if (*show) return azg::cmd_show<G>(pos, out);
      if (*play_random) return azg::cmd_play_random<G>(pos, count, out);
      if (*records) return azg::cmd_records<G>(record_files, out);
      if (*bench_env) return azg::cmd_bench_env<G>(seconds, pos.seed, out);
      if (*bench_mcts) return azg::cmd_bench_mcts<G>(mcts_bench, out);
      if (*bench_nn) return azg::cmd_bench_nn<G>(nn_bench, out);
      if (*bench_agent) return azg::cmd_bench_agent<G>(bench_agent_spec, bench_agent_moves, pos.seed, out);
      if (*arena)
        return azg::cmd_arena<G>(arena_agents, arena_games, arena_format, arena_threads, arena_seed, arena_anchor,
                                 arena_out, out, arena_opening_plies);
      if (*ladder) return azg::cmd_ladder<G>(ladder_args, out);
      if (*sprt) return azg::cmd_sprt<G>(sprt_agents, elo0, elo1, alpha, beta, sprt_max, sprt_threads, sprt_seed, out);
      if (*play_agents) return azg::cmd_play_agents<G>(agent_specs, match_games, match_seed, match_threads, out);
      if (*engine) return azg::cmd_engine<G>(engine_agent, std::cin, out);
      if (*analysis) return azg::cmd_analysis<G>(engine_agent, std::cin, out);
      if (*match) return azg::cmd_match<G>(match_args, out);
      return kUsageError;
    });
  } catch (const azg::Error& e) {
    std::cerr << "azg: error: " << e.what() << '\n';
    return kUsageError;
  } catch (const std::exception& e) {
    std::cerr << "azg: internal error: " << e.what() << '\n';
    return 1;
  }
}
