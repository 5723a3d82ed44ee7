#pragma once
// `azg analysis`: one JSON object per line in, JSON lines out, each tagged by the query's
// `id`, in the style of KataGo's analysis engine (docs/protocol.md, "Analysis mode"). The
// web board reuses the schema.
#include <istream>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "mcts/agent_spec.hpp"
#include "play/session.hpp"

namespace azg::protocol {

class Analysis {
 public:
  Analysis(std::unique_ptr<play::Session> session, const mcts::AgentSpec& spec, std::ostream& out);
  // Answers queries until end of input.
  void run(std::istream& in);
  // One query line: writes its answers (or one error object) to the output.
  void query(const std::string& line);

 private:
  void answer(const nlohmann::json& q);
  void write(const nlohmann::json& j);

  std::unique_ptr<play::Session> session_;
  mcts::AgentSpec spec_;
  std::ostream& out_;
  int default_visits_;
};

// The analysis object of a thought (moveInfos, rootInfo, ...); the web API uses it too.
nlohmann::json thought_json(const play::Thought& t, bool include_policy);

}  // namespace azg::protocol
