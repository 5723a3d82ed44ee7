#pragma once
// One training process per run directory: `azg train` holds an exclusive lock on
// RUN_DIR/lock while it runs. The operating system drops the lock when the process ends,
// however it ends, so a crash (or kill -9) never leaves a stale lock behind.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace azg::trainer {

class RunLock {
 public:
  explicit RunLock(const std::string& run_dir) {
    const std::string path = run_dir + "/lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      char holder[32] = {};
      const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
      ::close(fd_);
      std::string pid = n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : "";
      while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
      throw Error(run_dir + " is in use by another azg train" +
                  (pid.empty() ? "" : " (process " + pid + ")") +
                  "; wait for it to end or use another --run-dir");
    }
    const std::string me = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) == 0) {
      [[maybe_unused]] const ssize_t written = ::pwrite(fd_, me.data(), me.size(), 0);
    }
  }
  ~RunLock() {
    if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the lock
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace azg::trainer
