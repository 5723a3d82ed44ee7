#include "trainer/evaluation_gate.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "trainer/run_store.hpp"

namespace azg::trainer {

void EvaluationGate::evaluate(nets::TrainingSession& session, const nets::ModelMeta& meta,
                              RunCounters& counters, ModelMatches& matches) {
  const std::string name = "models/" + checkpoint_set_name(counters.step) + ".pt";
  const std::string model_path = dir_.path(name);
  session.export_model(model_path, meta);
  auto current =
      nets::InferenceModel::load(model_path, config_.device, config_.inference_precision);
  nlohmann::json line = {{"type", "eval"}, {"step", counters.step}, {"model", name}};
  const std::uint64_t seed = config_.seed * 31 + static_cast<std::uint64_t>(counters.step);
  const int simulations = config_.eval_search.simulations;
  if (!counters.previous_model.empty() &&
      std::filesystem::exists(dir_.path(counters.previous_model))) {
    auto previous = nets::InferenceModel::load(dir_.path(counters.previous_model), config_.device,
                                               config_.inference_precision);
    line["previous"] = counters.previous_model;
    if (config_.eval_gate == "sprt") {
      // Colour-swapped pairs of games until the SPRT decides (H0: no gain, H1: +elo1).
      play::Sprt sprt(0.0, config_.eval_sprt_elo1, 0.05, 0.05);
      const play::SprtMatch m =
          matches.sprt(current, previous, simulations, sprt, config_.eval_sprt_max_games, seed);
      line["vs_previous"] = m.score.rate();
      line["sprt_llr"] = sprt.llr();
      line["sprt_games"] = m.score.games();
      line["gate"] = m.decision == play::Sprt::Decision::kAcceptH1 ? "promoted" : "kept previous";
      if (m.decision == play::Sprt::Decision::kAcceptH1) counters.best_model = name;
    } else {
      const play::Score s = matches.match(current, previous, simulations, config_.eval_games, seed);
      line["vs_previous"] = s.rate();
      if (s.rate() >= 0.5) counters.best_model = name;
    }
  } else {
    counters.best_model = name;
  }
  const play::Score uct = matches.vs_uct(current, simulations, config_.eval_games, 1, seed + 7);
  line["vs_uct"] = uct.rate();
  line["uct_simulations"] = config_.eval_baseline_simulations;
  counters.previous_model = name;
  if (counters.best_model == name)
    std::filesystem::copy_file(model_path, dir_.path("models/best.pt"),
                               std::filesystem::copy_options::overwrite_existing);
  dir_.append_metrics(line);
  out_ << (::isatty(STDOUT_FILENO) ? "\n" : "") << "evaluation at step " << counters.step << ": "
       << line.dump() << std::endl;
}

TrainReport EvaluationGate::finish(nets::TrainingSession& session, const nets::ModelMeta& meta,
                                   std::int64_t step, double nn_share, ModelMatches& matches) {
  TrainReport r;
  r.trained = true;
  r.final_model = dir_.path("models/final.pt");
  session.export_model(r.final_model, meta);
  if (config_.eval_final_games <= 0) return r;
  out_ << "final evaluation: " << config_.eval_final_simulations
       << " simulations vs random and vs UCT (" << config_.eval_baseline_simulations
       << " rollouts), " << config_.eval_final_games << " games each\n";
  auto model =
      nets::InferenceModel::load(r.final_model, config_.device, config_.inference_precision);
  const std::uint64_t seed = config_.seed * 97 + 5;
  // Training is over: the final games use every self-play thread.
  const int threads = std::max(1, config_.selfplay_threads);
  r.vs_random = matches.vs_random(model, config_.eval_final_simulations, config_.eval_final_games,
                                  threads, seed);
  r.vs_uct = matches.vs_uct(model, config_.eval_final_simulations, config_.eval_final_games,
                            threads, seed + 1);
  dir_.append_metrics({{"type", "final"},
                       {"step", step},
                       {"model", "models/final.pt"},
                       {"simulations", config_.eval_final_simulations},
                       {"vs_random", r.vs_random.rate()},
                       {"vs_uct", r.vs_uct.rate()},
                       {"uct_simulations", config_.eval_baseline_simulations},
                       {"games", config_.eval_final_games},
                       {"nn_share_of_selfplay", nn_share}});
  return r;
}

}  // namespace azg::trainer
