#include "nets/cpu_support.hpp"

#include <cpuid.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace azg::nets {

bool cpu_has_native_bf16() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  // Leaf 7, sub-leaf 1: EAX bit 5 is AVX512_BF16. Leaf 7, sub-leaf 0: EDX bit 22 is AMX-BF16.
  __cpuid_count(7, 1, eax, ebx, ecx, edx);
  const bool avx512_bf16 = (eax >> 5) & 1u;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  const bool amx_bf16 = (edx >> 22) & 1u;
  // The OS must also save the AVX-512 state (XCR0 bits 5-7) for AVX512_BF16 to be usable.
  __cpuid(1, eax, ebx, ecx, edx);
  const bool osxsave = (ecx >> 27) & 1u;
  if (!osxsave) return false;
  unsigned xcr0_lo = 0, xcr0_hi = 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  const bool avx512_state = (xcr0_lo & 0xE6u) == 0xE6u;
  return (avx512_bf16 && avx512_state) || amx_bf16;
#else
  return false;
#endif
}

std::optional<std::string> openblas_core() {
  using CoreName = char* (*)();
  const auto name = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (name == nullptr) return std::nullopt;
  const char* core = name();
  return std::string(core != nullptr ? core : "");
}

namespace {
// Set for the restarted process: the kernel set OpenBLAS chose before the restart.
constexpr const char* kRestartedFrom = "AZG_BLAS_RESTARTED_FROM";
}  // namespace

std::string openblas_restart_note() {
  const char* from = std::getenv(kRestartedFrom);
  const char* now = std::getenv("OPENBLAS_CORETYPE");
  if (from == nullptr || now == nullptr) return "";
  return std::string("azg restarted with OPENBLAS_CORETYPE=") + now +
         ": OpenBLAS did not recognise this CPU and chose " + from + " (SSE3) kernels";
}

void reexec_for_blas_kernels(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  if (const char* off = std::getenv("AZG_NO_BLAS_REEXEC");
      off != nullptr && std::strcmp(off, "1") == 0)
    return;
  const auto core = openblas_core();
  if (!core || *core != "Prescott") return;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return;
  // Silent: a notice here would be a second line before every one-line error. The restarted
  // process learns why from kRestartedFrom, and `azg bench nn` reports it.
  ::setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  ::setenv(kRestartedFrom, core->c_str(), 1);
  ::execv("/proc/self/exe", argv);
  std::cerr << "azg: could not restart (" << std::strerror(errno)
            << "); going on with the SSE3 kernels\n";
#else
  (void)argv;
#endif
}

}  // namespace azg::nets
