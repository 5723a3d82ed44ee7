#pragma once
// A small blocking Redis client over hiredis (Debian's libhiredis-dev, 0.14): binary-safe
// commands, replies as values, and reconnection with exponential backoff when the server
// or the network stalls. Errors are one-line azg::Error.
//
// Passwords: hiredis 0.14 has no TLS. A password (Redis `requirepass`) comes from the
// environment (AZG_REDIS_PASSWORD), never from the command line where `ps` shows it;
// across untrusted networks run Redis behind an SSH tunnel (docs/distributed.md).
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace azg::distributed {

struct Endpoint {
  std::string host;
  int port = 6379;
  std::string password;  // empty: no AUTH
};

// "HOST:PORT" (or "HOST", port 6379), with the password from AZG_REDIS_PASSWORD.
Endpoint parse_endpoint(std::string_view text);

struct Reply {
  enum class Type { kString, kArray, kInteger, kNil, kStatus };
  Type type = Type::kNil;
  std::string str;  // string and status replies
  long long integer = 0;
  std::vector<Reply> elements;

  bool nil() const { return type == Type::kNil; }
};

// How hard a command tries before it gives up: waits from `first` doubling to `longest`,
// for at most `give_up` in all.
struct Retry {
  std::chrono::milliseconds first{50};
  std::chrono::milliseconds longest{2000};
  std::chrono::milliseconds give_up{60000};
  std::chrono::milliseconds io_timeout{30000};  // one command's socket timeout
};

class Redis {
 public:
  explicit Redis(Endpoint endpoint, Retry retry = {});
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // Runs one command. A connection that fails is reopened and the command sent again,
  // with backoff, until `retry.give_up`; a command Redis refuses throws at once. Commands
  // sent twice this way must be safe to repeat (callers make them so: see game_stream.hpp).
  Reply command(const std::vector<std::string>& args);
  // Times the client waited for a connection since it was made (for logs and tests).
  int reconnects() const { return reconnects_; }
  const Endpoint& endpoint() const { return endpoint_; }

 private:
  void connect();
  Endpoint endpoint_;
  Retry retry_;
  redisContext* context_ = nullptr;
  int reconnects_ = 0;
};

}  // namespace azg::distributed
