#include "play/shipped_models.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/error.hpp"
#include "play/project_files.hpp"

namespace azg::play {

namespace fs = std::filesystem;

namespace {

// The card's path for `game`, or nullopt. $AZG_MODELS, when set, is the only folder looked
// in (a user's own set, or a test's), and it must exist.
std::optional<std::string> card_path(const std::string& game) {
  const std::string file = game + ".json";
  if (const char* dir = std::getenv("AZG_MODELS"); dir && *dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      throw Error("AZG_MODELS=" + quote_input(dir) + " is not a folder");
    const fs::path p = fs::path(dir) / file;
    if (fs::is_regular_file(p, ec)) return p.string();
    return std::nullopt;
  }
  return find_project_file((fs::path("models") / file).string());
}

std::string text_field(const nlohmann::json& card, const char* key) {
  if (!card.contains(key) || !card.at(key).is_string()) return "";
  return card.at(key).get<std::string>();
}

std::string number_field(const nlohmann::json& card, const char* key, int precision = 0) {
  if (!card.contains(key) || !card.at(key).is_number()) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << card.at(key).get<double>();
  return s.str();
}

}  // namespace

std::optional<ShippedModel> find_shipped_model(const std::string& game) {
  const auto card = card_path(game);
  if (!card) return std::nullopt;
  ShippedModel m{game, *card, "", {}};
  std::ifstream in(*card);
  try {
    m.card = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    throw Error("shipped model card " + *card + " is not JSON");
  }
  if (!m.card.is_object() || text_field(m.card, "game") != game)
    throw Error("shipped model card " + *card + " is not an object whose \"game\" is " + game);
  const std::string file = text_field(m.card, "file");
  // The network lies beside its card: a bare file name, never a path out of the folder.
  if (file.empty() || file.find('/') != std::string::npos || !file.ends_with(".pt"))
    throw Error("shipped model card " + *card + " must name its network as \"file\": \"NAME.pt\"");
  m.model_path = (fs::path(*card).parent_path() / file).string();
  std::error_code ec;
  if (!fs::is_regular_file(m.model_path, ec))
    throw Error("shipped model card " + *card + " names " + m.model_path + ", which is missing");
  return m;
}

std::string shipped_model_path(const std::string& game) {
  if (auto m = find_shipped_model(game)) return m->model_path;
  throw Error("no shipped model for " + game +
              " (azg models lists those there are; models/README.md says how one is made)");
}

mcts::AgentSpec agent_or_shipped(const std::string& spec_text, const std::string& game) {
  if (!spec_text.empty()) return mcts::parse_agent_spec(spec_text);
  if (!find_shipped_model(game))
    throw Error("no shipped model for " + game +
                ": give --agent SPEC (azg models lists the games that have one)");
  return mcts::parse_agent_spec(std::string("az:model=") + kShippedModel);
}

std::vector<ShippedModel> shipped_models(const std::vector<std::string>& games) {
  std::vector<ShippedModel> found;
  for (const auto& g : games)
    if (auto m = find_shipped_model(g)) found.push_back(std::move(*m));
  return found;
}

std::string format_shipped_models(const std::vector<ShippedModel>& models,
                                  const std::vector<std::string>& checks,
                                  const std::vector<std::string>& plays) {
  std::ostringstream out;
  out << std::left << std::setw(10) << "game" << std::setw(8) << "size" << std::setw(28) << "recipe"
      << std::setw(8) << "minutes" << std::setw(8) << "games" << std::setw(12) << "check"
      << std::setw(14) << "plays"
      << "rating\n";
  for (std::size_t i = 0; i < models.size(); ++i) {
    const ShippedModel& m = models[i];
    std::error_code ec;
    const auto bytes = fs::file_size(m.model_path, ec);
    const std::string size = ec ? "?" : std::to_string((bytes + 512) / 1024) + "K";
    std::string rating = text_field(m.card, "rating");
    if (rating.empty()) rating = "not rated";
    out << std::setw(10) << m.game << std::setw(8) << size << std::setw(28)
        << text_field(m.card, "recipe") << std::setw(8) << number_field(m.card, "minutes")
        << std::setw(8) << number_field(m.card, "games") << std::setw(12)
        << (i < checks.size() && checks[i] == "ok" ? "ok" : "REFUSED") << std::setw(14)
        << (i < plays.size() ? plays[i] : "?") << rating << "\n";
    if (i < checks.size() && checks[i] != "ok") out << "  " << checks[i] << "\n";
  }
  return out.str();
}

std::string out_of_date_message(const std::string& game, const std::string& why) {
  return why + ": the shipped " + game +
         " model is out of date; retrain it with its recipe (models/README.md) in the change "
         "that altered the encoding";
}

}  // namespace azg::play
