#include "nets/model_settings.hpp"

#include <torch/script.h>

#include "nets/checkpoint.hpp"

namespace azg::nets {

ModelMeta set_play_symmetry(const std::string& in_path, const std::string& out_path,
                            const std::string& symmetry) {
  const auto setting = PlaySymmetry::from_name(symmetry);
  if (!setting)
    throw Error(std::string("the play symmetry must be ") + PlaySymmetry::kChoices + ", got " +
                quote_input(symmetry));
  ModelMeta meta;
  torch::jit::Module module = load_exported(in_path, meta, torch::kCPU);
  meta.net.set_play_symmetry(*setting);
  export_model(module, meta, out_path);
  return meta;
}

}  // namespace azg::nets
