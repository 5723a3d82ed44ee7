// Reading a solved test set (test_positions.hpp).
#include "play/test_positions.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace azg::play {
namespace {

std::vector<std::string> strings_at(const nlohmann::json& j, const char* key, bool required,
                                    const std::string& where) {
  std::vector<std::string> out;
  if (!j.contains(key)) {
    if (required) throw Error(where + ": no \"" + key + "\" list");
    return out;
  }
  const auto& list = j.at(key);
  if (!list.is_array()) throw Error(where + ": \"" + key + "\" must be a list of action strings");
  for (const auto& item : list) {
    if (!item.is_string())
      throw Error(where + ": \"" + key + "\" must be a list of action strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

std::vector<TestPosition> read_test_positions(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read test positions " + quote_input(path));
  std::vector<TestPosition> positions;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw Error(where + ": not a JSON object");
    }
    if (!j.is_object()) throw Error(where + ": not a JSON object");
    TestPosition p;
    p.where = where;
    p.moves = strings_at(j, "moves", true, where);
    p.keeping = strings_at(j, "keeping", true, where);
    p.optimal = strings_at(j, "optimal", false, where);
    if (p.keeping.empty()) throw Error(where + ": \"keeping\" is empty (every position has one)");
    if (!j.contains("phase") || !j.at("phase").is_string())
      throw Error(where + ": no \"phase\" name");
    p.phase = j.at("phase").get<std::string>();
    positions.push_back(std::move(p));
  }
  if (positions.empty()) throw Error("test positions " + quote_input(path) + ": no positions");
  return positions;
}

}  // namespace azg::play
