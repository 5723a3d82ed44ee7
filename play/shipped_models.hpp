#pragma once
// The models the project ships (models/README.md): one trained network per game, found
// with its card, so that `az:model=shipped`, `azg engine`, `azg analysis` and `azg serve`
// play a strong player from a fresh clone. models/<game>.json is the card (recipe,
// commit, date, machine, minutes, games, rating); the network is the file it names,
// beside it. The folder is $AZG_MODELS when set, else models/ under the current folder or
// the source tree (play/project_files.hpp).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mcts/agent_spec.hpp"

namespace azg::play {

// The model name an az spec gives for its game's shipped network: az:model=shipped.
inline constexpr const char* kShippedModel = "shipped";

struct ShippedModel {
  std::string game;
  std::string card_path;   // models/<game>.json
  std::string model_path;  // the network the card names, in the card's folder
  nlohmann::json card;
};

// The shipped model of `game`; nullopt when none ships. Throws azg::Error (one line) on a
// card that is not a JSON object naming its game and an existing .pt file.
std::optional<ShippedModel> find_shipped_model(const std::string& game);

// The network file of `game`'s shipped model; throws azg::Error saying so when none ships.
std::string shipped_model_path(const std::string& game);

// The agent spec `azg engine` and `azg analysis` were given, or when it is empty `game`'s
// shipped model (az:model=shipped). Throws azg::Error saying to give --agent when none ships.
mcts::AgentSpec agent_or_shipped(const std::string& spec_text, const std::string& game);

// Every shipped model among `games`, in their order.
std::vector<ShippedModel> shipped_models(const std::vector<std::string>& games);

// One row per model for `azg models`: game, size, recipe, minutes, games, how its agents
// read leaves unless a spec says otherwise (its row of `plays`, e.g. symmetry=all), rating,
// then its row of `checks` (say "ok", or why this build refuses it).
std::string format_shipped_models(const std::vector<ShippedModel>& models,
                                  const std::vector<std::string>& checks,
                                  const std::vector<std::string>& plays);

// The message a shipped model whose game's encoding changed is refused with: the check's
// own line, and what to do about it.
std::string out_of_date_message(const std::string& game, const std::string& why);

}  // namespace azg::play
