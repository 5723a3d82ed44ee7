#pragma once
// `azg serve`'s HTTP side: cpp-httplib serving the embedded page and the JSON API.
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "web/api.hpp"

namespace azg::web {

class Server {
 public:
  explicit Server(Api& api);
  ~Server();
  // Binds `host`:`port` (0: any free port) and returns the port; throws when it cannot.
  int bind(const std::string& host, int port);
  // Serves until stop() (from another thread or a signal handler's thread).
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace azg::web
