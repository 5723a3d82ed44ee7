// The learner group of an azg built without Gloo (-DAZG_GLOO=OFF): a group of one learner,
// whose collectives have nothing to meet, and a one-line error for a group of several.
#include <memory>
#include <string>

#include "core/error.hpp"
#include "parallel/learner_group.hpp"

namespace azg::parallel {

struct LearnerGroup::Impl {};

LearnerGroup::LearnerGroup(const GroupOptions& o) : rank_(o.rank), size_(o.size) {
  check_group_options(o);
  if (o.size > 1)
    throw Error(
        "--learners " + std::to_string(o.size) +
        " needs Gloo, and this azg was built without it (-DAZG_GLOO=OFF): install libgloo-dev and "
        "rebuild with -DAZG_GLOO=ON");
}

LearnerGroup::~LearnerGroup() = default;

// One rank: the sum, the mean and rank 0's bytes are this rank's own.
void LearnerGroup::sum(double*, std::size_t) {}
void LearnerGroup::average(float*, std::size_t) {}
std::string LearnerGroup::share(const std::string& bytes) {
  return bytes;
}
void LearnerGroup::barrier() {}

}  // namespace azg::parallel
