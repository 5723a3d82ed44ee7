// Fuzzes whole model files (TorchScript archives with meta.json) through the loader that
// `az:model=PATH` uses: one byte picking the game, then the file's bytes. LibTorch 1.13's
// headers do not compile with clang 14 in C++20, so this target is built by GCC only and
// fuzzed by corpus_main's mutations (tools/fuzz.sh) under AddressSanitizer.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "nets/inference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] {
      const std::string path = "/tmp/azg-fuzz-model-" + std::to_string(::getpid()) + ".pt";
      std::ofstream(path, std::ios::binary | std::ios::trunc)
          .write(input.data(), static_cast<std::streamsize>(input.size()));
      const auto model = azg::nets::InferenceModel::load(path, "cpu", "fp32");
      model->meta().template check_game<G>(path);
    });
  });
  return 0;
}
