#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace azg {

struct TrainArgs {
  std::string config_path;
  std::string run_dir;
  std::vector<std::string> overrides;
  bool print_config = false;
};

// `azg train`: resolves the configuration, then trains (or prints it).
int cmd_train(const TrainArgs& args, std::ostream& out);

}  // namespace azg
