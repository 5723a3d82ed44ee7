// The network's TorchScript source and its parameters.
#include "nets/network.hpp"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace azg::nets {
namespace {

// Registers a conv weight (kaiming normal) and returns nothing: names follow the source.
void add_conv(torch::jit::Module& m, const std::string& name, int out, int in, int k,
              at::Generator& gen) {
  const double std_dev = std::sqrt(2.0 / (in * k * k));
  m.register_parameter(name, (at::randn({out, in, k, k}, gen) * std_dev).set_requires_grad(true),
                       false);
}

void add_bn(torch::jit::Module& m, const std::string& name, int channels) {
  m.register_parameter(name + "_w", torch::ones({channels}).set_requires_grad(true), false);
  m.register_parameter(name + "_b", torch::zeros({channels}).set_requires_grad(true), false);
  m.register_buffer(name + "_m", torch::zeros({channels}));
  m.register_buffer(name + "_v", torch::ones({channels}));
}

void add_linear(torch::jit::Module& m, const std::string& name, int out, int in,
                at::Generator& gen) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(in));
  m.register_parameter(name + "_w",
                       ((at::rand({out, in}, gen) * 2 - 1) * bound).set_requires_grad(true), false);
  m.register_parameter(name + "_b", torch::zeros({out}).set_requires_grad(true), false);
}

// The training form's batch norm `bn` applied to the expression `x`.
std::string bn_call(const std::string& x, const std::string& bn) {
  return "self.bn(" + x + ", self." + bn + "_w, self." + bn + "_b, self." + bn + "_m, self." + bn +
         "_v)";
}

// A convolution followed by batch norm: in the training form a batch_norm call; in the
// folded inference form one biased convolution whose weights absorb the norm
// (fold_for_inference computes them).
std::string conv_bn(NetForm form, const std::string& x, const std::string& conv,
                    const std::string& bn, int pad) {
  const std::string p = std::to_string(pad);
  if (form == NetForm::kFolded)
    return "torch.conv2d(" + x + ", self." + conv + ", self." + conv + "_bias, 1, " + p + ")";
  return bn_call("torch.conv2d(" + x + ", self." + conv + ", None, 1, " + p + ")", bn);
}

// The (convolution, batch norm) pairs of the tower and heads, in network order.
struct ConvBn {
  std::string conv, bn;
};
std::vector<ConvBn> conv_bn_pairs(const NetConfig& config) {
  std::vector<ConvBn> pairs{{"stem", "stem_bn"}};
  for (int b = 0; b < config.blocks; ++b) {
    const std::string p = "b" + std::to_string(b);
    pairs.push_back({p + "_c1", p + "_n1"});
    pairs.push_back({p + "_c2", p + "_n2"});
  }
  pairs.push_back({"policy_conv", "policy_bn"});
  pairs.push_back({"value_conv", "value_bn"});
  return pairs;
}

// Parameters used unchanged by both forms (the linear layers).
std::vector<std::string> linear_names(const NetConfig& config) {
  std::vector<std::string> names;
  if (config.global_pooling)
    for (int b = 0; b < config.blocks; ++b) names.push_back("b" + std::to_string(b) + "_g");
  if (config.plane_policy()) {
    names.emplace_back("policy_out");     // 1x1 convolution to the logit planes
    names.emplace_back("policy_global");  // pooled features to the global logits
    if (config.policy_head == "pairs") {  // 1x1 convolutions to the from- and to-features
      names.emplace_back("policy_q");
      names.emplace_back("policy_k");
    }
  } else {
    names.emplace_back("policy_fc");
  }
  for (const char* n : {"value_fc1", "value_fc2"}) names.emplace_back(n);
  if (config.score_head) names.emplace_back("score_fc");
  return names;
}

// The game's constant planes and the others, as plane indices.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> split_planes(
    const NetShape& shape) {
  std::vector<bool> is_constant(static_cast<std::size_t>(shape.planes.channels), false);
  for (const int plane : shape.constant_planes) is_constant[static_cast<std::size_t>(plane)] = true;
  std::vector<std::int64_t> constant, spatial;
  for (int c = 0; c < shape.planes.channels; ++c)
    (is_constant[static_cast<std::size_t>(c)] ? constant : spatial).push_back(c);
  return {constant, spatial};
}

