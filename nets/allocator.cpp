#include "nets/allocator.hpp"

#include <malloc.h>

#include <cstdlib>

namespace azg::nets {

bool keep_freed_memory_for_reuse() {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr ||
      std::getenv("MALLOC_TRIM_THRESHOLD_") != nullptr)
    return false;
#if defined(__GLIBC__)
  // 32 MiB is the largest mmap threshold glibc accepts on 64-bit systems. Setting either
  // value also stops glibc's own threshold adjustment.
  constexpr int kMmapThreshold = 32 << 20;
  constexpr int kTrimThreshold = 512 << 20;
  return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 &&
         mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
#else
  return false;
#endif
}

}  // namespace azg::nets
