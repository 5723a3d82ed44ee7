#pragma once
// What travels with every checkpoint and exported model (meta.json): the game, its
// encoding, the network shape and where the weights come from. No LibTorch here.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/json_number.hpp"
#include "env/common/game_traits.hpp"

namespace azg::nets {

// How agents read a leaf: as it stands ("0"), under one random symmetry of the game ("1"),
// or as the mean over all of them ("all"). The one mapping between those names (an az
// spec's symmetry=, `azg export --play-symmetry`, `azg models`) and NetConfig's two fields.
struct PlaySymmetry {
  bool random = false;  // net.play_symmetry
  bool mean = false;    // net.play_symmetry_mean; overrides random
  static constexpr const char* kChoices = "0, 1 or all";
  // Empty for a name other than 0, 1 or all.
  static std::optional<PlaySymmetry> from_name(const std::string& name) {
    if (name == "0") return PlaySymmetry{};
    if (name == "1") return PlaySymmetry{true, false};
    if (name == "all") return PlaySymmetry{false, true};
    return std::nullopt;
  }
  std::string name() const { return mean ? "all" : random ? "1" : "0"; }
};

struct NetConfig {
  int blocks = 4;
  int channels = 32;
  bool global_pooling = true;       // a pooled-channel bias inside each block (KataGo style)
  std::string value_head = "tanh";  // "tanh" or "wdl"
  int value_hidden = 64;
  bool ownership = false;  // an auxiliary per-cell head trained on the game's ownership()
  // "fc": a 2-plane bottleneck and a dense layer to every policy index; "conv": one logit
  // plane per move kind read at the action's cell, through the game's policy map; "pairs":
  // conv, plus a move's from-cell features against its to-cell's on destination planes.
  std::string policy_head = "fc";
  // The heads' names, once: the config's check, meta.json's and the CLI's choices.
  static constexpr std::array<const char*, 3> kPolicyHeads{"fc", "conv", "pairs"};
  // "fc, conv or pairs": for the messages and the CLI's help.
  static std::string policy_head_choices() {
    std::string text;
    for (std::size_t i = 0; i < kPolicyHeads.size(); ++i)
      text += std::string(i == 0                         ? ""
                          : i + 1 == kPolicyHeads.size() ? " or "
                                                         : ", ") +
              kPolicyHeads[i];
    return text;
  }
  static bool known_policy_head(const std::string& name) {
    return std::find(kPolicyHeads.begin(), kPolicyHeads.end(), name) != kPolicyHeads.end();
  }
  bool plane_policy() const { return policy_head == "conv" || policy_head == "pairs"; }
  // A score head beside the value head (games decided by points): tanh(final margin /
  // train.margin_scale) for the player to act, read from the value head's hidden layer.
  bool score_head = false;
  // The search's leaf utility: (1 - u) x value + u x score (a network with a score head);
  // agents of this model use it unless their spec sets score_utility.
  double score_utility = 0.0;
  // Agents of this model evaluate each leaf under a random symmetry of the game (test-time
  // augmentation) unless their spec sets symmetry=; the run's evaluations do too. A player
  // the network reads less well (Intercept's Light) is then seen half the time as the other.
  bool play_symmetry = false;
  // Agents of this model read each leaf under every symmetry of the game and take the mean
  // (az:...,symmetry=all) unless their spec sets symmetry=; the run's evaluations do too.
  // Overrides play_symmetry. Imperator's and Lignes's shipped models play so (+6 points
  // against AB-5 and against UCT-25,600).
  bool play_symmetry_mean = false;
  PlaySymmetry play_symmetry_setting() const { return {play_symmetry, play_symmetry_mean}; }
  void set_play_symmetry(const PlaySymmetry& setting) {
    play_symmetry = setting.random;
    play_symmetry_mean = setting.mean;
  }
};

struct NetShape {
  PlaneShape planes;
  int policy_size;
  std::vector<int> constant_planes;  // the game's kConstantPlanes (game.hpp), or empty
  // The game's policy map (game_traits.hpp); from meta.json only its planes and globals:
  // a conv-head model keeps its slots as the module's buffer policy_slots.
  PolicyMap policy_map;
};

struct ModelMeta {
  std::string game;
  int encoding_version = 1;
  nlohmann::json variant = nlohmann::json::object();
  NetShape shape{};
  std::string policy_layout;  // how policy indices map to action strings
  NetConfig net;
  std::int64_t step = 0;
  std::string config_hash;

