#pragma once
// What this CPU and the libraries under LibTorch can do, asked once at start-up: native
// bfloat16 arithmetic (which decides the default inference precision) and whether
// OpenBLAS recognised the CPU (which decides its kernels).
#include <optional>
#include <string>

namespace azg::nets {

// True when the CPU has bfloat16 dot products in hardware (AVX512_BF16 or AMX-BF16), so
// oneDNN runs bfloat16 convolutions at about twice the float32 rate. Without them
// bfloat16 is emulated and slower than float32.
bool cpu_has_native_bf16();

// The name of the kernel set OpenBLAS chose ("Haswell", "SkylakeX", "Prescott", ...), or
// nothing when the BLAS under LibTorch is not OpenBLAS.
std::optional<std::string> openblas_core();

// OpenBLAS reads OPENBLAS_CORETYPE once, when it is loaded, and falls back to its SSE3
// (Prescott) kernels on CPUs it does not recognise (virtual machines often report a
// generic model name). When that happened, the variable is unset and the CPU has AVX2
// and FMA, this sets OPENBLAS_CORETYPE=Haswell and re-executes the program (argv
// unchanged) without a word, so that errors stay one line; it returns only when nothing
// needs doing (or the re-exec failed, which it reports on stderr). AZG_NO_BLAS_REEXEC=1
// turns it off.
void reexec_for_blas_kernels(char** argv);

// In a process that reexec_for_blas_kernels restarted: why, in one sentence ("azg restarted
// with OPENBLAS_CORETYPE=Haswell: ..."); empty otherwise.
std::string openblas_restart_note();

}  // namespace azg::nets