std::string int_list(const std::vector<std::int64_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// constant_response[k, (o, y, x)]: the stem's output at cell (y, x) of channel o for a
// plane of ones in constant plane k (border cells see fewer kernel taps). The training
// source computes the same thing in TorchScript.
at::Tensor constant_response(const at::Tensor& stem_weight, const at::Tensor& constant_index, int h,
                             int w) {
  const at::Tensor wc = stem_weight.index_select(1, constant_index);  // [O, K, 3, 3]
  const std::int64_t o = wc.size(0), k = wc.size(1);
  const at::Tensor r = torch::conv2d(torch::ones({1, 1, h, w}, wc.options()),
                                     wc.reshape({o * k, 1, 3, 3}), {}, 1, 1);
  return r.reshape({o, k, h * w}).permute({1, 0, 2}).reshape({k, o * h * w});
}

}  // namespace

std::string network_source(const NetShape& shape, const NetConfig& config, NetForm form) {
  const bool folded = form == NetForm::kFolded;
  const bool split_stem = !shape.constant_planes.empty();
  std::ostringstream s;
  if (!folded)
    s << "def bn(self, x, w, b, m, v):\n"
         "    return torch.batch_norm(x, w, b, m, v, self.training, 0.1, 1e-5, False)\n\n";
  s << "def heads(self, x):\n";
  // The folded form runs in the dtype of its weights (float32 or bfloat16).
  if (folded) s << "    x = x.to(self.stem.dtype)\n";
  if (split_stem && folded) {
    // The constant planes' share of the stem is, per output cell, a linear function of
    // their values alone: one matrix product with stem_const (fold_for_inference).
    s << "    c = torch.index_select(x, 1, self.constant_index)[:, :, 0, 0]\n"
         "    s = torch.conv2d(torch.index_select(x, 1, self.spatial_index), self.stem, "
         "self.stem_bias, 1, 1)\n"
         "    x = torch.relu(s + torch.matmul(c, self.stem_const).view(s.size()))\n";
  } else if (split_stem) {
    // The same split in training, from the one stem weight: the constant planes' response
    // is each of their kernels run over a plane of ones (constant_response), so the
    // gradient reaches the same parameter as with the plain convolution.
    const auto [constant, spatial] = split_planes(shape);
    const int o = config.channels, k = static_cast<int>(constant.size());
    const int h = shape.planes.height, w = shape.planes.width;
    s << "    ci = torch.tensor(" << int_list(constant) << ", device=x.device)\n"
      << "    si = torch.tensor(" << int_list(spatial) << ", device=x.device)\n"
      << "    c = torch.index_select(x, 1, ci)[:, :, 0, 0]\n"
      << "    ones = torch.ones([1, 1, " << h << ", " << w << "], dtype=x.dtype, device=x.device)\n"
      << "    r = torch.conv2d(ones, torch.index_select(self.stem, 1, ci).reshape(" << o * k
      << ", 1, 3, 3), None, 1, 1)\n"
      << "    r = r.reshape(" << o << ", " << k << ", " << h * w << ").permute(1, 0, 2).reshape("
      << k << ", " << o * h * w << ")\n"
      << "    s = torch.conv2d(torch.index_select(x, 1, si), torch.index_select(self.stem, 1, si), "
         "None, 1, 1)\n"
      << "    s = s + torch.matmul(c, r.to(c.dtype)).view(s.size())\n"
      << "    x = torch.relu(" << bn_call("s", "stem_bn") << ")\n";
  } else
    s << "    x = torch.relu(" << conv_bn(form, "x", "stem", "stem_bn", 1) << ")\n";
  for (int b = 0; b < config.blocks; ++b) {
    const std::string p = "b" + std::to_string(b);
    s << "    y = torch.relu(" << conv_bn(form, "x", p + "_c1", p + "_n1", 1) << ")\n";
    if (config.global_pooling)
      s << "    y = y + torch.linear(torch.mean(y, [2, 3]), self." << p << "_g_w, self." << p
        << "_g_b).unsqueeze(2).unsqueeze(3)\n";
    s << "    y = " << conv_bn(form, "y", p + "_c2", p + "_n2", 1) << "\n"
      << "    x = torch.relu(x + y)\n";
  }
  s << "    p = torch.relu(" << conv_bn(form, "x", "policy_conv", "policy_bn", 0) << ")\n";
  if (config.plane_policy()) {
    // One logit plane per move kind and the global logits side by side, then each policy
    // index picks its own (the game's policy map, held as the buffer policy_slots).
    s << "    g = torch.linear(torch.mean(p, [2, 3]), self.policy_global_w, "
         "self.policy_global_b)\n";
    if (config.policy_head == "pairs")
      // The pair term: plane t's logit at cell x gains q(x) . k(target(t)) / sqrt(c), the
      // from-cell's features against the to-cell's (attention logits, as lc0's policy
      // head); planes without a target read an appended zero column of k.
      s << "    q = torch.flatten(torch.conv2d(p, self.policy_q_w, self.policy_q_b, 1, 0), 2)\n"
        << "    k = torch.flatten(torch.conv2d(p, self.policy_k_w, self.policy_k_b, 1, 0), 2)\n"
        << "    k = torch.index_select(torch.cat([k, torch.zeros_like(k[:, :, :1])], 2), 2, "
           "self.policy_targets)\n"
        << "    pair = torch.bmm(k.transpose(1, 2), q) * " << 1.0 / std::sqrt(config.channels)
        << "\n";
    s << "    p = torch.conv2d(p, self.policy_out_w, self.policy_out_b, 1, 0)\n";
    if (config.policy_head == "pairs") s << "    p = torch.flatten(p, 2) + pair\n";
    s << "    policy = torch.cat([torch.flatten(p, 1), g], 1)\n"
      // The folded form leaves the columns as they are (logit_columns maps them): the
      // evaluator reads a few legal actions' logits and skips a gather of every index.
      << (folded ? "" : "    policy = policy[:, self.policy_slots]\n");
  } else
    s << "    policy = torch.linear(torch.flatten(p, 1), self.policy_fc_w, self.policy_fc_b)\n";
  s << "    v = torch.relu(" << conv_bn(form, "x", "value_conv", "value_bn", 0) << ")\n"
    << "    v = torch.cat([torch.flatten(v, 1), torch.mean(x, [2, 3])], 1)\n"
    << "    vh = torch.relu(torch.linear(v, self.value_fc1_w, self.value_fc1_b))\n"
    << "    v = torch.linear(vh, self.value_fc2_w, self.value_fc2_b)\n";
  // The heads' outputs: policy and value, the ownership head's (training only), the score
  // head's (both forms: the search may weigh it in).
  std::string outputs = "policy, v";
  if (config.ownership && !folded) {
    s << "    own = torch.flatten(torch.conv2d(x, self.own_conv, self.own_b, 1, 0), 1)\n";
    outputs += ", own";
  }
  if (config.score_head) {
    s << "    score = torch.linear(vh, self.score_fc_w, self.score_fc_b)\n";
    if (folded) s << "    score = score.float()\n";
    outputs += ", score";
  }
  if (folded) s << "    policy = policy.float()\n    v = v.float()\n";
  s << "    return " << outputs << "\n\n"
    << "def forward(self, x):\n"
    << "    " << outputs << " = self.heads(x)\n";
  if (config.value_head == "wdl")
    s << "    wdl = torch.softmax(v, 1)\n"
         "    value = wdl[:, 0] - wdl[:, 2]\n";
  else
    s << "    value = torch.tanh(v[:, 0])\n";
  // The exported model (training form) keeps the two-output contract; the inference
  // graph adds the score for the evaluator.
  if (folded && config.score_head)
    s << "    return policy, value, torch.tanh(score[:, 0])\n";
  else
    s << "    return policy, value\n";
  return s.str();
}