  nlohmann::json to_json() const {
    return {{"format", "azg-model"},
            {"game", game},
            {"variant", variant},
            {"encoding_version", encoding_version},
            {"planes", {shape.planes.channels, shape.planes.height, shape.planes.width}},
            {"policy_size", shape.policy_size},
            {"constant_planes", shape.constant_planes},
            {"policy_layout", policy_layout},
            {"net",
             {{"blocks", net.blocks},
              {"channels", net.channels},
              {"global_pooling", net.global_pooling},
              {"value_head", net.value_head},
              {"value_hidden", net.value_hidden},
              {"ownership", net.ownership},
              {"policy_head", net.policy_head},
              {"score_head", net.score_head},
              {"score_utility", net.score_utility},
              {"play_symmetry", net.play_symmetry},
              {"play_symmetry_mean", net.play_symmetry_mean}}},
            {"policy_map",
             {{"planes", shape.policy_map.planes}, {"globals", shape.policy_map.globals}}},
            {"training_step", step},
            {"config_hash", config_hash},
            {"forward",
             "forward(planes[B,C,H,W]) -> (policy_logits[B,A], value[B]); value in [-1,1] "
             "for the player to act"}};
  }

  static ModelMeta from_json(const nlohmann::json& j, const std::string& source) {
    try {
      ModelMeta m;
      // Bounds far beyond any real model, so that a damaged or hostile meta.json cannot
      // ask for a network of terabytes before the shapes are compared with the game's.
      auto whole = [&](const nlohmann::json& v, const char* what, long long lo, long long hi) {
        return static_cast<int>(json_whole(v, source + ": " + what, lo, hi));
      };
      m.game = j.at("game").get<std::string>();
      m.variant = j.value("variant", nlohmann::json::object());
      m.encoding_version = whole(j.at("encoding_version"), "encoding_version", 0, 1 << 20);
      const auto planes = j.at("planes");
      m.shape.planes = {whole(planes.at(0), "planes", 1, 4096),
                        whole(planes.at(1), "board height", 1, 256),
                        whole(planes.at(2), "board width", 1, 256)};
      m.shape.policy_size = whole(j.at("policy_size"), "policy size", 1, 1 << 20);
      // Older models lack the list; they run with the whole first convolution.
      if (j.contains("constant_planes"))
        for (const auto& plane : j.at("constant_planes"))
          m.shape.constant_planes.push_back(
              whole(plane, "constant plane", 0, m.shape.planes.channels - 1));
      m.policy_layout = j.value("policy_layout", "");
      const auto& n = j.at("net");
      m.net.blocks = whole(n.at("blocks"), "blocks", 0, 256);
      m.net.channels = whole(n.at("channels"), "channels", 1, 4096);
      m.net.global_pooling = n.at("global_pooling").get<bool>();
      m.net.value_head = n.at("value_head").get<std::string>();
      m.net.value_hidden = whole(n.at("value_hidden"), "value_hidden", 1, 65536);
      m.net.ownership = n.value("ownership", false);
      m.net.policy_head = n.value("policy_head", "fc");  // older models have the dense head
      if (!NetConfig::known_policy_head(m.net.policy_head))
        throw Error(source + ": unknown policy head " + quote_input(m.net.policy_head));
      m.net.score_head = n.value("score_head", false);  // older models have none
      m.net.score_utility = n.contains("score_utility") ? n.at("score_utility").get<double>() : 0.0;
      if (!(m.net.score_utility >= 0.0 && m.net.score_utility <= 1.0))
        throw Error(source + ": score_utility must be in [0, 1]");
      if (m.net.score_utility > 0 && !m.net.score_head)
        throw Error(source + ": score_utility needs a score head");
      m.net.play_symmetry = n.value("play_symmetry", false);  // older models play without
      m.net.play_symmetry_mean = n.value("play_symmetry_mean", false);
      if (j.contains("policy_map")) {
        m.shape.policy_map.planes =
            whole(j.at("policy_map").at("planes"), "policy_map planes", 0, 4096);
        m.shape.policy_map.globals =
            whole(j.at("policy_map").at("globals"), "policy_map globals", 0, 1 << 24);
      }
      if (m.net.plane_policy() &&
          (m.shape.policy_map.planes <= 0 || m.shape.policy_map.globals < 0))
        throw Error(source + ": a convolutional policy head needs policy_map planes and globals");
      m.step = j.contains("training_step")
                   ? json_whole(j.at("training_step"), source + ": training_step", 0,
                                std::numeric_limits<std::int64_t>::max())
                   : 0;
      m.config_hash = j.value("config_hash", "");
      // And the weights the shapes imply: the residual tower and a dense policy head.
      const long long cells = static_cast<long long>(m.shape.planes.height) * m.shape.planes.width;
      auto within = [&](long long v, long long hi, const char* what) {
        if (v > hi)
          throw Error(source + ": " + what + " " + std::to_string(v) + " is more than " +
                      std::to_string(hi));
      };
      within(static_cast<long long>(m.net.blocks) * m.net.channels * m.net.channels, 1 << 24,
             "blocks x channels^2");
      within(2 * cells * m.shape.policy_size, 1 << 28, "dense policy weights");
      return m;
    } catch (const nlohmann::json::exception& e) {
      throw Error(source + ": bad model metadata (" + e.what() + ")");
    }
  }

