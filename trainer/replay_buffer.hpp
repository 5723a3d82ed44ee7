#pragma once
// The replay buffer: a sliding window over the most recent self-play positions, sampled
// uniformly into training batches under a random symmetry of the game (augmentation).
// It stores states and the search's policy over *actions*, so any symmetry can be applied
// at sampling time by transforming the state and mapping the actions. For networks with
// an ownership or score head it also keeps each game's final state, transformed the same
// way, and computes those targets from it when sampling.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/byte_io.hpp"
#include "env/common/game_traits.hpp"
#include "nets/session.hpp"

namespace azg::trainer {

template <Game G>
struct Position {
  G state;
  std::vector<std::pair<Action, float>> policy;  // empty for cheap searches
  float value = 0.0f;                            // final result for the player to act
  std::optional<G> final_state;                  // the game's end (ownership targets)
};

// One position as bytes (the replay buffer's files and the games actors send): the state
// as raw bytes (this build's layout), the value target, the final state when kept, and the
// search policy over actions. read_position() refuses what write_position() cannot write.
template <Game G>
void write_position(ByteWriter& w, const Position<G>& e) {
  w.raw(&e.state, sizeof(G));
  w.pod(e.value);
  w.pod(static_cast<std::uint8_t>(e.final_state.has_value()));
  if (e.final_state) w.raw(&*e.final_state, sizeof(G));
  w.pod(static_cast<std::uint32_t>(e.policy.size()));
  for (const auto& [a, p] : e.policy) {
    w.pod(a);
    w.pod(p);
  }
}

// What follows a file's magic number: the game's name and this build's state size, so
// that raw states are read back only by the game and build that wrote them.
template <Game G>
void write_state_layout(ByteWriter& w) {
  const std::string name(G::kName);
  w.pod(static_cast<std::uint32_t>(name.size()));
  w.raw(name.data(), name.size());
  w.pod(static_cast<std::uint32_t>(sizeof(G)));
}

template <Game G, class Fail>
void check_state_layout(ByteReader& r, Fail&& fail) {
  const auto name_size = r.pod<std::uint32_t>();
  if (name_size > 64) fail();
  std::string name(name_size, '\0');
  r.raw(name.data(), name_size);
  if (name != G::kName || r.pod<std::uint32_t>() != sizeof(G)) fail();
}

// `with_final`: false for the oldest buffer files, which had no final-state byte. Calls
// fail() on a value out of range.
template <Game G, class Fail>
Position<G> read_position(ByteReader& r, bool with_final, Fail&& fail) {
  Position<G> e;
  r.raw(&e.state, sizeof(G));
  e.value = r.pod<float>();
  const std::uint8_t has_final = with_final ? r.pod<std::uint8_t>() : 0;
  if (has_final > 1) fail();
  if (has_final) {
    G end;
    r.raw(&end, sizeof(G));
    e.final_state = end;
  }
  const auto n = r.pod<std::uint32_t>();
  r.expect_items(n, sizeof(Action) + sizeof(float));
  e.policy.resize(n);
  for (auto& [a, p] : e.policy) {
    a = r.pod<Action>();
    p = r.pod<float>();
    if (!(p >= 0.0f && p <= 1.0f)) fail();
  }
  if (!(e.value >= -1.0f && e.value <= 1.0f)) fail();
  return e;
}

// The targets a batch carries beside planes, policy and value.
// Which symmetries a sampled position may be seen under (replay.symmetries,
// replay.swap_symmetries).
enum class SymmetryUse {
  kNone,           // as played
  kColourKeeping,  // those that keep the players' roles
  kAll             // also those that exchange them (Truchet's flip, Intercept's half-turn)
};

// A random symmetry of G allowed by `use`. Colour-keeping draws number the allowed
// symmetries in order, so a game whose first k are the colour-keeping ones draws as it
// would with only those k declared.
template <Game G>
int random_symmetry(SymmetryUse use, Rng& rng) {
  if (use == SymmetryUse::kNone || G::kNumSymmetries <= 1) return 0;
  if (use == SymmetryUse::kAll) return static_cast<int>(rng.below(G::kNumSymmetries));
  int keeping = 0;
  for (int s = 0; s < G::kNumSymmetries; ++s) keeping += symmetry_swaps_players<G>(s) ? 0 : 1;
  if (keeping <= 1) return 0;
  int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(keeping)));
  for (int s = 0;; ++s)
    if (!symmetry_swaps_players<G>(s) && k-- == 0) return s;
}

struct SampleTargets {
  bool ownership = false;    // the game's ownership() at its end (games with that hook)
  double score_scale = 0.0;  // above 0: tanh(final margin / score_scale) (games decided by points)
};

template <Game G>
class ReplayBuffer {
 public:
  explicit ReplayBuffer(std::size_t capacity) : capacity_(capacity) { entries_.reserve(capacity); }

  void add(Position<G> p) {
    std::lock_guard lock(mutex_);
    if (entries_.size() < capacity_)
      entries_.push_back(std::move(p));
    else
      entries_[next_ % capacity_] = std::move(p);
    ++next_;
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }
  // Positions ever added (the window keeps the last `capacity`).
  std::int64_t added() const {
    std::lock_guard lock(mutex_);
    return next_;
  }

