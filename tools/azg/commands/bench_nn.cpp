// `azg bench nn`: the network evaluator's speed (from as many threads as self-play uses),
// a lower precision's error against float32, and with --profile where a forward's time
// goes. The measuring is library code (nets/nn_bench.hpp, nets/profile.hpp).
#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "games/games.hpp"
#include "nets/cpu_support.hpp"
#include "nets/nn_bench.hpp"
#include "nets/profile.hpp"
#include "tools/azg/commands/command.hpp"
#include "tools/azg/commands/options.hpp"

namespace azg::cli {
namespace {

struct NnBenchOptions {
  std::vector<int> batches{64};  // several: a sweep, each batch timed in turn
  double seconds = 3.0;
  int threads = 1;
  nets::NetConfig net;
  std::string model;  // an exported model instead of fresh weights
  std::string device = "cpu";
  std::string precision = "auto";
  bool profile = false;
  int positions = 1000;  // for the precision check
  int train_batch = 0;   // > 0: also training steps/s at this batch size
};

template <Game G>
int bench_nn(const NnBenchOptions& o, std::ostream& out) {
  if (o.batches.empty() ||
      std::any_of(o.batches.begin(), o.batches.end(), [](int b) { return b < 1; }) ||
      !(o.seconds > 0) || o.threads < 1 || o.positions < 1)
    throw Error("--batch, --seconds, --threads and --positions must be positive");
  const int largest = *std::max_element(o.batches.begin(), o.batches.end());
  // Like self-play (torch_threads: 1): one intra-op thread per call, threads in parallel.
  nets::set_torch_threads(1);
  const auto make = [&o](const std::string& precision) {
    if (!o.model.empty()) {
      auto m = nets::InferenceModel::load(o.model, o.device, precision);
      m->meta().template check_game<G>(o.model);
      return m;
    }
    return nets::InferenceModel::fresh(nets::meta_for<G>(o.net), 1, o.device, precision);
  };
  const auto model = make(o.precision);
  const nets::ModelMeta& meta = model->meta();
  const double flops = nets::flops_per_evaluation(meta);
  Rng rng(7);
  std::vector<G> positions;
  for (int i = 0; i < std::max(o.positions, largest * o.threads); ++i)
    positions.push_back(random_decision_position<G>(rng));

  std::string batch_list;
  for (const int b : o.batches) batch_list += (batch_list.empty() ? "" : ",") + std::to_string(b);
  out << G::kName << ": net " << meta.net.blocks << " blocks x " << meta.net.channels
      << " channels (" << std::fixed << std::setprecision(1) << flops * 1e-6
      << " MFLOP/evaluation), batch " << batch_list << ", " << o.device << ", "
      << model->precision() << ", " << o.threads << " thread(s)\n";
  double first_bare = 0;  // the first batch's: the profile's FLOP rate
  for (const int batch : o.batches) {
    // A sweep heads each batch's lines with it; tools/device_check.sh reads them so.
    if (o.batches.size() > 1) out << "-- batch " << batch << '\n';
    const double bare = model->bare_forward_rate(batch, o.seconds);
    if (first_bare == 0) first_bare = bare;
    const double wrapped = nets::evaluator_rate<G>(model, positions, batch, o.threads, o.seconds);
    out << std::setprecision(0) << "bare forward: " << bare << " evaluations/s on 1 thread ("
        << bare * flops * 1e-9 << " GFLOP/s)\n"
        << "evaluator:    " << wrapped << " evaluations/s on " << o.threads
        << " thread(s) (encode + forward + legal-action priors; the trainer's self-play evals/s)\n"
        << std::setprecision(3) << "ratio:        " << wrapped / (bare * o.threads) << " of "
        << o.threads << " x the bare forward\n";
  }
  const int batch = o.batches.front();  // for the precision check and the profile
  if (o.train_batch > 0) {
    // fastest trains in the precision the timed forward chose, as the trainer's auto does.
    const std::string train_precision = o.precision == "fastest"
                                            ? model->precision()
                                            : nets::resolve_precision(o.precision, o.device);
    out << std::setprecision(1) << "training:     "
        << nets::training_step_rate(meta, train_precision, o.train_batch, o.seconds)
        << " steps/s at batch " << o.train_batch << " (" << train_precision << ", 1 thread)";
    if (train_precision != "fp32")
      out << ", fp32: " << nets::training_step_rate(meta, "fp32", o.train_batch, o.seconds)
          << " steps/s";
    out << '\n';
  }
  if (model->precision() != "fp32") {
    const auto reference = make("fp32");
    const nets::PrecisionError e = nets::compare_evaluators<G>(reference, model, positions, batch);
    out << std::scientific << std::setprecision(1) << model->precision() << " against fp32 on "
        << e.positions << " positions from random games: policy KL mean " << e.kl_mean << " max "
        << e.kl_max << ", value error mean " << e.value_mean << " max " << e.value_max << std::fixed
        << ", same top action " << 100 * e.top_agreement << "%\n";
  }
  if (o.profile) {
    const int iterations = 50;
    const nets::ForwardProfile p = nets::profile_forward(*model, batch, iterations);
    double total = 0;
    for (const auto& op : p.operators) total += op.self_us;
    out << "\nprofile: " << iterations << " forwards of batch " << batch << ", "
        << std::setprecision(3) << p.forward_us * 1e-3 << " ms each (operators' self time "
        << total * 1e-3 << " ms)\n"
        << std::left << std::setw(36) << "operator" << std::setw(24) << "backend" << std::right
        << std::setw(10) << "ms" << std::setw(8) << "share" << std::setw(8) << "calls" << '\n';
    for (const auto& op : p.operators) {
      if (op.self_us < 0.002 * total) continue;
      out << std::left << std::setw(36) << op.name << std::setw(24) << op.backend << std::right
          << std::setprecision(3) << std::setw(10) << op.self_us * 1e-3 << std::setprecision(1)
          << std::setw(7) << 100 * op.self_us / total << "%" << std::setprecision(0) << std::setw(8)
          << op.calls << '\n';
    }
    const double fp32_peak = nets::matmul_peak_gflops("fp32", 1.0);
    const double rate = first_bare * flops * 1e-9;
    out << std::setprecision(0) << "matrix-multiply peak on 1 thread (1024 x 1024): fp32 "
        << fp32_peak << " GFLOP/s";
    if (nets::cpu_has_native_bf16())
      out << ", bf16 " << nets::matmul_peak_gflops("bf16", 1.0) << " GFLOP/s";
    out << "\nthis net's bare forward: " << rate << " GFLOP/s, " << std::setprecision(0)
        << 100 * rate / fp32_peak << "% of the fp32 peak\n";
    if (const auto core = nets::openblas_core()) {
      out << "OpenBLAS kernels: " << *core;
      if (const auto note = nets::openblas_restart_note(); !note.empty())
        out << " (" << note << ")";
      out << '\n';
    }
  }
  return 0;
}

}  // namespace

Command add_bench_nn(CLI::App& bench) {
  auto args = std::make_shared<std::pair<std::string, NnBenchOptions>>();
  auto& o = args->second;
  auto* cmd = bench.add_subcommand("nn", "Network evaluator speed and its ratio to a bare forward");
  add_game_option(cmd, args->first);
  cmd->add_option("--batch", o.batches,
                  "Batch size (default 64); several, comma-separated, time each in turn")
      ->delimiter(',');
  cmd->add_option("--seconds", o.seconds, "Seconds per measurement (default 3)");
  cmd->add_option("--blocks", o.net.blocks, "Residual blocks (default 4)");
  cmd->add_option("--channels", o.net.channels, "Channels (default 32)");
  cmd->add_option("--policy-head", o.net.policy_head,
                  nets::NetConfig::policy_head_choices() + " (default fc)")
      ->check(CLI::IsMember(std::vector<std::string>(nets::NetConfig::kPolicyHeads.begin(),
                                                     nets::NetConfig::kPolicyHeads.end())));
  cmd->add_option("--device", o.device, "cpu, cuda or auto (default cpu)");
  cmd->add_option(
      "--precision", o.precision,
      "fp32, bf16, fp16 (device cuda), auto (the default: bf16 on CPUs with native bfloat16, else "
      "fp32) or fastest "
      "(where "
      "auto says bf16, the faster of the two timed on this network, as self-play chooses)");
  cmd->add_option("--threads", o.threads,
                  "Threads evaluating at once, as in self-play (default 1)");
  cmd->add_option("--model", o.model,
                  "An exported model (default: fresh weights of --blocks x --channels)");
  cmd->add_option("--positions", o.positions, "Positions for the precision check (default 1000)");
  cmd->add_option(
      "--train-batch", o.train_batch,
      "Also measure training steps/s at this batch size (fresh weights of the same shape)");
  cmd->add_flag(
      "--profile", o.profile,
      "Time per operator and its backend, FLOPs, and the share of the matrix-multiply peak");
  return {cmd, [args](const Io& io) {
            return with_game(kGames, args->first, [&](auto type) {
              return bench_nn<typename decltype(type)::type>(args->second, io.out);
            });
          }};
}

}  // namespace azg::cli