  // Throws unless this model reads the same planes and writes the same policy as
  // `expected` (the meta of this build's game): same game, encoding version and shapes.
  void check_matches(const ModelMeta& expected, const std::string& source) const {
    const std::string& name = expected.game;
    if (game != name) throw Error(source + " is a model for " + game + ", not " + name);
    if (encoding_version != expected.encoding_version)
      throw Error(source + " uses " + name + "'s encoding version " +
                  std::to_string(encoding_version) + ", this build's is " +
                  std::to_string(expected.encoding_version));
    if (shape.planes.channels != expected.shape.planes.channels ||
        shape.planes.height != expected.shape.planes.height ||
        shape.planes.width != expected.shape.planes.width ||
        shape.policy_size != expected.shape.policy_size)
      throw Error(source + " has planes or policy of another shape than " + name + "'s encoding");
    if (!shape.constant_planes.empty() && shape.constant_planes != expected.shape.constant_planes)
      throw Error(source + " names other constant planes than " + name + "'s encoding");
    if (net.plane_policy() && (shape.policy_map.planes != expected.shape.policy_map.planes ||
                               shape.policy_map.globals != expected.shape.policy_map.globals))
      throw Error(source + " maps its policy onto other planes than " + name + "'s policy map");
  }

  // Throws unless this model was made for game G with G's current encoding.
  template <Game G>
  void check_game(const std::string& source) const;
};

template <Game G>
ModelMeta meta_for(const NetConfig& net) {
  ModelMeta m;
  m.game = std::string(G::kName);
  m.shape = {G::kPlanes, G::kPolicySize, constant_planes<G>(), azg::policy_map<G>()};
  m.net = net;
  m.policy_layout = azg::policy_layout<G>();
  m.encoding_version = encoding_version<G>();
  // "key=value key=value" -> {"key": "value", ...}
  std::istringstream words(azg::variant<G>());
  for (std::string w; words >> w;) {
    const auto eq = w.find('=');
    m.variant[w.substr(0, eq)] = eq == std::string::npos ? "" : w.substr(eq + 1);
  }
  return m;
}

template <Game G>
void ModelMeta::check_game(const std::string& source) const {
  check_matches(meta_for<G>(NetConfig{}), source);
}

}  // namespace azg::nets
