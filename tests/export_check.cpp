// A minimal program that uses an exported azg model with LibTorch alone (it does not link
// azg): loads model.pt with its meta.json, runs forward on input.bin and compares with the
// outputs azg computed in-process. Usage: export_check DIR. Exit 0 when they match.
#include <torch/script.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <vector>

static std::vector<float> read_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<float> v;
  float x;
  while (in.read(reinterpret_cast<char*>(&x), sizeof x)) v.push_back(x);
  return v;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: export_check DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  torch::jit::ExtraFilesMap extra{{"meta.json", ""}};
  torch::jit::Module model = torch::jit::load(dir + "/model.pt", torch::kCPU, extra);
  if (extra["meta.json"].find("\"game\"") == std::string::npos) {
    std::cerr << "meta.json missing or without a game\n";
    return 1;
  }
  std::ifstream shape_in(dir + "/shape.txt");
  int64_t b, c, h, w, a;
  shape_in >> b >> c >> h >> w >> a;
  std::vector<float> input = read_floats(dir + "/input.bin");
  const auto planes = torch::from_blob(input.data(), {b, c, h, w}, torch::kFloat32);
  torch::NoGradGuard no_grad;
  const auto out = model.forward({planes}).toTuple();
  const auto policy = out->elements()[0].toTensor().contiguous();
  const auto value = out->elements()[1].toTensor().contiguous();
  const auto expected_policy = read_floats(dir + "/policy.bin");
  const auto expected_value = read_floats(dir + "/value.bin");
  if (policy.numel() != static_cast<int64_t>(expected_policy.size()) || value.numel() != b) {
    std::cerr << "output shapes differ\n";
    return 1;
  }
  double worst = 0;
  for (int64_t i = 0; i < policy.numel(); ++i)
    worst = std::max(worst, std::abs(double(policy.data_ptr<float>()[i]) - expected_policy[i]));
  for (int64_t i = 0; i < b; ++i)
    worst = std::max(worst, std::abs(double(value.data_ptr<float>()[i]) - expected_value[i]));
  std::cout << "max difference " << worst << "\n";
  return worst < 1e-4 ? 0 : 1;
}
