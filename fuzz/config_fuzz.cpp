// Fuzzes training configs: a YAML file, then `--set KEY=VALUE` lines after a line that
// reads "--set". A config that loads and validates must write itself back (to_yaml) as
// YAML that loads to the same config (the same hash).
#include <cstdint>
#include <string>

#include "env/common/notation.hpp"
#include "fuzz/fuzz_support.hpp"
#include "trainer/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = azg::fuzz::as_text(data, size);
  const auto split = input.find("\n--set\n");
  const std::string yaml(input.substr(0, split));
  azg::fuzz::expect_only_errors([&] {
    auto config = azg::trainer::TrainConfig::defaults();
    config.load_yaml_text(yaml, "fuzz.yaml");
    if (split != std::string_view::npos) {
      std::string_view rest = input.substr(split + 7);
      while (!rest.empty()) {
        const auto nl = rest.find('\n');
        config.set(std::string(rest.substr(0, nl)));
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
      }
    }
    config.validate();
    // Past validate() the config is good: writing it back and reading that must succeed.
    auto again = azg::trainer::TrainConfig::defaults();
    try {
      again.load_yaml_text(config.to_yaml(false), "written back");
    } catch (const azg::Error&) {
      azg::fuzz::require(false);
    }
    azg::fuzz::require(again.hash() == config.hash());
  });
  return 0;
}
