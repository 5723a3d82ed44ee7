// Fuzzes the files a run reads back when it resumes: one byte picking the game, one byte
// picking the file (even: the replay buffer, buffer.bin; odd: state.json), then its bytes
// (checkpoints: checkpoint_fuzz). Each must load or be refused with azg::Error, never read
// past its end, and never allocate what a damaged header claims.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "trainer/replay_buffer.hpp"
#include "trainer/run_state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    if (input.empty()) return;
    const int file = static_cast<unsigned char>(input[0]) % 2;
    input.remove_prefix(1);
    azg::fuzz::expect_only_errors([&] {
      if (file == 0) {
        azg::trainer::ReplayBuffer<G> buffer(1000);
        buffer.load_bytes(input, "buffer.bin");
        azg::fuzz::require(buffer.size() <= 1000);
      } else {
        const auto c = azg::trainer::RunCounters::parse(input, "state.json");
        azg::fuzz::require(c.step >= 0 && c.games >= 0);
      }
    });
  });
  return 0;
}
