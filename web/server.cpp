#include "web/server.hpp"

#include <httplib.h>

#include "core/error.hpp"
#include "web/static_files.hpp"

namespace azg::web {

struct Server::Impl {
  Api& api;
  httplib::Server http;
  explicit Impl(Api& a) : api(a) {}
};

namespace {

constexpr std::size_t kMaxBody = 4 << 20;  // a long game record fits many times over

void answer(Api& api, const httplib::Request& req, httplib::Response& res) {
  std::map<std::string, std::string> query;
  for (const auto& [k, v] : req.params) query[k] = v;
  const Reply r = api.handle(req.method, req.path, query, req.body);
  res.status = r.status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(r.body, r.content_type.c_str());
}

}  // namespace

Server::Server(Api& api) : impl_(std::make_unique<Impl>(api)) {
  auto& http = impl_->http;
  http.set_payload_max_length(kMaxBody);
  http.Get("/api/.*", [this](const httplib::Request& req, httplib::Response& res) {
    answer(impl_->api, req, res);
  });
  http.Post("/api/.*", [this](const httplib::Request& req, httplib::Response& res) {
    answer(impl_->api, req, res);
  });
  http.Delete("/api/.*", [this](const httplib::Request& req, httplib::Response& res) {
    answer(impl_->api, req, res);
  });
  http.Get("/.*", [](const httplib::Request& req, httplib::Response& res) {
    if (const auto f = static_file(req.path)) {
      res.set_content(std::string(f->content), std::string(f->content_type).c_str());
      return;
    }
    res.status = 404;
    res.set_content(R"({"error":"no such page"})", "application/json");
  });
  // Api::handle answers every request itself; anything thrown past it is a bug, answered
  // as one line rather than a dropped connection.
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
        std::string message = "internal error";
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& ex) {
          message += std::string(": ") + ex.what();
        } catch (...) {
        }
        res.status = 500;
        res.set_content(nlohmann::json{{"error", message}}.dump(
                            -1, ' ', false, nlohmann::json::error_handler_t::replace),
                        "application/json");
      });
  // Errors httplib raises itself (a body over the limit, a malformed request line).
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message = res.status == 413 ? "the request body is over 4 MB" : "bad request";
    res.set_content(nlohmann::json{{"error", message}}.dump(), "application/json");
  });
}

Server::~Server() {
  stop();
}

int Server::bind(const std::string& host, int port) {
  auto& http = impl_->http;
  if (port == 0) {
    const int p = http.bind_to_any_port(host);
    if (p < 0) throw Error("cannot listen on " + host + " (any port)");
    return p;
  }
  if (!http.bind_to_port(host, port))
    throw Error("cannot listen on " + host + ":" + std::to_string(port) +
                " (in use, or not an address of this machine)");
  return port;
}

void Server::run() {
  impl_->http.listen_after_bind();
}

void Server::stop() {
  impl_->http.stop();
}

}  // namespace azg::web
