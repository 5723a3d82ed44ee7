// keep_freed_memory_for_reuse: tensor-sized blocks come from the heap and stay with the
// process after a free, so the next forward does not fault its pages in again.
#include "nets/allocator.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace azg::nets {
namespace {

TEST(Allocator, TensorSizedBlocksAreKeptForReuse) {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr ||
      std::getenv("MALLOC_TRIM_THRESHOLD_") != nullptr) {
    EXPECT_FALSE(keep_freed_memory_for_reuse()) << "the user's own settings win";
    GTEST_SKIP() << "the environment sets glibc's malloc tunables";
  }
  ASSERT_TRUE(keep_freed_memory_for_reuse());
  constexpr std::size_t kBlock =
      8u << 20;  // a batch's activations: above glibc's default 128 KiB threshold
  const std::size_t mapped_before = mallinfo2().hblks;
  void* block = std::malloc(kBlock);
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, kBlock);
  EXPECT_EQ(mallinfo2().hblks, mapped_before) << "an 8 MiB block came from its own mmap";
  std::free(block);
  EXPECT_GE(mallinfo2().fordblks, kBlock) << "the freed block went back to the kernel";
}

}  // namespace
}  // namespace azg::nets
