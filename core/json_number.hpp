#pragma once
// Numbers read from JSON that came from outside (meta.json, state.json, protocol queries,
// calibration files). nlohmann's get<int>() on 1e300 or 3.5 converts a double that may not
// fit: undefined behaviour, found by fuzz/model_meta_fuzz. These check first.
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"

namespace azg {

// `j` as a whole number in [lo, hi] (3.0 counts, 3.5 and "3" do not); throws azg::Error
// "<what> must be a whole number in [lo, hi]".
inline std::int64_t json_whole(const nlohmann::json& j, const std::string& what, std::int64_t lo,
                               std::int64_t hi) {
  auto fail = [&]() -> std::int64_t {
    throw Error(what + " must be a whole number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
  };
  std::int64_t v = 0;
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return fail();
    v = static_cast<std::int64_t>(u);
  } else if (j.is_number_integer()) {
    v = j.get<std::int64_t>();
  } else if (j.is_number_float()) {
    const double d = j.get<double>();
    // The range test comes first: only then is the conversion defined.
    if (!(d >= -9.2e18 && d <= 9.2e18) || d != std::floor(d)) return fail();
    v = static_cast<std::int64_t>(d);
  } else {
    return fail();
  }
  if (v < lo || v > hi) return fail();
  return v;
}

// `j` as a finite number in [lo, hi].
inline double json_real(const nlohmann::json& j, const std::string& what, double lo, double hi) {
  const double v = j.is_number() ? j.get<double>() : std::nan("");
  if (!(v >= lo && v <= hi))
    throw Error(what + " must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                "]");
  return v;
}

// `j` as an unsigned 64-bit word (RNG states): a non-negative integer, no float.
inline std::uint64_t json_word(const nlohmann::json& j, const std::string& what) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(j.get<std::int64_t>());
  throw Error(what + " must be a non-negative whole number");
}

}  // namespace azg
