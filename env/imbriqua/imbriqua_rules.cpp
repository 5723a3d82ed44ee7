// Imbriqua rules: placements, the card sequence, card actions, chains, penalties, scoring.
#include <array>
#include <bit>

#include "core/error.hpp"
#include "core/mix.hpp"
#include "env/common/board64.hpp"
#include "env/imbriqua/imbriqua.hpp"

namespace azg {
namespace {

using namespace board64;

constexpr std::array<std::uint64_t, 128> make_zobrist() {
  std::array<std::uint64_t, 128> keys{};
  std::uint64_t x = 0x1B873593ull;
  for (auto& k : keys) k = splitmix64(x);
  return keys;
}
constexpr auto kZobrist = make_zobrist();

constexpr std::uint64_t kInner = ~kEdges;

// Direction ranges: orthogonal cards use 0..3, diagonal ones 4..7.
constexpr bool is_diagonal(Imbriqua::Card c) {
  return c == Imbriqua::kD1 || c == Imbriqua::kDN || c == Imbriqua::kDJ || c == Imbriqua::kDL ||
         c == Imbriqua::kD2;
}

}  // namespace

Imbriqua Imbriqua::from_setup(std::string_view setup) {
  if (!setup.empty())
    throw Error("imbriqua takes no setup, got " + quote_input(std::string(setup)));
  return Imbriqua{};
}

Player Imbriqua::to_act() const {
  return phase_ == Phase::kReveal ? Player::kChance : static_cast<Player>(actor());
}

Imbriqua::Card Imbriqua::card_of_turn(int t) const {
  const int i = t - 1, pile = i / 11, pos = i % 11;
  int index;
  if (pile % 2 == 0) {
    if (pos == 10) return kP2;
    index = pos;
  } else {
    if (pos == 0) return kP2;
    index = 10 - pos;
  }
  return index < n_revealed_ ? revealed_[index] : kNoCard;
}

void Imbriqua::place(int player, int sq) {
  pawns_[player] |= bit(sq);
  zobrist_ ^= kZobrist[player * 64 + sq];
}

void Imbriqua::remove(int sq) {
  const int player = (pawns_[0] >> sq & 1) ? 0 : 1;
  pawns_[player] &= ~bit(sq);
  zobrist_ ^= kZobrist[player * 64 + sq];
}

std::uint64_t Imbriqua::placement_squares() const {
  const std::uint64_t empty = ~(pawns_[0] | pawns_[1]);
  const std::uint64_t inner = empty & kInner;
  return inner ? inner : empty;
}

template <class Emit>
bool Imbriqua::for_each_card_action(bool chain, Emit&& emit) const {
  const std::uint64_t own = pawns_[mover_], opp = pawns_[mover_ ^ 1];
  const std::uint64_t empty = ~(own | opp);
  const int first_dir = is_diagonal(card_) ? 4 : 0;
  switch (card_) {
    case kO1:
    case kD1:
      for (int d = first_dir; d < first_dir + 4; ++d)
        for (std::uint64_t to = shift(own, d) & empty; to;) {
          const int t = pop_lsb(to);
          if (emit(make_action(kMoveKind, t - kDelta[d], t))) return true;
        }
      return false;
    case kON:
    case kDN:
      for (int d = first_dir; d < first_dir + 4; ++d) {
        std::uint64_t frontier = own;
        for (int k = 1; k < 8; ++k) {
          frontier = shift(frontier, d) & empty;
          if (!frontier) break;
          for (std::uint64_t to = frontier; to;) {
            const int t = pop_lsb(to);
            if (emit(make_action(kMoveKind, t - k * kDelta[d], t))) return true;
          }
        }
      }
      return false;
    case kOJ:
    case kDJ: {
      const std::uint64_t jumpers = chain ? bit(chain_square_) : own;
      for (int d = first_dir; d < first_dir + 4; ++d)
        for (std::uint64_t to = shift(shift(jumpers, d) & opp, d) & empty; to;) {
          const int t = pop_lsb(to);
          if (emit(make_action(kJumpKind, t - 2 * kDelta[d], t))) return true;
        }
      return false;
    }
    case kOL:
    case kDL: {
      const int from = chain ? chain_square_ : last_placed_;
      for (int d = first_dir; d < first_dir + 4; ++d) {
        int s = step(from, d);
        while (s >= 0 && (empty >> s & 1)) s = step(s, d);
        if (s < 0 || !(opp >> s & 1)) continue;
        for (s = step(s, d); s >= 0 && (empty >> s & 1); s = step(s, d))
          if (emit(make_action(kJumpKind, from, s))) return true;
      }
      return false;
    }
    case kO2:
    case kD2: {
      const int from = last_placed_;
      for (int d = first_dir; d < first_dir + 4; ++d) {
        const int s1 = step(from, d);
        const int s2 = s1 < 0 ? -1 : step(s1, d);
        const int s3 = s2 < 0 ? -1 : step(s2, d);
        if (s3 >= 0 && (opp >> s1 & 1) && (opp >> s2 & 1) && (empty >> s3 & 1) &&
            emit(make_action(kJumpKind, from, s3)))
          return true;
      }
      return false;
    }
    case kP2:
      for (std::uint64_t to = empty; to;)
        if (emit(make_action(kPlaceKind, 0, pop_lsb(to)))) return true;
      return false;
    default:
      return false;
  }
}

void Imbriqua::legal_actions(FixedList<Action, kMaxActions>& out) const {
  out.clear();
  if (terminal_) return;
  auto push = [&out](Action a) {
    out.push_back(a);
    return false;
  };
  switch (phase_) {
    case Phase::kOpening:
    case Phase::kSecondPawn:
      for (std::uint64_t to = ~(pawns_[0] | pawns_[1]); to;)
        out.push_back(make_action(kPlaceKind, 0, pop_lsb(to)));
      return;
    case Phase::kPlace:
      for (std::uint64_t to = placement_squares(); to;)
        out.push_back(make_action(kPlaceKind, 0, pop_lsb(to)));
      return;
    case Phase::kReveal: {
      FixedList<ChanceOutcome, kMaxActions> outcomes;
      chance_outcomes(outcomes);
      for (const auto& o : outcomes) out.push_back(o.action);
      return;
    }
    case Phase::kCard:
      for_each_card_action(false, push);
      return;
    case Phase::kChain:
      out.push_back(make_action(kStopKind, 0, 0));
      for_each_card_action(true, push);
      return;
    case Phase::kPenalty:
      for (std::uint64_t own = pawns_[mover_]; own;)
        out.push_back(make_action(kRemoveKind, 0, pop_lsb(own)));
      return;
  }
}

void Imbriqua::chance_outcomes(FixedList<ChanceOutcome, kMaxActions>& out) const {
  out.clear();
  if (phase_ != Phase::kReveal) return;
  bool seen[kShuffled] = {};
  for (int i = 0; i < n_revealed_; ++i) seen[revealed_[i]] = true;
  const double p = 1.0 / (kShuffled - n_revealed_);
  for (int c = 0; c < kShuffled; ++c)
    if (!seen[c]) out.push_back({make_action(kRevealKind, 0, c), p});
}

void Imbriqua::complete_pile_one() {
  // Once nine cards of pile 1 are out, the tenth is known by elimination.
  if (n_revealed_ != kShuffled - 1) return;
  bool seen[kShuffled] = {};
  for (int i = 0; i < n_revealed_; ++i) seen[revealed_[i]] = true;
  int last = 0;
  while (seen[last]) ++last;
  revealed_[n_revealed_++] = static_cast<Card>(last);
}

void Imbriqua::start_card() {
  card_ = card_of_turn(turn_);
  phase_ = Phase::kCard;
  if (!for_each_card_action(false, [](Action) { return true; })) phase_ = Phase::kPenalty;
}

int Imbriqua::score(int player) const {
  // An empty square scores on a line when its two neighbours on it are both the player's:
  // shifting the pawns each way along the line marks the squares with such a neighbour.
  const std::uint64_t own = pawns_[player], empty = ~(pawns_[0] | pawns_[1]);
  return std::popcount(empty & shift(own, kN) & shift(own, kS)) +
         std::popcount(empty & shift(own, kE) & shift(own, kW)) +
         std::popcount(empty & shift(own, kNE) & shift(own, kSW)) +
         std::popcount(empty & shift(own, kNW) & shift(own, kSE));
}

void Imbriqua::end_turn() {
  chain_square_ = -1;
  if (turn_ == kTurns) {
    terminal_ = true;
    const int s0 = score(0), s1 = score(1);
    const int n0 = std::popcount(pawns_[0]), n1 = std::popcount(pawns_[1]);
    outcome_ = s0 != s1   ? (s0 > s1 ? Outcome::kP0Win : Outcome::kP1Win)
               : n0 != n1 ? (n0 > n1 ? Outcome::kP0Win : Outcome::kP1Win)
                          : Outcome::kDraw;
    return;
  }
  ++turn_;
  mover_ ^= 1;
  phase_ = Phase::kPlace;
}

void Imbriqua::apply(Action a) {
  const int to = to_of(a);
  switch (kind_of(a)) {
    case kPlaceKind:
      place(mover_, to);
      switch (phase_) {
        case Phase::kOpening:
          mover_ ^= 1;
          if (++opening_placed_ == kOpeningPawns) {
            turn_ = 1;
            phase_ = Phase::kPlace;
          }
          return;
        case Phase::kPlace:
          last_placed_ = static_cast<std::int8_t>(to);
          if (n_revealed_ < turn_ && n_revealed_ < kShuffled) {
            phase_ = Phase::kReveal;
            return;
          }
          start_card();
          return;
        case Phase::kCard:  // P2, first pawn
          phase_ = Phase::kSecondPawn;
          return;
        default:  // P2, second pawn
          end_turn();
          return;
      }
    case kRevealKind:
      revealed_[n_revealed_++] = static_cast<Card>(to);
      complete_pile_one();
      start_card();
      return;
    case kMoveKind:
      remove(from_of(a));
      place(mover_, to);
      end_turn();
      return;
    case kJumpKind: {
      const int from = from_of(a);
      const int df = (file_of(to) > file_of(from)) - (file_of(to) < file_of(from));
      const int dr = (rank_of(to) > rank_of(from)) - (rank_of(to) < rank_of(from));
      remove(from);
      for (int s = from + dr * 8 + df; s != to; s += dr * 8 + df)
        if ((pawns_[0] | pawns_[1]) >> s & 1) remove(s);
      place(mover_, to);
      if (card_ == kO2 || card_ == kD2) {
        end_turn();
        return;
      }
      chain_square_ = static_cast<std::int8_t>(to);
      if (for_each_card_action(true, [](Action) { return true; })) {
        phase_ = Phase::kChain;
        return;
      }
      end_turn();
      return;
    }
    case kStopKind:
      end_turn();
      return;
    case kRemoveKind:
      remove(to);
      end_turn();
      return;
  }
}

Imbriqua Imbriqua::from_position(std::uint64_t light, std::uint64_t dark, int turn,
                                 std::string_view revealed_codes) {
  if (light & dark) throw Error("a square holds two pawns");
  if (turn < 1 || turn > kTurns) throw Error("turn must be 1..44");
  Imbriqua g;
  for (std::uint64_t b = light; b;) g.place(0, pop_lsb(b));
  for (std::uint64_t b = dark; b;) g.place(1, pop_lsb(b));
  g.opening_placed_ = kOpeningPawns;
  g.turn_ = static_cast<std::uint8_t>(turn);
  g.mover_ = static_cast<std::uint8_t>((turn - 1) % 2);
  g.phase_ = Phase::kPlace;
  bool seen[kShuffled] = {};
  std::size_t i = 0;
  while (i < revealed_codes.size()) {
    if (revealed_codes[i] == ' ') {
      ++i;
      continue;
    }
    const std::string_view code = revealed_codes.substr(i, 2);
    int c = 0;
    while (c < kShuffled && card_code(static_cast<Card>(c)) != code) ++c;
    if (c == kShuffled || seen[c])
      throw Error("bad revealed card list " + quote_input(std::string(revealed_codes)));
    seen[c] = true;
    g.revealed_[g.n_revealed_++] = static_cast<Card>(c);
    i += 2;
  }
  g.complete_pile_one();
  if (g.n_revealed_ < std::min(turn, kShuffled) - 1)
    throw Error("cards of earlier turns must be revealed");
  return g;
}

Imbriqua Imbriqua::with_card(std::uint64_t light, std::uint64_t dark, int mover, int placed,
                             Card card) {
  // A mid-game turn of a fully revealed deck, with the card in hand overridden: enough for
  // rule tests of a single card.
  Imbriqua g = from_position(light, dark, mover == 0 ? 21 : 20, "O1 D1 ON DN OJ DJ OL DL O2 D2");
  g.mover_ = static_cast<std::uint8_t>(mover);
  if (!((mover == 0 ? light : dark) >> placed & 1))
    throw Error("the placed pawn must be the mover's");
  g.last_placed_ = static_cast<std::int8_t>(placed);
  g.card_ = card;
  g.phase_ = Phase::kCard;
  if (!g.for_each_card_action(false, [](Action) { return true; })) g.phase_ = Phase::kPenalty;
  return g;
}

}  // namespace azg
