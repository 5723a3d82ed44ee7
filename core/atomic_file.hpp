#pragma once
// Atomic file writes: the content goes to a temporary name in the same folder, is flushed
// to disk, then renamed over the target, so a reader (or a process restarted after a
// crash) sees either the old file or the new one, never a torn one.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace azg {

// False when the data could not be made durable (a full or failing disk).
inline bool fsync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// Why a write into `path`'s folder may have failed, for the error: a full disk is the
// usual cause, and the writers (streams, LibTorch) do not say it themselves.
inline std::string write_failure_reason(const std::string& path, const std::string& fallback) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  const auto space = std::filesystem::space(parent.empty() ? "." : parent, ec);
  if (!ec && space.available < (std::uintmax_t{1} << 20))
    return "the disk is full (" + std::to_string(space.available) + " bytes free)";
  return fallback;
}

// Calls write(tmp_path) to produce the file, then moves it to `path`. On any failure the
// temporary file is removed and `path` keeps its old content; the error says why.
inline void write_atomically(const std::string& path,
                             const std::function<void(const std::string&)>& write) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  try {
    write(tmp);
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (const auto nl = what.find('\n'); nl != std::string::npos)
      what.resize(nl);  // LibTorch adds a backtrace
    const std::string reason =
        write_failure_reason(path, what);  // while the partial file still fills the disk
    std::remove(tmp.c_str());
    throw Error("cannot write " + path + ": " + reason);
  }
  if (!fsync_path(tmp)) {
    const std::string reason = write_failure_reason(path, std::strerror(errno));
    std::remove(tmp.c_str());
    throw Error("cannot write " + path + ": " + reason);
  }
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
    if (!out) throw Error(std::strerror(errno));
  });
}

}  // namespace azg
