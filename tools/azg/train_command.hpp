#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "trainer/config.hpp"

namespace azg {

struct TrainArgs {
  std::string config_path;
  std::string run_dir;
  std::vector<std::string> overrides;
  bool print_config = false;
};

// `azg train`: resolves the configuration, then trains (or prints it).
int cmd_train(const TrainArgs& args, std::ostream& out);

// The defaults, then the YAML file (when given), then the KEY=VALUE overrides, validated:
// the configuration of `azg train`, `azg actor` and `azg learner` alike.
trainer::TrainConfig resolve_config(const std::string& path, const std::vector<std::string>& overrides);

}  // namespace azg
