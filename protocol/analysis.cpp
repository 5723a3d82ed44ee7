#include "protocol/analysis.hpp"

#include <chrono>
#include <cstdint>
#include <limits>
#include <set>
#include <type_traits>
#include <vector>

#include "core/json_number.hpp"
#include "play/agents.hpp"

namespace azg::protocol {
namespace {

template <class T>
T field(const nlohmann::json& q, const char* key, T fallback) {
  if (!q.contains(key)) return fallback;
  const std::string what = std::string("'") + key + "'";
  // Numbers are range-checked before conversion (core/json_number.hpp): get<int>()
  // of 1e300 is undefined behaviour.
  if constexpr (std::is_same_v<T, long long>) {
    return json_whole(q.at(key), what, std::numeric_limits<long long>::min(),
                      std::numeric_limits<long long>::max());
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return json_word(q.at(key), what);
  } else if constexpr (std::is_same_v<T, double>) {
    return json_real(q.at(key), what, -1e300, 1e300);
  } else if constexpr (std::is_same_v<T, std::vector<int>>) {
    if (!q.at(key).is_array()) throw Error(what + " has the wrong type");
    std::vector<int> out;
    for (const auto& v : q.at(key))
      out.push_back(static_cast<int>(json_whole(v, what, -1000000000, 1000000000)));
    return out;
  } else {
    try {
      return q.at(key).get<T>();
    } catch (const std::exception&) {
      throw Error(what + " has the wrong type");
    }
  }
}

}  // namespace

nlohmann::json thought_json(const play::Thought& t, bool include_policy) {
  nlohmann::json j;
  j["rootInfo"] = {{"visits", t.simulations}, {"value", t.value}};
  j["bestMove"] = t.best;
  j["moveInfos"] = nlohmann::json::array();
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    const auto& a = t.actions[i];
    if (a.visits == 0) continue;
    j["moveInfos"].push_back({{"move", a.action},
                              {"order", i},
                              {"visits", a.visits},
                              {"share", a.share},
                              {"value", a.value},
                              {"prior", a.prior},
                              {"pv", a.pv}});
  }
  if (include_policy) {
    j["policy"] = nlohmann::json::array();
    for (const auto& a : t.actions) j["policy"].push_back({{"move", a.action}, {"prior", a.prior}});
  }
  return j;
}

Analysis::Analysis(std::unique_ptr<play::Session> session, const mcts::AgentSpec& spec,
                   std::ostream& out)
    : session_(std::move(session)), spec_(spec), out_(out) {
  default_visits_ = play::spec_simulations(spec);
  session_->set_agent(spec_, 1);  // a bad spec or model fails here
}

void Analysis::write(const nlohmann::json& j) {
  out_ << j.dump() << '\n' << std::flush;
}

void Analysis::run(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) query(line);
}

void Analysis::query(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  nlohmann::json q;
  try {
    q = nlohmann::json::parse(line);
  } catch (const std::exception&) {
    write({{"error", "not a JSON object: " + line.substr(0, 80)}});
    return;
  }
  try {
    answer(q);
  } catch (const std::exception& e) {
    nlohmann::json err = {{"error", e.what()}};
    if (q.is_object() && q.contains("id")) err["id"] = q["id"];
    write(err);
  }
}

void Analysis::answer(const nlohmann::json& q) {
  if (!q.is_object()) throw Error("a query is a JSON object");
  if (!q.contains("id")) throw Error("a query needs an 'id'");
  static const std::set<std::string> known = {
      "id",        "setup",         "moves", "analyzeTurns",
      "maxVisits", "includePolicy", "seed",  "reportDuringSearchEvery"};
  for (const auto& [key, value] : q.items())
    if (!known.count(key)) throw Error("unknown key " + quote_input(key));
  const auto setup = field<std::string>(q, "setup", "");
  const auto moves = field<std::vector<std::string>>(q, "moves", {});
  std::vector<int> turns =
      field<std::vector<int>>(q, "analyzeTurns", {static_cast<int>(moves.size())});
  const long long visits = field<long long>(q, "maxVisits", default_visits_);
  const bool policy = field<bool>(q, "includePolicy", false);
  const auto seed = field<std::uint64_t>(q, "seed", 1);
  const double every = field<double>(q, "reportDuringSearchEvery", 0.0);
  if (visits < 1 || visits > mcts::max_simulations())
    throw Error("'maxVisits' must be in [1, " + std::to_string(mcts::max_simulations()) + "]");
  if (every < 0) throw Error("'reportDuringSearchEvery' must not be negative");
  for (const int t : turns)
    if (t < 0 || t > static_cast<int>(moves.size()))
      throw Error("turn " + std::to_string(t) + " is outside 0.." + std::to_string(moves.size()));
  session_->reset(setup, moves);  // checks the whole game once
  for (const int turn : turns) {
    session_->reset(setup, std::vector<std::string>(moves.begin(), moves.begin() + turn));
    nlohmann::json head = {{"id", q["id"]}, {"turnNumber", turn}};
    if (session_->over() || session_->to_act() == Player::kChance) {
      head["error"] =
          session_->over() ? "the game is over at this turn" : "chance acts at this turn";
      write(head);
      continue;
    }
    session_->set_agent(spec_, seed);  // every turn answered alike, whatever came before
    mcts::Budget budget;
    budget.simulations = static_cast<int>(visits);
    std::function<void(const play::Thought&)> progress;
    if (every > 0)
      progress = [&](const play::Thought& t) {
        nlohmann::json j = head;
        j["isDuringSearch"] = true;
        j["toAct"] = play::player_name(session_->to_act());
        j.update(thought_json(t, false));
        write(j);
      };
    const auto interval = std::chrono::milliseconds(static_cast<long long>(every * 1000));
    const play::Thought t = session_->think(budget, progress, interval);
    nlohmann::json j = head;
    j["isDuringSearch"] = false;
    j["toAct"] = play::player_name(session_->to_act());
    j.update(thought_json(t, policy));
    write(j);
  }
}

}  // namespace azg::protocol