torch::jit::Module folded_network(const NetShape& shape, const NetConfig& config) {
  torch::jit::Module m("AzgFoldedNet");
  m.register_attribute("training", c10::BoolType::get(), false);
  if (!shape.constant_planes.empty()) {
    // Fixed by the shape: set once here, shared by every copy that fold_for_inference fills.
    const auto [constant, spatial] = split_planes(shape);
    m.register_buffer("constant_index", torch::tensor(constant, torch::kLong));
    m.register_buffer("spatial_index", torch::tensor(spatial, torch::kLong));
    m.register_parameter("stem_const", torch::zeros({1, 1}), false);
  }
  // Placeholders with the right names; fold_for_inference sets the real tensors.
  for (const ConvBn& p : conv_bn_pairs(config)) {
    m.register_parameter(p.conv, torch::zeros({1, 1, 1, 1}), false);
    m.register_parameter(p.conv + "_bias", torch::zeros({1}), false);
  }
  for (const std::string& n : linear_names(config)) {
    m.register_parameter(n + "_w", torch::zeros({1, 1}), false);
    m.register_parameter(n + "_b", torch::zeros({1}), false);
  }
  if (config.policy_head == "pairs")
    m.register_buffer("policy_targets", torch::zeros({shape.policy_map.planes}, torch::kLong));
  m.define(network_source(shape, config, NetForm::kFolded));
  return m;
}

