// Imperator's static evaluation (docs/heuristics.md). Every term is measured alike for
// both colours, so a symmetry that exchanges the players (and the rim's protection)
// negates the value.
#include <cmath>

#include "env/imperator/imperator.hpp"

namespace azg {

template <int Side>
double BasicImperator<Side>::evaluate() const {
  const int me = mover_, other = mover_ ^ 1;
  int pinned_pieces[2] = {0, 0};
  for (int c = 0; c < 2; ++c)
    for (Bits b = pieces_[c]; b.any();) pinned_pieces[c] += pinned(b.pop());
  // Pieces in groups one enemy piece could turn over: the mover's targets now, and the
  // mover's own pieces at risk next turn (weighed less: the mover can still save them).
  const int targets = one_liberty(other).count(), at_risk = one_liberty(me).count();
  const double sign = me == 0 ? 1.0 : -1.0;
  const double x = 0.3 * (pieces(0) - pieces(1)) + sign * (0.2 * targets - 0.1 * at_risk) +
                   0.04 * (pinned_pieces[1] - pinned_pieces[0]);
  return std::tanh(x);
}

template double BasicImperator<3>::evaluate() const;
template double BasicImperator<4>::evaluate() const;
template double BasicImperator<5>::evaluate() const;

}  // namespace azg
