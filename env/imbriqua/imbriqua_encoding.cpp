// Imbriqua NN encoding, policy indices, symmetries and hashing.
//
// Planes (8x8, from the view of the player to act):
//   0 own pawns   1 opponent pawns   2 the turn's placed pawn   3 the chain pawn
//   4..14   the current card, one-hot over the 11 codes (zero while hidden)
//   15..24  the pile-1 cards still hidden (one plane per shuffled code)
//   25..57  the cards of the next three turns, 11 planes each (zero while hidden)
//   58..63  phase: opening, placement, card action, further jump, second P2 pawn, penalty
//   64 turn / 44   65 ones   66 the player to act is the turn's mover   67 inner squares
//   68..71  empty squares the player to act frames, one plane per line (column, row, the
//           two diagonals): what would score if the game ended now
//   72..75  the same for the opponent
//   76, 77  half frames (own, opponent): per empty square, the number of lines / 4 with
//           one neighbour the player's and the other empty, so one placement frames it
//   78 score margin now (own - opponent) / 16   79 pawn margin / 16, both clipped to [-1, 1]
// Planes 68..79 are functions of the pawns alone; they are given because the score is a
// sum over far-apart squares that a small network learns slowly from game results.
// Unrevealed cards never appear: the state does not hold them.
// Policy: placement square (64) | moves and jumps as from x direction x distance (64 x 56)
// | stop | removal square (64). Reveals are chance actions without an index.
#include <algorithm>
#include <bit>
#include <cstdlib>

#include "env/common/board64.hpp"
#include "env/imbriqua/imbriqua.hpp"

