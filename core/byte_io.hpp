#pragma once
// Binary files the runs write for themselves (the replay buffer): values appended to a
// string, read back through a cursor that refuses to read past the end, and a checksum
// over the whole so that a torn or damaged file is refused before any of it is used.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/error.hpp"

namespace azg {

// FNV-1a, 64 bits: not cryptographic, but every flipped byte changes it.
inline std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

// `bytes` without the FNV-1a-64 its writer appended (w.pod(fnv1a64(w.bytes()))), once it
// matches; `source` names the file or message in the error. `bytes` must hold at least the
// 8 bytes of the checksum (callers refuse shorter input in their own words).
inline std::string_view without_checksum(std::string_view bytes, const std::string& source) {
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
  bytes.remove_suffix(sizeof stored);
  if (fnv1a64(bytes) != stored) throw Error(source + " is damaged (its checksum does not match)");
  return bytes;
}

class ByteWriter {
 public:
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void raw(const void* data, std::size_t size) {
    bytes_.append(static_cast<const char*>(data), size);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// Reads from `bytes`; the first read past the end throws azg::Error("<source> is cut
// short"), so a truncated file never yields values from beyond it.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::string source)
      : bytes_(bytes), source_(std::move(source)) {}

  template <class T>
  T pod() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    raw(&v, sizeof v);
    return v;
  }
  void raw(void* out, std::size_t size) {
    if (size > remaining()) throw Error(source_ + " is cut short (a truncated or damaged file)");
    std::memcpy(out, bytes_.data() + pos_, size);
    pos_ += size;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  // Throws unless `count` items of at least `item_size` bytes each can still follow: a
  // count read from a file is checked against the file before anything is allocated.
  void expect_items(std::uint64_t count, std::size_t item_size) const {
    if (item_size > 0 && count > remaining() / item_size)
      throw Error(source_ + " claims " + std::to_string(count) +
                  " items, more than its size holds (a damaged file)");
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::string source_;
};

}  // namespace azg
