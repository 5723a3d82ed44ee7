#pragma once
// What a client's ONNX runtime must reproduce: positions from random games of the model's
// game, their input planes, and LibTorch's outputs on them (the exported model, fp32 on
// the CPU). `azg export --onnx` writes it beside the ONNX file (m.onnx.check.json); the
// browser test runs the ONNX file in onnxruntime-web and compares.
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "env/common/random_play.hpp"
#include "nets/inference.hpp"

namespace azg::nets {

template <Game G>
nlohmann::json onnx_check_data(const std::string& model_path, int positions, std::uint64_t seed) {
  auto model = InferenceModel::load(model_path, "cpu", "fp32");
  model->meta().template check_game<G>(model_path);
  Rng rng(seed);
  std::vector<G> states;
  std::vector<std::vector<std::string>> histories;
  // Each position a random number of plies into its own random game, chance included.
  while (static_cast<int>(states.size()) < positions) {
    G s = G::random_setup(rng);
    std::vector<std::string> history;
    const int plies = static_cast<int>(rng.below(60));
    for (int i = 0; i < plies && !s.is_terminal(); ++i) {
      const Action a = random_action(s, rng);
      history.push_back(s.action_to_string(a));
      s.apply(a);
    }
    if (s.is_terminal() || s.to_act() == Player::kChance) continue;
    states.push_back(s);
    histories.push_back(std::move(history));
  }
  const int n = static_cast<int>(states.size());
  const int size = G::kPlanes.size();
  std::vector<float> planes(static_cast<std::size_t>(n) * size);
  for (int i = 0; i < n; ++i)
    states[i].encode(std::span<float>(planes.data() + static_cast<std::size_t>(i) * size, size));
  std::vector<float> logits(static_cast<std::size_t>(n) * G::kPolicySize), values(n);
  model->run(planes.data(), n, logits.data(), values.data());
  nlohmann::json out = {{"game", std::string(G::kName)},
                        {"planes", {G::kPlanes.channels, G::kPlanes.height, G::kPlanes.width}},
                        {"policy_size", G::kPolicySize},
                        {"positions", nlohmann::json::array()}};
  for (int i = 0; i < n; ++i) {
    const auto at = [&](const std::vector<float>& v, int stride) {
      return std::vector<float>(v.begin() + static_cast<std::ptrdiff_t>(i) * stride,
                                v.begin() + static_cast<std::ptrdiff_t>(i + 1) * stride);
    };
    out["positions"].push_back({{"setup", states[i].setup_string()},
                                {"actions", histories[i]},
                                {"input", at(planes, size)},
                                {"policy", at(logits, G::kPolicySize)},
                                {"value", values[i]}});
  }
  return out;
}

template <Game G>
void write_onnx_check(const std::string& model_path, const std::string& out_path, int positions = 4,
                      std::uint64_t seed = 1) {
  const std::string text = onnx_check_data<G>(model_path, positions, seed).dump();
  write_atomically(out_path, [&](const std::string& tmp) {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f.flush()) throw Error("write failed");
  });
}

}  // namespace azg::nets
