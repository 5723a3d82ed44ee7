#pragma once
// The replay buffer: a sliding window over the most recent self-play positions, sampled
// uniformly into training batches under a random symmetry of the game (augmentation).
// It stores states and the search's policy over *actions*, so any symmetry can be applied
// at sampling time by transforming the state and mapping the actions. For networks with
// an ownership head it also keeps each game's final state, transformed the same way.
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "env/common/atomic_file.hpp"
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

template <Game G>
class ReplayBuffer {
 public:
  explicit ReplayBuffer(std::size_t capacity) : capacity_(capacity) { entries_.reserve(capacity); }

  void add(Position<G> p) {
    std::lock_guard lock(mutex_);
    if (entries_.size() < capacity_) entries_.push_back(std::move(p));
    else entries_[next_ % capacity_] = std::move(p);
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

  // `ownership`: also fill the ownership targets (games with ownership() only).
  void sample(int n, Rng& rng, bool symmetries, bool ownership, nets::RawBatch& out) const {
    const int plane_size = G::kPlanes.size(), policy_size = G::kPolicySize;
    const int cells = G::kPlanes.height * G::kPlanes.width;
    ownership = ownership && kHasOwnership<G>;
    out.ownership.assign(ownership ? static_cast<std::size_t>(n) * cells : 0, 0.0f);
    out.ownership_weight.assign(ownership ? n : 0, 0.0f);
    out.n = n;
    out.planes.assign(static_cast<std::size_t>(n) * plane_size, 0.0f);
    out.policy.assign(static_cast<std::size_t>(n) * policy_size, 0.0f);
    out.legal.assign(static_cast<std::size_t>(n) * policy_size, 0);
    out.value.assign(n, 0.0f);
    out.policy_weight.assign(n, 0.0f);
    std::lock_guard lock(mutex_);
    for (int i = 0; i < n; ++i) {
      const Position<G>& p = entries_[rng.below(static_cast<std::uint32_t>(entries_.size()))];
      const int s = symmetries && G::kNumSymmetries > 1 ? static_cast<int>(rng.below(G::kNumSymmetries)) : 0;
      const G image = s == 0 ? p.state : p.state.symmetric(s);
      image.encode(std::span<float>(out.planes.data() + static_cast<std::size_t>(i) * plane_size, plane_size));
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
    }
  }

  // Binary snapshot (for this build: states are stored as raw bytes), written atomically.
  void save(const std::string& path) const {
    std::lock_guard lock(mutex_);
    write_atomically(path, [&](const std::string& tmp) {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      const std::string name(G::kName);
      write_pod(out, kMagicWithFinalStates);
      write_pod(out, static_cast<std::uint32_t>(name.size()));
      out.write(name.data(), static_cast<std::streamsize>(name.size()));
      write_pod(out, static_cast<std::uint32_t>(sizeof(G)));
      write_pod(out, static_cast<std::int64_t>(next_));
      write_pod(out, static_cast<std::uint64_t>(entries_.size()));
      for (const auto& e : entries_) {
        out.write(reinterpret_cast<const char*>(&e.state), sizeof(G));
        write_pod(out, e.value);
        write_pod(out, static_cast<std::uint8_t>(e.final_state.has_value()));
        if (e.final_state) out.write(reinterpret_cast<const char*>(&*e.final_state), sizeof(G));
        write_pod(out, static_cast<std::uint32_t>(e.policy.size()));
        for (const auto& [a, p] : e.policy) {
          write_pod(out, a);
          write_pod(out, p);
        }
      }
      out.flush();
      if (!out) throw Error("cannot write " + tmp);
    });
  }

  void load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read replay buffer " + path);
    auto fail = [&] { throw Error(path + " is not a replay buffer of this build's " + std::string(G::kName)); };
    std::uint64_t magic = 0;
    std::uint32_t name_size = 0, state_size = 0;
    read_pod(in, magic);
    read_pod(in, name_size);
    if ((magic != kMagic && magic != kMagicWithFinalStates) || name_size > 64) fail();
    std::string name(name_size, '\0');
    in.read(name.data(), name_size);
    read_pod(in, state_size);
    if (name != G::kName || state_size != sizeof(G)) fail();
    std::int64_t next = 0;
    std::uint64_t count = 0;
    read_pod(in, next);
    read_pod(in, count);
    if (!in || count > capacity_ * 4 + 1000000) fail();
    std::vector<Position<G>> entries(count);
    for (auto& e : entries) {
      in.read(reinterpret_cast<char*>(&e.state), sizeof(G));
      read_pod(in, e.value);
      std::uint8_t has_final = 0;
      if (magic == kMagicWithFinalStates) read_pod(in, has_final);
      if (has_final > 1) fail();
      if (has_final) {
        G end;
        in.read(reinterpret_cast<char*>(&end), sizeof(G));
        e.final_state = end;
      }
      std::uint32_t n = 0;
      read_pod(in, n);
      if (!in || n > 100000) fail();
      e.policy.resize(n);
      for (auto& [a, p] : e.policy) {
        read_pod(in, a);
        read_pod(in, p);
      }
    }
    if (!in) fail();
    std::lock_guard lock(mutex_);
    // Keep the most recent `capacity` if the capacity shrank.
    if (entries.size() > capacity_) entries.erase(entries.begin(), entries.end() - static_cast<std::ptrdiff_t>(capacity_));
    entries_ = std::move(entries);
    next_ = next;
  }

 private:
  static constexpr std::uint64_t kMagic = 0x3142524741ull;                 // "AGRB1", older builds
  static constexpr std::uint64_t kMagicWithFinalStates = 0x3242524741ull;  // "AGRB2"
  template <class T>
  static void write_pod(std::ostream& out, const T& v) {
    out.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  static void read_pod(std::istream& in, T& v) {
    in.read(reinterpret_cast<char*>(&v), sizeof v);
  }

  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::vector<Position<G>> entries_;
  std::int64_t next_ = 0;
};

}  // namespace azg::trainer
