#pragma once
// `azg actor` and `azg learner`: the processes of a distributed run (roles/).
#include <ostream>
#include <string>
#include <vector>

#include "roles/options.hpp"

namespace azg {

// The run's config as `azg train` takes it, and the role's own options.
template <class Options>
struct RoleArgs {
  std::string config_path;
  std::vector<std::string> overrides;
  Options options;
};
using ActorArgs = RoleArgs<roles::ActorOptions>;
using LearnerArgs = RoleArgs<roles::LearnerOptions>;

// `azg actor`: self-play for a distributed run (roles/actor.hpp).
int cmd_actor(const ActorArgs& args, std::ostream& out);
// `azg learner`: training fed by actors (roles/learner.hpp).
int cmd_learner(const LearnerArgs& args, std::ostream& out);

}  // namespace azg
