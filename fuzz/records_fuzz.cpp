// Fuzzes the game record reader (play/game_record_reader.hpp) that `azg records` and the
// tools that replay games use: one byte picking the game, then one JSON line.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "play/game_record_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] {
      const auto r = azg::play::read_game_record<G>(input, "fuzz:1");
      // A record that loads replays to a finished game or says why it stopped.
      const G end = azg::replay(G::from_setup(r.record.setup), r.record.actions);
      azg::fuzz::require(end.is_terminal() || !r.termination.empty());
    });
  });
  return 0;
}
