#pragma once
// SplitMix64 (Steele, Lea and Flood): the mixer behind seeding, Zobrist keys and hashes.
#include <cstdint>

namespace azg {

// SplitMix64's finaliser: every input bit affects every output bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Advances `state` and returns the next SplitMix64 value.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  return mix64(state += 0x9E3779B97F4A7C15ull);
}

}  // namespace azg
