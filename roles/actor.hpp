#pragma once
// `azg actor`: self-play for a distributed run. It plays with the learner's newest weights
// (taken by version from Redis), sends each finished game to the run's stream, and pauses
// while the learner lags too far behind. The self-play worker is the one `azg train` runs.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "distributed/game_stream.hpp"
#include "roles/options.hpp"
#include "roles/redis_game_sink.hpp"
#include "trainer/selfplay.hpp"
#include "trainer/train.hpp"
#include "trainer/worker_threads.hpp"

namespace azg::roles {

// Calls use(path) with a weights blob (an exported model file) written to a private
// temporary file, which is removed afterwards, also when use() throws.
template <class Use>
void with_weights_file(const std::string& blob, const std::string& name, Use&& use) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("azg-actor-" + name + "-" + std::to_string(::getpid()) + ".pt");
  struct Remove {
    std::filesystem::path path;
    ~Remove() { std::filesystem::remove(path); }
  } remove{path};
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(blob.data(), static_cast<std::streamsize>(blob.size()));
  if (!f.flush()) throw Error("cannot write the learner's weights to " + path.string());
  f.close();
  use(path.string());
}

inline std::string default_actor_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(::getpid());
}

template <Game G>
int run_actor(trainer::TrainConfig config, ActorOptions options, std::ostream& out) {
  trainer::check_config_for_game<G>(config);
  if (options.run.empty()) throw Error("--run must name the run (the learner's --run)");
  if (options.name.empty()) options.name = default_actor_name();
  const distributed::Endpoint endpoint = distributed::parse_endpoint(options.redis);
  const distributed::RunKeys keys{options.run};
  distributed::Redis control(endpoint), games(endpoint);
  // The run's config as given, before this machine's thread count (not part of the run).
  const std::string hash = config.hash();
  distributed::check_config(control, keys, hash, "actor");
  if (options.threads > 0) config.selfplay_threads = options.threads;
  if (options.max_waiting <= 0) options.max_waiting = 64LL * config.selfplay_threads;
  distributed::WeightStore weights(control, keys);

  out << "actor " << options.name << ": run " << options.run << " on " << options.redis
      << ", config hash " << hash << '\n'
      << std::flush;
  std::optional<std::int64_t> version;
  for (bool said = false; !(version = weights.latest()); said = true) {
    if (!said)
      out << "actor " << options.name << ": waiting for the learner's first weights\n"
          << std::flush;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  std::shared_ptr<nets::InferenceModel> model;
  for (;;) {  // the version may be dropped between latest() and fetch(): ask again
    if (const auto blob = weights.fetch(*version)) {
      with_weights_file(*blob, options.name, [&](const std::string& file) {
        model = nets::InferenceModel::load(file, config.device, config.inference_precision);
      });
      model->meta().template check_game<G>("the learner's weights");
      break;
    }
    version = weights.latest();
  }
  out << "actor " << options.name << ": playing with weights version " << *version << '\n'
      << std::flush;

  nets::set_torch_threads(config.torch_threads);
  std::atomic<std::int64_t> network_step{*version};
  // An actor knows the learner's progress by the weights' version (its step), not by the
  // learner's clock: selfplay.heuristic_mix anneals by steps here.
  trainer::SelfPlayEvaluator<G> evaluator(config, model, [&config, &network_step] {
    return trainer::run_progress(config, network_step.load(), 0.0);
  });
  RedisGameSink<G> sink(games, keys, options.name, options.max_waiting);
  trainer::SelfPlayStats stats;
  std::atomic<bool> stop{false};
  Rng rng(std::hash<std::string>{}(options.name));
  std::vector<std::unique_ptr<trainer::SelfPlayWorker<G>>> workers;
  for (int t = 0; t < config.selfplay_threads; ++t)
    workers.push_back(std::make_unique<trainer::SelfPlayWorker<G>>(
        config, evaluator.get(), sink, stats, network_step, rng.next()));
  trainer::WorkerThreads threads(stop);
  for (auto& w : workers) threads.start([&stop, worker = w.get()] { worker->run(stop); });
  const auto start = std::chrono::steady_clock::now();
  auto last_report = start, last_check = start;
  try {
    while (!stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (options.games > 0 && sink.sent() >= options.games) break;
      const auto now = std::chrono::steady_clock::now();
      if (now - last_check >= std::chrono::milliseconds(500)) {
        last_check = now;
        // New weights: swapped in under the running workers (their searches finish on the old).
        const auto latest = weights.latest();
        if (latest && *latest > network_step.load()) {
          if (const auto blob = weights.fetch(*latest)) {
            with_weights_file(*blob, options.name,
                              [&](const std::string& file) { model->load_weights(file); });
            network_step = *latest;
          }
        }
      }
      if (now - last_report < std::chrono::seconds(1)) continue;
      last_report = now;
      const double seconds = std::chrono::duration<double>(now - start).count();
      out << "actor " << sink.id() << ": " << sink.sent() << " games sent (" << std::fixed
          << std::setprecision(2) << static_cast<double>(sink.sent()) / seconds
          << "/s), weights version " << network_step.load() << ", per game " << std::setprecision(0)
          << sink.mean_bytes() << " bytes, " << std::setprecision(2) << sink.mean_send_ms()
          << " ms to send\n"
          << std::flush;
    }
  } catch (...) {
    stop = true;  // the threads are joined on the way out
    throw;
  }
  threads.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "actor " << sink.id() << ": stopped after " << sink.sent() << " games in " << std::fixed
      << std::setprecision(1) << seconds << " s (" << std::setprecision(2)
      << static_cast<double>(sink.sent()) / seconds << " games/s); per game "
      << std::setprecision(0) << sink.mean_bytes() << " bytes, " << std::setprecision(2)
      << sink.mean_send_ms() << " ms to encode and send\n";
  return 0;
}

}  // namespace azg::roles
