#pragma once
// How the C library's malloc treats tensor-sized blocks.
//
// glibc serves blocks above its mmap threshold (128 KiB at first) with a fresh mmap, and
// returns freed memory at the top of a heap to the kernel above its trim threshold. A
// network's activations are larger than that (Lignes: 96 positions x 32 channels x 16 x 16
// floats = 3 MiB per tensor), so every operator of every forward wrote into pages the
// kernel had to fault in again: on a 2-core AMD EPYC without AVX-512 that was about half
// of an fp32 Lignes forward (docs/performance.md, "On CPUs without native bfloat16 (fp32)").

namespace azg::nets {

// Serves blocks up to 32 MiB from the heap and keeps up to 512 MiB of freed memory per
// heap for reuse, so steady-state forwards and training steps reuse their pages. Leaves
// the settings alone, and returns false, when the user set MALLOC_MMAP_THRESHOLD_ or
// MALLOC_TRIM_THRESHOLD_ (glibc's own tunables) or when the C library refuses them.
bool keep_freed_memory_for_reuse();

}  // namespace azg::nets
