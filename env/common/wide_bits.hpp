#pragma once
// A fixed-width bitset of W 64-bit words for boards with more than 64 cells (Imperator's
// 54/96/150 triangles, Intercept's 169 squares). Trivially copyable; every loop runs
// over a compile-time W, so the compiler unrolls it.
#include <array>
#include <cstdint>

namespace azg {

template <int W>
struct WideBits {
  std::array<std::uint64_t, W> w{};

  // The set of bits [0, n).
  static constexpr WideBits first(int n) {
    WideBits b;
    for (int i = 0; i < W; ++i) {
      const int in_word = n - 64 * i;
      b.w[i] = in_word >= 64  ? ~std::uint64_t{0}
               : in_word <= 0 ? 0
                              : (std::uint64_t{1} << in_word) - 1;
    }
    return b;
  }
  static constexpr WideBits single(int i) {
    WideBits b;
    b.set(i);
    return b;
  }

  // Single-bit access selects the word by comparison rather than by indexing, so that
  // the words can stay in registers (indexing with a run-time value forces them to memory).
  constexpr bool test(int i) const {
    std::uint64_t word = w[0];
    for (int k = 1; k < W; ++k) word = (i >> 6) == k ? w[k] : word;
    return word >> (i & 63) & 1;
  }
  constexpr void set(int i) {
    for (int k = 0; k < W; ++k) w[k] |= (i >> 6) == k ? std::uint64_t{1} << (i & 63) : 0;
  }
  constexpr void reset(int i) {
    for (int k = 0; k < W; ++k)
      w[k] &= (i >> 6) == k ? ~(std::uint64_t{1} << (i & 63)) : ~std::uint64_t{0};
  }
  constexpr bool any() const {
    std::uint64_t x = 0;
    for (int i = 0; i < W; ++i) x |= w[i];
    return x != 0;
  }
  constexpr bool none() const { return !any(); }
  int count() const {
    int n = 0;
    for (int i = 0; i < W; ++i) n += __builtin_popcountll(w[i]);
    return n;
  }
  // The lowest set bit's index, removed (the set must not be empty).
  int pop() {
    for (int i = 0; i < W - 1; ++i)
      if (w[i]) {
        const int bit = __builtin_ctzll(w[i]);
        w[i] &= w[i] - 1;
        return 64 * i + bit;
      }
    const int bit = __builtin_ctzll(w[W - 1]);
    w[W - 1] &= w[W - 1] - 1;
    return 64 * (W - 1) + bit;
  }

  constexpr WideBits operator|(const WideBits& o) const {
    WideBits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  constexpr WideBits operator&(const WideBits& o) const {
    WideBits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  constexpr WideBits operator~() const {
    WideBits r;
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  constexpr WideBits& operator|=(const WideBits& o) { return *this = *this | o; }
  constexpr bool operator==(const WideBits&) const = default;

  // Shifts by 0 <= n < 64 towards higher (<<) or lower (>>) indices.
  constexpr WideBits operator<<(int n) const {
    if (n == 0) return *this;
    WideBits r;
    for (int i = W - 1; i > 0; --i) r.w[i] = w[i] << n | w[i - 1] >> (64 - n);
    r.w[0] = w[0] << n;
    return r;
  }
  constexpr WideBits operator>>(int n) const {
    if (n == 0) return *this;
    WideBits r;
    for (int i = 0; i < W - 1; ++i) r.w[i] = w[i] >> n | w[i + 1] << (64 - n);
    r.w[W - 1] = w[W - 1] >> n;
    return r;
  }
};

}  // namespace azg
