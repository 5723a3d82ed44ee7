#pragma once
// What makes two exported models one network, whose weights can be averaged or loaded
// into each other: every meta field but where the weights stand (the training step and
// the config hash of the run that made them).
#include <nlohmann/json.hpp>
#include <string>

#include "nets/model_meta.hpp"

namespace azg::nets {

inline nlohmann::json network_identity(const ModelMeta& meta) {
  nlohmann::json j = meta.to_json();
  j.erase("training_step");
  j.erase("config_hash");
  return j;
}

// The first top-level key (or net.* key) where two identities differ, for error messages.
inline std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.at("game") != b.at("game")) return "game";
  for (const auto& [key, value] : a.items()) {
    if (b.contains(key) && b.at(key) == value) continue;
    if (key == "net" && value.is_object() && b.contains(key))
      for (const auto& [k, v] : value.items())
        if (!b.at(key).contains(k) || b.at(key).at(k) != v) return "net." + k;
    return key;
  }
  return "meta.json";
}

}  // namespace azg::nets
