#pragma once
// The agent-spec grammar as users read it: every kind an --agent takes and its keys. The
// parsing is mcts/agent_spec.hpp (KIND[:KEY=VALUE,...]), the kinds are built by
// play::agent_factory; this text is written once, here, and every command shows it.
#include <string>

namespace azg::play {

// Every agent kind and key, then the search keys with the uct and az presets' defaults.
std::string agent_spec_help();

}  // namespace azg::play