  // A position without a final state gets weight 0 for the ownership and score targets.
  void sample(int n, Rng& rng, SymmetryUse symmetries, SampleTargets targets,
              nets::RawBatch& out) const {
    const int plane_size = G::kPlanes.size(), policy_size = G::kPolicySize;
    const int cells = G::kPlanes.height * G::kPlanes.width;
    const bool ownership = targets.ownership && kHasOwnership<G>;
    const bool score = targets.score_scale > 0 && kDecidedByPoints<G>;
    out.ownership.assign(ownership ? static_cast<std::size_t>(n) * cells : 0, 0.0f);
    out.ownership_weight.assign(ownership ? n : 0, 0.0f);
    out.score.assign(score ? n : 0, 0.0f);
    out.score_weight.assign(score ? n : 0, 0.0f);
    out.n = n;
    out.planes.assign(static_cast<std::size_t>(n) * plane_size, 0.0f);
    out.policy.assign(static_cast<std::size_t>(n) * policy_size, 0.0f);
    out.legal.assign(static_cast<std::size_t>(n) * policy_size, 0);
    out.value.assign(n, 0.0f);
    out.policy_weight.assign(n, 0.0f);
    std::lock_guard lock(mutex_);
    for (int i = 0; i < n; ++i) {
      const Position<G>& p = entries_[rng.below(static_cast<std::uint32_t>(entries_.size()))];
      const int s = random_symmetry<G>(symmetries, rng);
      const G image = s == 0 ? p.state : p.state.symmetric(s);
      image.encode(std::span<float>(out.planes.data() + static_cast<std::size_t>(i) * plane_size,
                                    plane_size));
      float* policy = out.policy.data() + static_cast<std::size_t>(i) * policy_size;
      std::uint8_t* legal = out.legal.data() + static_cast<std::size_t>(i) * policy_size;
      ActionListFor<G> actions;
      image.legal_actions(actions);
      for (const Action a : actions)
        if (const int idx = image.policy_index(a); idx >= 0) legal[idx] = 1;
      double total = 0.0;
      for (const auto& [a, prob] : p.policy) {
        const int idx = image.policy_index(s == 0 ? a : p.state.symmetric_action(s, a));
        if (idx >= 0) {
          policy[idx] += prob;
          total += prob;
        }
      }
      if (total > 0) {
        for (int k = 0; k < policy_size; ++k) policy[k] = static_cast<float>(policy[k] / total);
        out.policy_weight[i] = 1.0f;
      }
      out.value[i] = p.value;
      if constexpr (kHasOwnership<G>) {
        if (ownership && p.final_state) {
          const G end = s == 0 ? *p.final_state : p.final_state->symmetric(s);
          float* target = out.ownership.data() + static_cast<std::size_t>(i) * cells;
          end.ownership(image.to_act(), std::span<float>(target, cells));
          out.ownership_weight[i] = 1.0f;
        }
      }
      if constexpr (kDecidedByPoints<G>) {
        if (score && p.final_state) {
          // score_margin() is player 0's points less player 1's; the target is the mover's.
          const double margin =
              p.final_state->score_margin() * (p.state.to_act() == Player::kP0 ? 1.0 : -1.0);
          out.score[i] = static_cast<float>(std::tanh(margin / targets.score_scale));
          out.score_weight[i] = 1.0f;
        }
      }
    }
  }

  // Binary snapshot (for this build: states are stored as raw bytes), written atomically,
  // with a checksum at the end: a damaged file is refused before any state in it is used.
  void save(const std::string& path) const {
    std::lock_guard lock(mutex_);
    ByteWriter w;
    w.pod(kMagicChecksummed);
    write_state_layout<G>(w);
    w.pod(static_cast<std::int64_t>(next_));
    w.pod(static_cast<std::uint64_t>(entries_.size()));
    for (const auto& e : entries_) write_position(w, e);
    w.pod(fnv1a64(w.bytes()));
    write_text_atomically(path, w.bytes());
  }

  void load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read replay buffer " + path);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    load_bytes(bytes, path);
  }

  // The same from a file's bytes; `source` names it in errors. Leaves the buffer as it
  // was when the bytes are refused.
  void load_bytes(std::string_view bytes, const std::string& source) {
    auto fail = [&] {
      throw Error(source + " is not a replay buffer of this build's " + std::string(G::kName));
    };
    ByteReader r(bytes, source);
    const auto magic = r.pod<std::uint64_t>();
    if (magic != kMagic && magic != kMagicWithFinalStates && magic != kMagicChecksummed) fail();
    if (magic == kMagicChecksummed) {
      // Checked first: past this point the bytes are the ones save() wrote.
      if (bytes.size() < sizeof magic + sizeof(std::uint64_t)) fail();
      bytes = without_checksum(bytes, source);
      r = ByteReader(bytes, source);
      r.pod<std::uint64_t>();
    }
    check_state_layout<G>(r, fail);
    const auto next = r.pod<std::int64_t>();
    const auto count = r.pod<std::uint64_t>();
    // Every entry holds at least its state, value and policy size.
    r.expect_items(count, sizeof(G) + sizeof(float) + sizeof(std::uint32_t));
    if (next < static_cast<std::int64_t>(count)) fail();
    std::vector<Position<G>> entries;
    entries.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i)
      entries.push_back(read_position<G>(r, magic != kMagic, fail));
    if (r.remaining() != 0) fail();
    std::lock_guard lock(mutex_);
    // Keep the most recent `capacity` if the capacity shrank.
    if (entries.size() > capacity_)
      entries.erase(entries.begin(), entries.end() - static_cast<std::ptrdiff_t>(capacity_));
    entries_ = std::move(entries);
    next_ = next;
  }

 private:
  static constexpr std::uint64_t kMagic = 0x3142524741ull;                 // "AGRB1", older builds
  static constexpr std::uint64_t kMagicWithFinalStates = 0x3242524741ull;  // "AGRB2", older builds
  static constexpr std::uint64_t kMagicChecksummed =
      0x3342524741ull;  // "AGRB3": AGRB2 + FNV-1a-64 at the end

  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::vector<Position<G>> entries_;
  std::int64_t next_ = 0;
};

}  // namespace azg::trainer
