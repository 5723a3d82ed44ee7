#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "roles/actor.hpp"

namespace azg {

struct ActorArgs {
  std::string config_path;
  std::vector<std::string> overrides;
  roles::ActorOptions options;
};

// `azg actor`: self-play for a distributed run (roles/actor.hpp).
int cmd_actor(const ActorArgs& args, std::ostream& out);

}  // namespace azg

#include "roles/learner.hpp"

namespace azg {

struct LearnerArgs {
  std::string config_path;
  std::vector<std::string> overrides;
  roles::LearnerOptions options;
};

// `azg learner`: training fed by actors (roles/learner.hpp).
int cmd_learner(const LearnerArgs& args, std::ostream& out);

}  // namespace azg
