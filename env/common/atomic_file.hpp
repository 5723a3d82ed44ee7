#pragma once
// Atomic file writes: the content goes to a temporary name in the same folder, is flushed
// to disk, then renamed over the target, so a reader (or a process restarted after a
// crash) sees either the old file or the new one, never a torn one.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "env/common/error.hpp"

namespace azg {

inline void fsync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Calls write(tmp_path) to produce the file, then moves it to `path`.
inline void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  try {
    write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  fsync_path(tmp);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw Error("cannot write " + path + ": " + ec.message());
  }
  const auto parent = std::filesystem::path(path).parent_path();
  fsync_path(parent.empty() ? "." : parent.string());
}

inline void write_text_atomically(const std::string& path, const std::string& text) {
  write_atomically(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw Error("cannot write " + tmp);
  });
}

}  // namespace azg
