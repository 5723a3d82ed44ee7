#pragma once
// The learners of one data-parallel run (`azg learner --learners N`), on torch.distributed:
// rank 0 hosts a c10d TCPStore that every rank meets at, and a Gloo process group sums
// their tensors. Each learner trains on its own shard of the games; after each backward
// pass the gradients are averaged here, so every rank applies the same step and the N
// copies of the network stay equal (one learner at N times the batch).
//
// LibTorch-free on purpose: the trainer's templates include it. Every call is collective
// (all ranks make it, in the same order); a rank that dies makes the others' next call
// throw at once (Gloo sees the connection close), and a rank that never answers makes it
// throw after `timeout`.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

namespace azg::parallel {

struct GroupOptions {
  int rank = 0;
  int size = 1;
  std::string rendezvous = "127.0.0.1:29500";  // HOST:PORT of rank 0's store
  // The address the other ranks reach this one at. Default: 127.0.0.1 when the rendezvous
  // is on the loopback, else this host's name.
  std::string bind;
  // How long a collective waits for a silent rank (rank 0's evaluations pause the others).
  std::chrono::seconds timeout{1800};
};

// "HOST:PORT" with a port in 1..65535; throws azg::Error naming the text otherwise.
std::pair<std::string, int> parse_rendezvous(const std::string& text);
// The size, the rank and the rendezvous checked (one-line azg::Error on the first wrong
// one); answers the rendezvous's host and port.
std::pair<std::string, int> check_group_options(const GroupOptions& options);

class LearnerGroup {
 public:
  // Blocks until all `size` ranks have joined; throws azg::Error (one line) on a bad
  // option, a port in use, or a rank missing after `timeout`.
  explicit LearnerGroup(const GroupOptions& options);
  ~LearnerGroup();
  LearnerGroup(const LearnerGroup&) = delete;
  LearnerGroup& operator=(const LearnerGroup&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // In place: the element-wise sum over the ranks (small control vectors).
  void sum(double* values, std::size_t n);
  // In place: the element-wise mean over the ranks (gradients).
  void average(float* values, std::size_t n);
  // Rank 0's `bytes` on every rank (the others pass anything, e.g. "").
  std::string share(const std::string& bytes);
  void barrier();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rank_, size_;
};

}  // namespace azg::parallel