namespace azg {

using namespace board64;

namespace {
constexpr int kPlaneCard = 4, kPlaneHidden = 15, kPlaneNext = 25, kPlanePhase = 58;
constexpr int kPlaneTurn = 64, kPlaneOnes = 65, kPlaneIsMover = 66, kPlaneInner = 67;
constexpr int kPlaneFramed = 68, kPlaneHalfFramed = 76, kPlaneScoreMargin = 78,
              kPlanePawnMargin = 79;
// The four lines through a square, as the two opposite directions along each.
constexpr int kLineDirections[4][2] = {{kN, kS}, {kE, kW}, {kNE, kSW}, {kNW, kSE}};

void fill_plane(std::span<float> out, int plane, float value) {
  std::fill(out.begin() + plane * 64, out.begin() + (plane + 1) * 64, value);
}
void set_bits(std::span<float> out, int plane, std::uint64_t b) {
  while (b) out[plane * 64 + pop_lsb(b)] = 1.0f;
}
void add_bits(std::span<float> out, int plane, std::uint64_t b, float value) {
  while (b) out[plane * 64 + pop_lsb(b)] += value;
}
float clipped(float x) {
  return std::clamp(x, -1.0f, 1.0f);
}

// Planes 68..77 for the player whose pawns are `own`.
void encode_frames(std::span<float> out, std::uint64_t own, std::uint64_t opp) {
  const std::uint64_t empty = ~(own | opp);
  for (int side = 0; side < 2; ++side) {
    const std::uint64_t mine = side == 0 ? own : opp;
    for (int line = 0; line < 4; ++line) {
      const std::uint64_t a = shift(mine, kLineDirections[line][0]);
      const std::uint64_t b = shift(mine, kLineDirections[line][1]);
      const std::uint64_t ea = shift(empty, kLineDirections[line][0]);
      const std::uint64_t eb = shift(empty, kLineDirections[line][1]);
      set_bits(out, kPlaneFramed + side * 4 + line, empty & a & b);
      add_bits(out, kPlaneHalfFramed + side, empty & ((a & eb) | (ea & b)), 0.25f);
    }
  }
}
}  // namespace

void Imbriqua::encode(std::span<float> out) const {
  std::fill(out.begin(), out.begin() + kPlanes.size(), 0.0f);
  const int me = actor();
  set_bits(out, 0, pawns_[me]);
  set_bits(out, 1, pawns_[me ^ 1]);
  if (last_placed_ >= 0 && phase_ != Phase::kPlace && phase_ != Phase::kOpening)
    out[2 * 64 + last_placed_] = 1.0f;
  if (phase_ == Phase::kChain) out[3 * 64 + chain_square_] = 1.0f;
  if (phase_ != Phase::kOpening) {
    const Card current = card_of_turn(turn_);
    if (current != kNoCard) fill_plane(out, kPlaneCard + current, 1.0f);
    for (int k = 1; k <= 3 && turn_ + k <= kTurns; ++k) {
      const Card next = card_of_turn(turn_ + k);
      if (next != kNoCard) fill_plane(out, kPlaneNext + (k - 1) * kCardKinds + next, 1.0f);
    }
  }
  bool seen[kShuffled] = {};
  for (int i = 0; i < n_revealed_; ++i) seen[revealed_[i]] = true;
  for (int c = 0; c < kShuffled; ++c)
    if (!seen[c]) fill_plane(out, kPlaneHidden + c, 1.0f);
  int phase_plane = 0;
  switch (phase_) {
    case Phase::kOpening:
      phase_plane = 0;
      break;
    case Phase::kPlace:
    case Phase::kReveal:
      phase_plane = 1;
      break;
    case Phase::kCard:
      phase_plane = 2;
      break;
    case Phase::kChain:
      phase_plane = 3;
      break;
    case Phase::kSecondPawn:
      phase_plane = 4;
      break;
    case Phase::kPenalty:
      phase_plane = 5;
      break;
  }
  fill_plane(out, kPlanePhase + phase_plane, 1.0f);
  fill_plane(out, kPlaneTurn, static_cast<float>(turn_) / kTurns);
  fill_plane(out, kPlaneOnes, 1.0f);
  fill_plane(out, kPlaneIsMover, me == mover_ ? 1.0f : 0.0f);
  set_bits(out, kPlaneInner, ~kEdges);
  encode_frames(out, pawns_[me], pawns_[me ^ 1]);
  fill_plane(out, kPlaneScoreMargin, clipped(static_cast<float>(score(me) - score(me ^ 1)) / 16));
  fill_plane(
      out, kPlanePawnMargin,
      clipped(static_cast<float>(std::popcount(pawns_[me]) - std::popcount(pawns_[me ^ 1])) / 16));
}

void Imbriqua::ownership(Player view, std::span<float> out) const {
  std::fill(out.begin(), out.begin() + 64, 0.0f);
  const int me = index_of(view);
  const std::uint64_t empty = ~(pawns_[0] | pawns_[1]);
  for (int side = 0; side < 2; ++side) {
    const std::uint64_t mine = pawns_[side == 0 ? me : me ^ 1];
    for (const auto& line : kLineDirections)
      add_bits(out, 0, empty & shift(mine, line[0]) & shift(mine, line[1]),
               side == 0 ? 0.25f : -0.25f);
  }
}

int Imbriqua::policy_index(Action a) const {
  switch (kind_of(a)) {
    case kPlaceKind:
      return to_of(a);
    case kMoveKind:
    case kJumpKind: {
      const int from = from_of(a), to = to_of(a);
      const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
      const int distance = std::max(std::abs(df), std::abs(dr));
      const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
      int dir = 0;
      while (kFileStep[dir] != sf || kRankStep[dir] != sr) ++dir;
      return kMoveIndexBase + from * 56 + dir * 7 + (distance - 1);
    }
    case kStopKind:
      return kStopIndex;
    case kRemoveKind:
      return kRemoveIndexBase + to_of(a);
    default:
      return -1;
  }
}

Action Imbriqua::symmetric_action(int s, Action a) const {
  switch (kind_of(a)) {
    case kPlaceKind:
    case kRemoveKind:
      return make_action(kind_of(a), 0, symmetric_square(s, to_of(a)));
    case kMoveKind:
    case kJumpKind:
      return make_action(kind_of(a), symmetric_square(s, from_of(a)),
                         symmetric_square(s, to_of(a)));
    default:
      return a;
  }
}

Imbriqua Imbriqua::symmetric(int s) const {
  Imbriqua t = *this;
  t.pawns_ = {0, 0};
  t.zobrist_ = 0;
  for (int p = 0; p < 2; ++p)
    for (std::uint64_t b = pawns_[p]; b;) t.place(p, symmetric_square(s, pop_lsb(b)));
  if (last_placed_ >= 0)
    t.last_placed_ = static_cast<std::int8_t>(symmetric_square(s, last_placed_));
  if (chain_square_ >= 0)
    t.chain_square_ = static_cast<std::int8_t>(symmetric_square(s, chain_square_));
  return t;
}

std::uint64_t Imbriqua::hash() const {
  std::uint64_t h = zobrist_;
  std::uint64_t fields =
      static_cast<std::uint64_t>(turn_) | static_cast<std::uint64_t>(phase_) << 8 |
      static_cast<std::uint64_t>(mover_) << 12 | static_cast<std::uint64_t>(opening_placed_) << 16 |
      static_cast<std::uint64_t>(last_placed_ + 1) << 24 |
      static_cast<std::uint64_t>(chain_square_ + 1) << 32 |
      static_cast<std::uint64_t>(card_) << 40 | static_cast<std::uint64_t>(terminal_) << 48 |
      static_cast<std::uint64_t>(n_revealed_) << 52;
  h ^= (fields + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
  std::uint64_t cards = 0;
  for (int i = 0; i < n_revealed_; ++i) cards = cards * 11 + revealed_[i];
  h ^= (cards + 0x632BE59BD9B4E019ull) * 0x94D049BB133111EBull;
  return h;
}

}  // namespace azg
