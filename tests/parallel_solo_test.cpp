// The learner group of an azg built without Gloo (-DAZG_GLOO=OFF): one learner trains
// alone, its collectives leave its values as they are, and a group of several is refused
// with one line that names the build option.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "parallel/learner_group.hpp"

namespace azg::parallel {
namespace {

GroupOptions options(int rank, int size) {
  GroupOptions o;
  o.rank = rank;
  o.size = size;
  return o;
}

std::string error_of(const GroupOptions& o) {
  try {
    LearnerGroup g(o);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(LearnerGroupWithoutGloo, AGroupOfOneKeepsItsOwnValues) {
  LearnerGroup g(options(0, 1));
  EXPECT_EQ(g.rank(), 0);
  EXPECT_EQ(g.size(), 1);
  double sums[2] = {1.5, -2.0};
  g.sum(sums, 2);
  EXPECT_EQ(sums[0], 1.5);
  EXPECT_EQ(sums[1], -2.0);
  float grads[1] = {0.25f};
  g.average(grads, 1);
  EXPECT_EQ(grads[0], 0.25f);
  EXPECT_EQ(g.share("weights"), "weights");
  g.barrier();
}

TEST(LearnerGroupWithoutGloo, SeveralLearnersAreAOneLineErrorNamingTheOption) {
  const std::string e = error_of(options(0, 2));
  EXPECT_NE(e.find("--learners 2 needs Gloo"), std::string::npos) << e;
  EXPECT_NE(e.find("-DAZG_GLOO=ON"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  // The options are checked first, as in the Gloo build.
  EXPECT_EQ(error_of(options(2, 2)), "--rank must be in 0..1, got 2");
}

}  // namespace
}  // namespace azg::parallel
