#pragma once
// Threads that run beside the caller until `stop` (self-play workers, a learner's feed).
// The first exception any of them throws sets `stop`, so the others and the caller's
// loop end too, and join() rethrows it once every thread has finished.
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace azg::trainer {

class WorkerThreads {
 public:
  explicit WorkerThreads(std::atomic<bool>& stop) : stop_(stop) {}
  ~WorkerThreads() {
    stop_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;

  void start(std::function<void()> body) {
    threads_.emplace_back([this, body = std::move(body)] {
      try {
        body();
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
        stop_ = true;
      }
    });
  }

  // Sets `stop`, waits for every thread, and rethrows the first failure.
  void join() {
    stop_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic<bool>& stop_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::exception_ptr error_;
};

}  // namespace azg::trainer
