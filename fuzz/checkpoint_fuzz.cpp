// Fuzzes checkpoints (model.ckpt) as a resuming run reads them: the metadata first, checked
// against the game, then the tensors and the optimizer state. One byte picks the game, the
// rest is the file. GCC only, like model_file_fuzz (LibTorch's headers and clang 14).
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "nets/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] {
      const std::string path = "/tmp/azg-fuzz-ckpt-" + std::to_string(::getpid()) + ".ckpt";
      std::ofstream(path, std::ios::binary | std::ios::trunc)
          .write(input.data(), static_cast<std::streamsize>(input.size()));
      azg::nets::read_checkpoint_meta(path).template check_game<G>(path);
      azg::nets::load_checkpoint(path, azg::nets::OptimConfig{}, torch::kCPU, nullptr);
    });
  });
  return 0;
}
