// The network's TorchScript source and its parameters.
#include "nets/network.hpp"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <sstream>

#include "env/common/error.hpp"

namespace azg::nets {
namespace {

// Registers a conv weight (kaiming normal) and returns nothing: names follow the source.
void add_conv(torch::jit::Module& m, const std::string& name, int out, int in, int k, at::Generator& gen) {
  const double std_dev = std::sqrt(2.0 / (in * k * k));
  m.register_parameter(name, (at::randn({out, in, k, k}, gen) * std_dev).set_requires_grad(true), false);
}

void add_bn(torch::jit::Module& m, const std::string& name, int channels) {
  m.register_parameter(name + "_w", torch::ones({channels}).set_requires_grad(true), false);
  m.register_parameter(name + "_b", torch::zeros({channels}).set_requires_grad(true), false);
  m.register_buffer(name + "_m", torch::zeros({channels}));
  m.register_buffer(name + "_v", torch::ones({channels}));
}

void add_linear(torch::jit::Module& m, const std::string& name, int out, int in, at::Generator& gen) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(in));
  m.register_parameter(name + "_w", ((at::rand({out, in}, gen) * 2 - 1) * bound).set_requires_grad(true), false);
  m.register_parameter(name + "_b", torch::zeros({out}).set_requires_grad(true), false);
}

std::string bn_call(const std::string& x, const std::string& name) {
  return "self.bn(" + x + ", self." + name + "_w, self." + name + "_b, self." + name + "_m, self." + name + "_v)";
}

}  // namespace

std::string network_source(const NetConfig& config) {
  std::ostringstream s;
  s << "def bn(self, x, w, b, m, v):\n"
       "    return torch.batch_norm(x, w, b, m, v, self.training, 0.1, 1e-5, False)\n\n"
       "def heads(self, x):\n"
       "    x = torch.relu("
    << bn_call("torch.conv2d(x, self.stem, None, 1, 1)", "stem_bn") << ")\n";
  for (int b = 0; b < config.blocks; ++b) {
    const std::string p = "b" + std::to_string(b);
    s << "    y = torch.relu(" << bn_call("torch.conv2d(x, self." + p + "_c1, None, 1, 1)", p + "_n1") << ")\n";
    if (config.global_pooling)
      s << "    y = y + torch.linear(torch.mean(y, [2, 3]), self." << p << "_g_w, self." << p
        << "_g_b).unsqueeze(2).unsqueeze(3)\n";
    s << "    y = " << bn_call("torch.conv2d(y, self." + p + "_c2, None, 1, 1)", p + "_n2") << "\n"
      << "    x = torch.relu(x + y)\n";
  }
  s << "    p = torch.relu(" << bn_call("torch.conv2d(x, self.policy_conv, None, 1, 0)", "policy_bn") << ")\n"
    << "    policy = torch.linear(torch.flatten(p, 1), self.policy_fc_w, self.policy_fc_b)\n"
    << "    v = torch.relu(" << bn_call("torch.conv2d(x, self.value_conv, None, 1, 0)", "value_bn") << ")\n"
    << "    v = torch.cat([torch.flatten(v, 1), torch.mean(x, [2, 3])], 1)\n"
    << "    v = torch.relu(torch.linear(v, self.value_fc1_w, self.value_fc1_b))\n"
    << "    v = torch.linear(v, self.value_fc2_w, self.value_fc2_b)\n";
  if (config.ownership)
    s << "    own = torch.flatten(torch.conv2d(x, self.own_conv, self.own_b, 1, 0), 1)\n"
      << "    return policy, v, own\n\n"
      << "def forward(self, x):\n"
      << "    policy, v, own = self.heads(x)\n";
  else
    s << "    return policy, v\n\n"
      << "def forward(self, x):\n"
      << "    policy, v = self.heads(x)\n";
  if (config.value_head == "wdl")
    s << "    wdl = torch.softmax(v, 1)\n"
         "    return policy, wdl[:, 0] - wdl[:, 2]\n";
  else
    s << "    return policy, torch.tanh(v[:, 0])\n";
  return s.str();
}

torch::jit::Module build_network(const NetShape& shape, const NetConfig& config, std::uint64_t seed) {
  if (config.blocks < 0 || config.blocks > 64) throw Error("net.blocks must be in 0..64");
  if (config.channels < 1 || config.channels > 1024) throw Error("net.channels must be in 1..1024");
  if (config.value_head != "tanh" && config.value_head != "wdl")
    throw Error("net.value_head must be tanh or wdl, got '" + config.value_head + "'");
  if (config.value_hidden < 1) throw Error("net.value_hidden must be positive");
  at::Generator gen = at::detail::createCPUGenerator(seed);
  const int c = config.channels, cells = shape.planes.height * shape.planes.width;
  torch::jit::Module m("AzgNet");
  m.register_attribute("training", c10::BoolType::get(), true);
  add_conv(m, "stem", c, shape.planes.channels, 3, gen);
  add_bn(m, "stem_bn", c);
  for (int b = 0; b < config.blocks; ++b) {
    const std::string p = "b" + std::to_string(b);
    add_conv(m, p + "_c1", c, c, 3, gen);
    add_bn(m, p + "_n1", c);
    if (config.global_pooling) add_linear(m, p + "_g", c, c, gen);
    add_conv(m, p + "_c2", c, c, 3, gen);
    add_bn(m, p + "_n2", c);
  }
  add_conv(m, "policy_conv", 2, c, 1, gen);
  add_bn(m, "policy_bn", 2);
  add_linear(m, "policy_fc", shape.policy_size, 2 * cells, gen);
  add_conv(m, "value_conv", 1, c, 1, gen);
  add_bn(m, "value_bn", 1);
  add_linear(m, "value_fc1", config.value_hidden, cells + c, gen);
  add_linear(m, "value_fc2", config.value_head == "wdl" ? 3 : 1, config.value_hidden, gen);
  if (config.ownership) {
    add_conv(m, "own_conv", 1, c, 1, gen);
    m.register_parameter("own_b", torch::zeros({1}).set_requires_grad(true), false);
  }
  m.define(network_source(config));
  return m;
}

std::pair<at::Tensor, at::Tensor> run_forward(torch::jit::Module& module, const at::Tensor& planes) {
  torch::NoGradGuard no_grad;
  const auto out = module.forward({planes}).toTuple();
  return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

}  // namespace azg::nets
