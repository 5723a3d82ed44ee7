#pragma once
// A run's network description from its config (the net.* keys) and the config's hash,
// which a checkpoint or an exported model carries so a resume can check it.
#include "nets/model_meta.hpp"
#include "trainer/config.hpp"

namespace azg::trainer {

template <Game G>
nets::ModelMeta model_meta(const TrainConfig& c) {
  nets::NetConfig net;
  net.blocks = c.net_blocks;
  net.channels = c.net_channels;
  net.global_pooling = c.net_global_pooling;
  net.value_head = c.net_value_head;
  net.value_hidden = c.net_value_hidden;
  net.ownership = c.net_ownership;
  net.policy_head = c.net_policy_head;
  net.score_head = c.net_score_head;
  net.score_utility = c.net_score_utility;
  net.play_symmetry = c.net_play_symmetry;
  net.play_symmetry_mean = c.net_play_symmetry_mean;
  nets::ModelMeta meta = nets::meta_for<G>(net);
  meta.config_hash = c.hash();
  return meta;
}

}  // namespace azg::trainer
