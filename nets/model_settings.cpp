#include "nets/model_settings.hpp"

#include <torch/script.h>

#include "nets/checkpoint.hpp"

namespace azg::nets {

ModelMeta set_play_symmetry(const std::string& in_path, const std::string& out_path,
                            const std::string& symmetry) {
  if (symmetry != "0" && symmetry != "1" && symmetry != "all")
    throw Error("the play symmetry must be 0, 1 or all, got " + quote_input(symmetry));
  ModelMeta meta;
  torch::jit::Module module = load_exported(in_path, meta, torch::kCPU);
  meta.net.play_symmetry = symmetry == "1";
  meta.net.play_symmetry_mean = symmetry == "all";
  export_model(module, meta, out_path);
  return meta;
}

}  // namespace azg::nets