void fold_for_inference(const torch::jit::Module& trained, const NetShape& shape,
                        const NetConfig& config, at::ScalarType dtype, torch::jit::Module& folded) {
  torch::NoGradGuard no_grad;
  const auto get = [&trained](const std::string& name) {
    if (!trained.hasattr(name))
      throw Error("the network has no parameter " + quote_input(name) +
                  ": not an azg network of this shape");
    // Folded on the CPU, beside the CPU-held indices, whatever device trains the net;
    // the inference model moves the result to its own device afterwards.
    return trained.attr(name).toTensor().detach().to(torch::kCPU);
  };
  const auto put = [&folded, dtype](const std::string& name, const at::Tensor& t) {
    folded.setattr(name, t.to(dtype).contiguous());
  };
  for (const ConvBn& p : conv_bn_pairs(config)) {
    // batch_norm(conv(x, W)) = conv(x, W * s) + (b - m * s), with s = w / sqrt(v + eps).
    const at::Tensor scale = get(p.bn + "_w") / torch::sqrt(get(p.bn + "_v") + 1e-5);
    const at::Tensor weight = get(p.conv) * scale.reshape({-1, 1, 1, 1});
    put(p.conv + "_bias", get(p.bn + "_b") - get(p.bn + "_m") * scale);
    if (p.conv != "stem" || shape.constant_planes.empty()) {
      put(p.conv, weight);
      continue;
    }
    // The stem split: spatial planes keep their 3x3 kernels; the constant planes become a
    // matrix product with their response to planes of ones.
    const at::Tensor constant_index = folded.attr("constant_index").toTensor();
    put("stem_const",
        constant_response(weight, constant_index, shape.planes.height, shape.planes.width));
    put("stem", weight.index_select(1, folded.attr("spatial_index").toTensor()));
  }
  for (const std::string& n : linear_names(config)) {
    put(n + "_w", get(n + "_w"));
    put(n + "_b", get(n + "_b"));
  }
  if (config.policy_head == "pairs") {
    // Indices, not weights: they keep their integer type. One per logit plane, each a
    // cell of the planes or the zero column after them.
    const at::Tensor targets = get("policy_targets").to(torch::kLong).contiguous();
    const std::int64_t cells = static_cast<std::int64_t>(shape.planes.height) * shape.planes.width;
    if (targets.dim() != 1 || targets.numel() != shape.policy_map.planes ||
        targets.min().item<std::int64_t>() < 0 || targets.max().item<std::int64_t>() > cells)
      throw Error("the network's policy_targets do not fit its logit planes");
    folded.setattr("policy_targets", targets);
  }
}

std::vector<int> logit_columns(const torch::jit::Module& trained, const NetShape& shape,
                               const NetConfig& config) {
  std::vector<int> columns(static_cast<std::size_t>(shape.policy_size));
  if (!config.plane_policy()) {
    for (int i = 0; i < shape.policy_size; ++i) columns[static_cast<std::size_t>(i)] = i;
    return columns;
  }
  if (!trained.hasattr("policy_slots"))
    throw Error("the network has no policy_slots: not an azg network of this shape");
  const at::Tensor slots = trained.attr("policy_slots").toTensor().to(torch::kCPU).contiguous();
  const int width = logit_width(shape, config);
  if (slots.numel() != shape.policy_size)
    throw Error("the network's policy_slots do not match its policy size");
  const std::int64_t* data = slots.data_ptr<std::int64_t>();
  for (int i = 0; i < shape.policy_size; ++i) {
    if (data[i] < 0 || data[i] >= width)
      throw Error("the network's policy_slots point outside its logit planes");
    columns[static_cast<std::size_t>(i)] = static_cast<int>(data[i]);
  }
  return columns;
}

int logit_width(const NetShape& shape, const NetConfig& config) {
  if (!config.plane_policy()) return shape.policy_size;
  return shape.policy_map.planes * shape.planes.height * shape.planes.width +
         std::max(shape.policy_map.globals, 1);
}

