#include "parallel/learner_group.hpp"

#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <vector>

#include "core/error.hpp"

namespace azg::parallel {
namespace {

// The first line of a LibTorch or Gloo message, which carries a C++ backtrace after it.
std::string first_line(const std::exception& e) {
  std::string text = e.what();
  const auto end = text.find('\n');
  if (end != std::string::npos) text.resize(end);
  return text;
}

bool loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

}  // namespace

struct LearnerGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  std::int64_t shares = 0;
};

LearnerGroup::LearnerGroup(const GroupOptions& o)
    : impl_(std::make_unique<Impl>()), rank_(o.rank), size_(o.size) {
  const auto [host, port] = check_group_options(o);
  const std::string where =
      "learner group (rank " + std::to_string(o.rank) + " of " + std::to_string(o.size) + ")";
  try {
    c10d::TCPStoreOptions store_options;
    store_options.port = static_cast<std::uint16_t>(port);
    store_options.isServer = o.rank == 0;
    store_options.numWorkers = o.size;
    store_options.waitWorkers = true;
    store_options.timeout = o.timeout;
    impl_->store = c10::make_intrusive<c10d::TCPStore>(host, store_options);
  } catch (const std::exception& e) {
    throw Error(where + ": no rendezvous at " + o.rendezvous + " (" + first_line(e) + ")");
  }
  try {
    auto options = c10d::ProcessGroupGloo::Options::create();
    options->timeout = o.timeout;
    const std::string bind = !o.bind.empty() ? o.bind : loopback(host) ? "127.0.0.1" : "";
    options->devices.push_back(bind.empty()
                                   ? c10d::ProcessGroupGloo::createDefaultDevice()
                                   : c10d::ProcessGroupGloo::createDeviceForHostname(bind));
    impl_->group =
        c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, o.rank, o.size, options);
  } catch (const std::exception& e) {
    throw Error(where + ": could not connect to the other learners (" + first_line(e) + ")");
  }
}

LearnerGroup::~LearnerGroup() = default;

namespace {
template <class F>
void collective(const char* what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    throw Error(std::string("learner group: ") + what + " failed, a learner is gone or silent (" +
                first_line(e) + ")");
  }
}
}  // namespace

void LearnerGroup::sum(double* values, std::size_t n) {
  if (size_ == 1 || n == 0) return;
  collective("a sum", [&] {
    std::vector<at::Tensor> t{
        torch::from_blob(values, {static_cast<std::int64_t>(n)}, torch::kDouble)};
    impl_->group->allreduce(t)->wait();
  });
}

void LearnerGroup::average(float* values, std::size_t n) {
  if (size_ == 1 || n == 0) return;
  collective("the gradient average", [&] {
    std::vector<at::Tensor> t{
        torch::from_blob(values, {static_cast<std::int64_t>(n)}, torch::kFloat)};
    impl_->group->allreduce(t)->wait();
    t[0].div_(static_cast<double>(size_));
  });
}

std::string LearnerGroup::share(const std::string& bytes) {
  if (size_ == 1) return bytes;
  const std::string key = "azg/share/" + std::to_string(impl_->shares++);
  std::string result;
  collective("sharing rank 0's state", [&] {
    if (rank_ == 0) {
      impl_->store->set(key, std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
      result = bytes;
    } else {
      const std::vector<std::uint8_t> got = impl_->store->get(key);  // waits for the key
      result.assign(got.begin(), got.end());
    }
  });
  barrier();  // everyone has it: the store can let it go
  if (rank_ == 0) impl_->store->deleteKey(key);
  return result;
}

void LearnerGroup::barrier() {
  if (size_ == 1) return;
  // An all-reduce of one number: Gloo's barrier, without its extra rendezvous options.
  double one = 1;
  sum(&one, 1);
}

}  // namespace azg::parallel
