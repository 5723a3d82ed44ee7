#include "nets/zip_integrity.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/error.hpp"

namespace azg::nets {
namespace {

std::uint32_t crc32(const unsigned char* data, std::size_t size) {
  static constexpr auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

// Little-endian reads, each checked against the buffer's end.
class Bytes {
 public:
  Bytes(const std::vector<unsigned char>& b, const std::string& path) : b_(b), path_(path) {}
  std::uint32_t u32(std::size_t at) const {
    return need(at, 4),
           b_[at] | b_[at + 1] << 8 | b_[at + 2] << 16 | std::uint32_t{b_[at + 3]} << 24;
  }
  std::uint16_t u16(std::size_t at) const {
    return need(at, 2), static_cast<std::uint16_t>(b_[at] | b_[at + 1] << 8);
  }
  void need(std::size_t at, std::size_t n) const {
    if (at > b_.size() || n > b_.size() - at) damaged("a zip record runs past the end of the file");
  }
  [[noreturn]] void damaged(const std::string& why) const {
    throw Error(path_ + " is damaged: " + why);
  }

 private:
  const std::vector<unsigned char>& b_;
  const std::string& path_;
};

constexpr std::uint32_t kEndOfDirectory = 0x06054b50, kDirectoryEntry = 0x02014b50,
                        kLocalHeader = 0x04034b50;

}  // namespace

void check_zip_integrity(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path);
  const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const Bytes b(file, path);
  // The end-of-directory record: 22 bytes, then a comment of up to 65,535 bytes.
  if (file.size() < 22) b.damaged("too short to be a zip archive");
  std::size_t end = file.size() - 22;
  const std::size_t lowest = file.size() >= 22 + 65535 ? file.size() - 22 - 65535 : 0;
  while (b.u32(end) != kEndOfDirectory) {
    if (end == lowest) b.damaged("no zip directory at its end (cut short?)");
    --end;
  }
  const std::uint16_t entries = b.u16(end + 10);
  const std::uint32_t dir_size = b.u32(end + 12), dir_offset = b.u32(end + 16);
  if (entries == 0xFFFF || dir_offset == 0xFFFFFFFFu) return;  // zip64: left to LibTorch
  if (std::uint64_t{dir_offset} + dir_size > end)
    b.damaged("its zip directory lies outside the file");
  std::size_t at = dir_offset;
  for (int e = 0; e < entries; ++e) {
    if (b.u32(at) != kDirectoryEntry)
      b.damaged("zip directory entry " + std::to_string(e) + " is unreadable");
    const std::uint16_t method = b.u16(at + 10);
    const std::uint32_t crc = b.u32(at + 16), packed = b.u32(at + 20), size = b.u32(at + 24);
    const std::size_t name_len = b.u16(at + 28), extra_len = b.u16(at + 30),
                      comment_len = b.u16(at + 32);
    const std::uint32_t local = b.u32(at + 42);
    b.need(at + 46, name_len);
    const std::string name(file.begin() + static_cast<std::ptrdiff_t>(at + 46),
                           file.begin() + static_cast<std::ptrdiff_t>(at + 46 + name_len));
    if (packed == 0xFFFFFFFFu || size == 0xFFFFFFFFu || local == 0xFFFFFFFFu) return;  // zip64
    if (b.u32(local) != kLocalHeader)
      b.damaged("entry '" + name + "' has no header where the directory says");
    const std::size_t data = std::size_t{local} + 30 + b.u16(local + 26) + b.u16(local + 28);
    if (data > dir_offset || packed > dir_offset - data)
      b.damaged("entry '" + name + "' runs past its place in the file");
    if (method == 0 && (packed != size || crc32(file.data() + data, size) != crc))
      b.damaged("entry '" + name + "' does not match its checksum");
    at += 46 + name_len + extra_len + comment_len;
  }
}

}  // namespace azg::nets
