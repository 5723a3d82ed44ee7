// Writes an exported Imbriqua model (and model_conv.pt, the other head shapes), an input batch and
// azg's in-process outputs to DIR, for the stand-alone C++ and Python checks of the export
// (export_check, python_roundtrip).
#include <fstream>
#include <iostream>

#include "env/imbriqua/imbriqua.hpp"
#include "nets/checkpoint.hpp"
#include "nets/network.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_reference_model DIR\n";
    return 2;
  }
  using namespace azg;
  const std::string dir = argv[1];
  nets::NetConfig config;
  config.blocks = 2;
  config.channels = 8;
  const nets::ModelMeta meta = nets::meta_for<Imbriqua>(config);
  torch::jit::Module net = nets::build_network(meta.shape, config, 3);
  net.eval();
  nets::export_model(net, meta, dir + "/model.pt");
  const int b = 3;
  const auto input = torch::rand({b, Imbriqua::kPlanes.channels, 8, 8});
  const auto [policy, value] = nets::run_forward(net, input);
  auto write = [&](const std::string& name, const at::Tensor& t) {
    const auto c = t.contiguous();
    std::ofstream(dir + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(c.data_ptr<float>()),
               static_cast<std::streamsize>(c.numel() * 4));
  };
  write("input.bin", input);
  write("policy.bin", policy);
  write("value.bin", value);
  // The other shape a model takes: a convolutional policy head, a win/draw/loss value
  // head and the ownership head (the ONNX browser test converts both).
  nets::NetConfig conv = config;
  conv.policy_head = "conv";
  conv.value_head = "wdl";
  conv.ownership = true;
  nets::export_untrained_model(nets::meta_for<Imbriqua>(conv), 5, dir + "/model_conv.pt");
  std::ofstream(dir + "/shape.txt")
      << b << ' ' << Imbriqua::kPlanes.channels << " 8 8 " << Imbriqua::kPolicySize << '\n';
  return 0;
}
