// The commands of the optional parts a build left out (-DAZG_WEB=OFF, -DAZG_REDIS=OFF):
// still listed by `azg --help`, so that asking for one says which option brings it back,
// in one line, instead of "unknown command".
#include <memory>
#include <string>

#include "core/error.hpp"
#include "tools/azg/commands/command.hpp"

namespace azg::cli {
namespace {

[[maybe_unused]] Command not_built(CLI::App& app, const std::string& name,
                                   const std::string& description, const std::string& option,
                                   const std::string& packages) {
  auto* cmd = app.add_subcommand(name, description + " (not in this build: " + option + "=OFF)");
  cmd->allow_extras();
  const std::string message = "azg " + name + " is not in this build (configured with -D" + option +
                              "=OFF): install " + packages + " and rebuild with -D" + option +
                              "=ON";
  return {cmd, [message](const Io&) -> int { throw Error(message); }};
}

}  // namespace

#if !AZG_WEB
Command add_serve(CLI::App& app) {
  return not_built(app, "serve", "A web board to play and watch", "AZG_WEB", "libcpp-httplib-dev");
}
#endif

#if !AZG_REDIS
Command add_actor(CLI::App& app) {
  return not_built(app, "actor", "Self-play for a distributed run", "AZG_REDIS", "libhiredis-dev");
}
Command add_learner(CLI::App& app) {
  return not_built(app, "learner", "Training for a distributed run", "AZG_REDIS", "libhiredis-dev");
}
#endif

}  // namespace azg::cli
