#include "distributed/redis.hpp"

#include <hiredis/hiredis.h>

#include <cstdlib>
#include <thread>

#include "core/error.hpp"

namespace azg::distributed {
namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

Reply convert(const redisReply* r) {
  Reply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = Reply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = Reply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = Reply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = Reply::Type::kArray;
      for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default:
      out.type = Reply::Type::kNil;
  }
  return out;
}

}  // namespace

Endpoint parse_endpoint(std::string_view text) {
  Endpoint e;
  const auto colon = text.rfind(':');
  e.host = std::string(colon == std::string_view::npos ? text : text.substr(0, colon));
  if (e.host.empty()) throw Error("--redis " + quote_input(text) + " must be HOST:PORT");
  if (colon != std::string_view::npos) {
    const std::string port(text.substr(colon + 1));
    char* end = nullptr;
    const long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || p < 1 || p > 65535)
      throw Error("--redis " + quote_input(text) + ": the port must be a number in [1, 65535]");
    e.port = static_cast<int>(p);
  }
  if (const char* pw = std::getenv("AZG_REDIS_PASSWORD")) e.password = pw;
  return e;
}

Redis::Redis(Endpoint endpoint, Retry retry) : endpoint_(std::move(endpoint)), retry_(retry) {
  try {
    command({"PING"});  // connects, with the same patience as any command
  } catch (...) {
    // No destructor runs for an object whose constructor throws: free the connection here.
    if (context_) redisFree(context_);
    context_ = nullptr;
    throw;
  }
}

Redis::~Redis() {
  if (context_) redisFree(context_);
}

void Redis::connect() {
  if (context_) {
    redisFree(context_);
    context_ = nullptr;
  }
  redisContext* c = redisConnectWithTimeout(endpoint_.host.c_str(), endpoint_.port,
                                            to_timeval(std::chrono::milliseconds(3000)));
  if (c == nullptr) throw Error("cannot allocate a Redis connection");
  if (c->err) {
    const std::string why = c->errstr;
    redisFree(c);
    throw Error("cannot reach Redis at " + endpoint_.host + ":" + std::to_string(endpoint_.port) +
                ": " + why);
  }
  redisSetTimeout(c, to_timeval(retry_.io_timeout));
  context_ = c;
  if (!endpoint_.password.empty()) {
    const char* argv[] = {"AUTH", endpoint_.password.c_str()};
    const std::size_t lens[] = {4, endpoint_.password.size()};
    auto* r = static_cast<redisReply*>(redisCommandArgv(context_, 2, argv, lens));
    const bool ok = r && r->type != REDIS_REPLY_ERROR;
    const std::string why =
        r && r->type == REDIS_REPLY_ERROR ? std::string(r->str, r->len) : "no answer";
    if (r) freeReplyObject(r);
    // A wrong password will not get better by retrying: say so at once.
    if (!ok) {
      redisFree(context_);
      context_ = nullptr;
    }
    if (!ok)
      throw Error("Redis at " + endpoint_.host + ":" + std::to_string(endpoint_.port) +
                  " refused the password (AZG_REDIS_PASSWORD): " + why);
  }
}

Reply Redis::command(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  const auto start = std::chrono::steady_clock::now();
  auto wait = retry_.first;
  std::string last_error;
  for (int attempt = 0;; ++attempt) {
    try {
      if (!context_) connect();
      auto* r = static_cast<redisReply*>(
          redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lens.data()));
      if (r == nullptr) {
        last_error = context_->errstr;
        redisFree(context_);  // the connection is unusable after an I/O error
        context_ = nullptr;
      } else {
        if (r->type == REDIS_REPLY_ERROR) {
          const std::string why(r->str, r->len);
          freeReplyObject(r);
          // LOADING: a restarted server still reading its AOF; retry like a stall.
          if (why.rfind("LOADING", 0) != 0)
            throw Error("Redis refused " + args.front() + ": " + why);
          last_error = why;
        } else {
          Reply out = convert(r);
          freeReplyObject(r);
          return out;
        }
      }
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.find("refused the password") != std::string::npos ||
          what.rfind("Redis refused", 0) == 0)
        throw;
      last_error = what;
    }
    if (std::chrono::steady_clock::now() - start + wait > retry_.give_up)
      throw Error("Redis at " + endpoint_.host + ":" + std::to_string(endpoint_.port) +
                  " did not answer for " + std::to_string(retry_.give_up.count() / 1000) +
                  " s: " + last_error);
    ++reconnects_;
    std::this_thread::sleep_for(wait);
    wait = std::min(retry_.longest, wait * 2);
  }
}

}  // namespace azg::distributed
