// Fuzzes meta.json, what a model brings from another machine: one byte picking the game,
// then the JSON, read and checked against the game as `az:model=` does. (Whole model files
// go through model_file_fuzz.)
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "nets/model_meta.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = azg::fuzz::as_text(data, size);
  azg::fuzz::with_game_from_byte(input, [&](auto type) {
    using G = typename decltype(type)::type;
    azg::fuzz::expect_only_errors([&] {
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(input);
      } catch (const nlohmann::json::exception&) {
        return;  // the loaders turn text that is not JSON into one line (tests/nets_test.cpp)
      }
      const auto meta = azg::nets::ModelMeta::from_json(j, "meta.json");
      meta.template check_game<G>("meta.json");
    });
  });
  return 0;
}
