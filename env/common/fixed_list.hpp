#pragma once
// A list with a compile-time capacity and no heap: legal actions and chance outcomes are
// generated into caller-supplied FixedLists so the search never allocates per node.
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace azg {

template <class T, std::size_t N>
class FixedList {
 public:
  static constexpr std::size_t kCapacity = N;

  void push_back(const T& value) {
    assert(size_ < N && "FixedList capacity exceeded");
    items_[size_++] = value;
  }
  void clear() { size_ = 0; }
  void resize(std::size_t n) {
    assert(n <= N);
    size_ = static_cast<std::uint32_t>(n);
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  T* data() { return items_.data(); }
  const T* data() const { return items_.data(); }

 private:
  std::array<T, N> items_;
  std::uint32_t size_ = 0;
};

}  // namespace azg
