#include "nets/checkpoint.hpp"

#include <filesystem>

#include "core/atomic_file.hpp"
#include "nets/inference.hpp"
#include "nets/zip_integrity.hpp"

namespace azg::nets {
namespace {

constexpr const char* kFormat = "azg-checkpoint-1";

}  // namespace

void save_checkpoint(const std::string& path, Learner& learner, const ModelMeta& meta) {
  torch::serialize::OutputArchive archive;
  archive.write("format", c10::IValue(std::string(kFormat)));
  ModelMeta m = meta;
  m.step = learner.steps();
  archive.write("meta", c10::IValue(m.to_json().dump()));
  archive.write("step", c10::IValue(learner.steps()));
  for (const auto& p : learner.module().named_parameters())
    archive.write("param." + p.name, p.value, false);
  for (const auto& b : learner.module().named_buffers())
    archive.write("buffer." + b.name, b.value, true);
  torch::serialize::OutputArchive optimizer_archive;
  learner.optimizer().save(optimizer_archive);
  archive.write("optimizer", optimizer_archive);
  write_atomically(path, [&](const std::string& tmp) { archive.save_to(tmp); });
}

static torch::serialize::InputArchive open_checkpoint(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw Error("no checkpoint at " + path);
  check_zip_integrity(path);
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
    c10::IValue format;
    if (!archive.try_read("format", format) || !format.isString() ||
        format.toStringRef() != kFormat)
      throw Error(path + " is not an azg checkpoint");
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {  // c10::Error, and the std exceptions of LibTorch's parsers
    throw Error(path + " is not a readable checkpoint (corrupt or truncated)");
  }
  return archive;
}

static ModelMeta meta_of(torch::serialize::InputArchive& archive, const std::string& path) {
  c10::IValue meta;
  if (!archive.try_read("meta", meta) || !meta.isString()) throw Error(path + " has no metadata");
  try {
    return ModelMeta::from_json(nlohmann::json::parse(meta.toStringRef()), path);
  } catch (const nlohmann::json::exception&) {
    throw Error(path + " has unreadable metadata");
  }
}

ModelMeta read_checkpoint_meta(const std::string& path) {
  auto archive = open_checkpoint(path);
  return meta_of(archive, path);
}

std::unique_ptr<Learner> load_checkpoint(const std::string& path, const OptimConfig& optim,
                                         torch::Device device, ModelMeta* meta_out) {
  auto archive = open_checkpoint(path);
  const ModelMeta meta = meta_of(archive, path);
  auto learner =
      std::make_unique<Learner>(build_network(meta.shape, meta.net, 0), meta.net, optim, device);
  try {
    torch::NoGradGuard no_grad;
    for (const auto& p : learner->module().named_parameters()) {
      at::Tensor t;
      archive.read("param." + p.name, t);
      if (!t.sizes().equals(p.value.sizes()))
        throw Error(path + ": tensor " + p.name + " has the wrong shape");
      p.value.copy_(t);
    }
    for (const auto& b : learner->module().named_buffers()) {
      at::Tensor t;
      archive.read("buffer." + b.name, t, true);
      if (!t.sizes().equals(b.value.sizes()))
        throw Error(path + ": tensor " + b.name + " has the wrong shape");
      b.value.copy_(t);
    }
    torch::serialize::InputArchive optimizer_archive;
    if (archive.try_read("optimizer", optimizer_archive))
      learner->optimizer().load(optimizer_archive);
    c10::IValue step;
    archive.read("step", step);
    learner->set_steps(step.toInt());
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {  // c10::Error, and the std exceptions of LibTorch's parsers
    throw Error(path + " is a damaged checkpoint (a tensor or the optimizer state cannot be read)");
  }
  if (meta_out) *meta_out = meta;
  return learner;
}

void export_untrained_model(const ModelMeta& meta, std::uint64_t seed, const std::string& path) {
  torch::jit::Module net = build_network(meta.shape, meta.net, seed);
  net.eval();
  export_model(net, meta, path);
}

void export_model(torch::jit::Module module, const ModelMeta& meta, const std::string& path) {
  module = module.clone();
  module.eval();
  module.to(torch::kCPU);
  const torch::jit::ExtraFilesMap extra{{"meta.json", meta.to_json().dump(2)}};
  write_atomically(path, [&](const std::string& tmp) { module.save(tmp, extra); });
}

ModelMeta export_checkpoint(const std::string& checkpoint_path, const std::string& out_path) {
  ModelMeta meta;
  auto learner = load_checkpoint(checkpoint_path, OptimConfig{}, torch::kCPU, &meta);
  meta.step = learner->steps();
  export_model(learner->module(), meta, out_path);
  return meta;
}

torch::jit::Module load_exported(const std::string& path, ModelMeta& meta, torch::Device device) {
  if (!std::filesystem::is_regular_file(path)) throw Error("no model at " + path);
  check_zip_integrity(path);
  torch::jit::ExtraFilesMap extra{{"meta.json", ""}};
  torch::jit::Module module;
  try {
    module = torch::jit::load(path, device, extra);
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {  // c10::Error, and the std exceptions of LibTorch's parsers
    throw Error(path + " is not a readable TorchScript model");
  }
  if (extra["meta.json"].empty()) throw Error(path + " has no meta.json: not an azg model");
  try {
    meta = ModelMeta::from_json(nlohmann::json::parse(extra["meta.json"]), path);
  } catch (const nlohmann::json::exception&) {
    throw Error(path + ": meta.json is not valid JSON");
  }
  module.eval();
  return module;
}

}  // namespace azg::nets
