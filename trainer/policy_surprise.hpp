#pragma once
// Policy-surprise weighting (KataGo): positions whose search moved the policy far from the
// network's prior teach more, so they go into the replay buffer more often. Within one
// game, the full-search positions keep their total weight; a share `share` of it is
// spread in proportion to each one's surprise, KL(improved policy || prior), the rest
// evenly. A weight w becomes floor(w) copies plus one more with probability w - floor(w),
// so the buffer's composition changes but not, on average, its number of positions (nor
// the ratio of training to self-play that train.reuse sets).
#include <cmath>
#include <vector>

#include "core/rng.hpp"

namespace azg::trainer {

// `surprise[i]`: position i's KL in nats, or a negative number for a position without a
// policy target (a cheap search), which keeps one copy. share 0: one copy of everything.
inline std::vector<int> surprise_copies(const std::vector<double>& surprise, double share,
                                        Rng& rng) {
  std::vector<int> copies(surprise.size(), 1);
  if (share <= 0) return copies;
  double total = 0.0;
  int full = 0;
  for (const double s : surprise)
    if (s >= 0) {
      total += s;
      ++full;
    }
  if (full == 0 || total <= 0) return copies;  // nothing surprised the search: even weights
  const double mean = total / full;
  for (std::size_t i = 0; i < surprise.size(); ++i) {
    if (surprise[i] < 0) continue;
    const double weight = (1.0 - share) + share * surprise[i] / mean;
    const double whole = std::floor(weight);
    copies[i] = static_cast<int>(whole) + (rng.uniform() < weight - whole ? 1 : 0);
  }
  return copies;
}

}  // namespace azg::trainer
