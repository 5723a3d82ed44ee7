#pragma once
// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for an ephemeral
// bind), for tests that start servers of their own (redis-server, a learner group).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace azg {

inline int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

}  // namespace azg
