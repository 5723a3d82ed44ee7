#pragma once
// What `azg actor` and `azg learner` take besides the run's config.
#include <cstdint>
#include <string>
#include <vector>

namespace azg::roles {

struct ActorOptions {
  std::string redis = "127.0.0.1:6379";
  std::string run;
  std::string name;              // default: host-pid
  int threads = 0;               // default: the config's selfplay.threads
  std::int64_t games = 0;        // stop once at least this many are sent (0: run until killed)
  std::int64_t max_waiting = 0;  // default: 64 games per self-play thread
};

struct LearnerOptions {
  std::string redis = "127.0.0.1:6379";
  std::string run;
  std::string run_dir;           // default runs/<run>
  std::string name = "learner";  // its consumer name: the same across restarts
  // Data-parallel learners (parallel/): `learners` processes, this one `rank`. With no
  // rank, this process is rank 0 and starts ranks 1..N-1 on this machine (`relaunch`:
  // its own command line, to which each child adds --rank).
  int learners = 1;
  int rank = -1;
  std::string rendezvous = "127.0.0.1:29500";  // rank 0's TCPStore
  std::string bind;                            // this rank's address for the others
  int group_timeout_s = 1800;
  std::vector<std::string> relaunch;
};

}  // namespace azg::roles
