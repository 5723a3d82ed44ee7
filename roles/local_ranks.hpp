#pragma once
// `azg learner --learners N` with no --rank: this process is rank 0 and starts ranks
// 1..N-1 on this machine, each this program again with the same command line and
// `--rank k`. A child dies with its parent (PR_SET_PDEATHSIG); the parent stops and reaps
// the children it leaves behind.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace azg::roles {

class LocalRanks {
 public:
  LocalRanks(const std::vector<std::string>& command, int learners) {
    if (command.empty())
      throw Error("starting the other learners needs this process's command line");
    const pid_t parent = ::getpid();
    for (int rank = 1; rank < learners; ++rank) {
      std::vector<std::string> args = command;
      args.push_back("--rank");
      args.push_back(std::to_string(rank));
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      const pid_t pid = ::fork();
      if (pid < 0)
        throw Error(std::string("could not start learner rank ") + std::to_string(rank) + ": " +
                    std::strerror(errno));
      if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);  // the parent died before prctl
        ::execv("/proc/self/exe", argv.data());
        ::_exit(127);
      }
      children_.push_back(pid);
    }
  }

  // Waits for every child; false if one failed.
  bool wait() {
    bool ok = true;
    for (pid_t& pid : children_) {
      int status = 0;
      if (pid > 0 && ::waitpid(pid, &status, 0) == pid &&
          !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        ok = false;
      pid = 0;
    }
    return ok;
  }

  ~LocalRanks() {
    for (pid_t pid : children_)
      if (pid > 0) ::kill(pid, SIGTERM);
    wait();
  }

  LocalRanks(const LocalRanks&) = delete;
  LocalRanks& operator=(const LocalRanks&) = delete;

 private:
  std::vector<pid_t> children_;
};

}  // namespace azg::roles
