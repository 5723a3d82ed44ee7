#pragma once
// Deterministic, seedable random numbers (xoshiro256**, seeded through SplitMix64).
// Every consumer owns its Rng: there is no global generator, so two games, threads or
// engines in one process never disturb each other and a seed always replays a game.
#include <array>
#include <cstdint>

#include "core/mix.hpp"

namespace azg {

class Rng {
 public:
  // A UniformRandomBitGenerator, so <random> distributions (gamma for Dirichlet noise)
  // can draw from it.
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return next(); }

  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; the tiny bias for huge n
  // is irrelevant here and the method is branch-free and fast).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // A seed for an independent stream derived from this one (per game, per thread).
  std::uint64_t fork() { return next() ^ 0x9E3779B97F4A7C15ull; }

  std::array<std::uint64_t, 4> state() const { return state_; }
  void set_state(const std::array<std::uint64_t, 4>& s) { state_ = s; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<std::uint64_t, 4> state_{};
};

}  // namespace azg
