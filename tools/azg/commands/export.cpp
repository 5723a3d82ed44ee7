// `azg export`: a checkpoint's network as TorchScript with meta.json, and with --onnx an
// ONNX file beside it plus the outputs a client's runtime must reproduce; with --average the
// mean of several exported models of one network (nets/).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "nets/checkpoint.hpp"
#include "nets/inference.hpp"
#include "nets/model_average.hpp"
#include "nets/model_settings.hpp"
#include "nets/onnx_check.hpp"
#include "nets/onnx_export.hpp"
#include "tools/azg/commands/command.hpp"

namespace azg::cli {
namespace {

struct ExportArgs {
  std::string checkpoint, out, model, play_symmetry;
  std::vector<std::string> average;
  bool onnx = false;
};

int export_model(const ExportArgs& args, std::ostream& out) {
  std::string model = args.model;
  if (!args.play_symmetry.empty() && model.empty())
    throw Error("--play-symmetry rewrites an exported model: give it with --model and --out");
  if (!args.average.empty()) {
    if (!args.checkpoint.empty() || !args.model.empty())
      throw Error("give --average with --out alone, not with --checkpoint or --model");
    if (args.out.empty()) throw Error("--average needs --out (the model file to write)");
    const nets::ModelMeta meta = nets::average_models(args.average, args.out);
    out << "averaged " << args.average.size() << " " << meta.game << " models (the last at step "
        << meta.step << ") into " << args.out << '\n';
    model = args.out;
  } else if (!args.checkpoint.empty()) {
    if (!args.model.empty()) throw Error("give --checkpoint (with --out) or --model, not both");
    if (args.out.empty()) throw Error("--checkpoint needs --out (the model file to write)");
    const nets::ModelMeta meta = nets::export_checkpoint(args.checkpoint, args.out);
    out << "exported " << meta.game << " network (step " << meta.step << ") to " << args.out
        << '\n';
    model = args.out;
  } else if (model.empty()) {
    throw Error(
        "give --checkpoint C --out M.pt, --average M1.pt M2.pt... --out M.pt, or --model M.pt "
        "with --onnx or --play-symmetry");
  } else if (!args.play_symmetry.empty()) {
    if (args.out.empty())
      throw Error("--play-symmetry needs --out (the model file to write; it may be --model)");
    nets::set_play_symmetry(model, args.out, args.play_symmetry);
    out << "wrote " << args.out << ": " << model << " playing with symmetry=" << args.play_symmetry
        << " unless a spec says otherwise\n";
    model = args.out;
  } else if (!args.onnx) {
    throw Error("--model converts an exported model: add --onnx or --play-symmetry");
  }
  if (!args.onnx) return 0;
  const std::string onnx = nets::onnx_path_for(model);
  const std::string game = nets::InferenceModel::load(model)->meta().game;
  nets::export_onnx(model, onnx);
  with_game(kGames, game, [&](auto type) {
    using G = typename decltype(type)::type;
    nets::write_onnx_check<G>(model, onnx + ".check.json");
    return 0;
  });
  out << "wrote " << onnx << " (ONNX, opset 13, meta.json in its metadata) and " << onnx
      << ".check.json (LibTorch's outputs on 4 positions)\n";
  return 0;
}

}  // namespace

Command add_export(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand(
      "export", "Export a checkpoint's network as TorchScript with meta.json (and ONNX)");
  cmd->add_option("--checkpoint", args->checkpoint, "Checkpoint file");
  cmd->add_option("--out", args->out, "Output model file (.pt)");
  cmd->add_option("--model", args->model,
                  "An exported model to convert (with --onnx), instead of a checkpoint");
  cmd->add_option("--average", args->average,
                  "Exported models of one network (a run's models/step-*.pt) to average weight by "
                  "weight into --out");
  cmd->add_option("--play-symmetry", args->play_symmetry,
                  "With --model and --out: the symmetry its agents play with unless their spec "
                  "sets symmetry= (0, 1: a random one per leaf, all: the mean over every one)");
  cmd->add_flag(
      "--onnx", args->onnx,
      "Also write the network as ONNX beside the model (m.onnx, through python3-torch) and "
      "m.onnx.check.json: LibTorch's outputs on real positions, for checking a runtime");
  return {cmd, [args](const Io& io) { return export_model(*args, io.out); }};
}

}  // namespace azg::cli