torch::jit::Module build_network(const NetShape& shape, const NetConfig& config,
                                 std::uint64_t seed) {
  if (config.blocks < 0 || config.blocks > 64) throw Error("net.blocks must be in 0..64");
  if (config.channels < 1 || config.channels > 1024) throw Error("net.channels must be in 1..1024");
  if (config.value_head != "tanh" && config.value_head != "wdl")
    throw Error("net.value_head must be tanh or wdl, got " + quote_input(config.value_head));
  if (config.value_hidden < 1) throw Error("net.value_hidden must be positive");
  if (!(config.score_utility >= 0.0 && config.score_utility <= 1.0) ||
      (config.score_utility > 0 && !config.score_head))
    throw Error("net.score_utility must be in [0, 1], and above 0 only with net.score_head");
  if (!NetConfig::known_policy_head(config.policy_head))
    throw Error("net.policy_head must be " + NetConfig::policy_head_choices() + ", got " +
                quote_input(config.policy_head));
  const PolicyMap& map = shape.policy_map;
  if (config.plane_policy() && map.planes <= 0)
    throw Error("net.policy_head=" + config.policy_head +
                " needs a game with a policy map (the five seed games); use fc");
  // A model read back from meta.json has no slots or targets; its checkpoint's buffers
  // replace the placeholders. A game's map has them; pairs needs at least one target.
  const bool from_game = static_cast<int>(map.slots.size()) == shape.policy_size;
  if (config.policy_head == "pairs" && from_game &&
      std::none_of(map.targets.begin(), map.targets.end(), [](int t) { return t >= 0; }))
    throw Error(
        "net.policy_head=pairs needs a game whose policy planes name move destinations "
        "(Imperator, Truchet); use conv");
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
  if (config.plane_policy()) {
    add_conv(m, "policy_conv", c, c, 1, gen);
    add_bn(m, "policy_bn", c);
    // Small logits at first (as the dense layer's init), so early priors are nearly flat.
    const double bound = 1.0 / std::sqrt(static_cast<double>(c));
    m.register_parameter(
        "policy_out_w",
        ((at::rand({map.planes, c, 1, 1}, gen) * 2 - 1) * bound).set_requires_grad(true), false);
    m.register_parameter("policy_out_b", torch::zeros({map.planes}).set_requires_grad(true), false);
    add_linear(m, "policy_global", std::max(map.globals, 1), c, gen);
    std::vector<std::int64_t> slots(map.slots.begin(), map.slots.end());
    m.register_buffer("policy_slots", from_game ? torch::tensor(slots, torch::kLong)
                                                : torch::zeros({shape.policy_size}, torch::kLong));
    if (config.policy_head == "pairs") {
      // Small at first, as the logit planes, so that early priors stay nearly flat.
      for (const char* name : {"policy_q", "policy_k"}) {
        m.register_parameter(
            std::string(name) + "_w",
            ((at::rand({c, c, 1, 1}, gen) * 2 - 1) * bound).set_requires_grad(true), false);
        m.register_parameter(std::string(name) + "_b", torch::zeros({c}).set_requires_grad(true),
                             false);
      }
      // Planes without a target read the zero column at index `cells`.
      std::vector<std::int64_t> targets(static_cast<std::size_t>(map.planes), cells);
      if (from_game && static_cast<int>(map.targets.size()) == map.planes)
        for (int p = 0; p < map.planes; ++p)
          if (map.targets[static_cast<std::size_t>(p)] >= 0)
            targets[static_cast<std::size_t>(p)] = map.targets[static_cast<std::size_t>(p)];
      m.register_buffer("policy_targets", torch::tensor(targets, torch::kLong));
    }
  } else {
    add_conv(m, "policy_conv", 2, c, 1, gen);
    add_bn(m, "policy_bn", 2);
    add_linear(m, "policy_fc", shape.policy_size, 2 * cells, gen);
  }
  add_conv(m, "value_conv", 1, c, 1, gen);
  add_bn(m, "value_bn", 1);
  add_linear(m, "value_fc1", config.value_hidden, cells + c, gen);
  add_linear(m, "value_fc2", config.value_head == "wdl" ? 3 : 1, config.value_hidden, gen);
  if (config.score_head) add_linear(m, "score_fc", 1, config.value_hidden, gen);
  if (config.ownership) {
    add_conv(m, "own_conv", 1, c, 1, gen);
    m.register_parameter("own_b", torch::zeros({1}).set_requires_grad(true), false);
  }
  m.define(network_source(shape, config, NetForm::kTraining));
  return m;
}

std::pair<at::Tensor, at::Tensor> run_forward(torch::jit::Module& module,
                                              const at::Tensor& planes) {
  torch::NoGradGuard no_grad;
  const auto out = module.forward({planes}).toTuple();
  return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

}  // namespace azg::nets
