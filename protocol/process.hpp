#pragma once
// A child process spoken to by lines: started with `/bin/sh -c COMMAND`, its stdin and
// stdout on pipes (stderr is inherited). Reads wait at most a given time, so a referee is
// never stuck on a hung engine.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

namespace azg::protocol {

class LineProcess {
 public:
  // Throws azg::Error when the process cannot be started.
  explicit LineProcess(const std::string& command);
  ~LineProcess();
  LineProcess(const LineProcess&) = delete;
  LineProcess& operator=(const LineProcess&) = delete;

  // False when the process no longer reads (it exited or closed its input).
  bool send(const std::string& line);
  // The next line, or nullopt when none came within `timeout` or the output ended
  // (ended() then says so).
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  bool ended() const { return ended_; }
  // Kills the process (SIGKILL) and reaps it; idempotent.
  void kill();

 private:
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  bool ended_ = false;
};

}  // namespace azg::protocol
