#pragma once
// A finished self-play game as bytes, as an actor sends it to the learners of a
// distributed run: its positions (the replay buffer's entry format), its record and the
// network step that played it, with a checksum. decode_game() refuses anything else with
// one line, before any state in it is used.
#include <string>
#include <string_view>

#include "core/byte_io.hpp"
#include "play/game_record_reader.hpp"
#include "trainer/game_records.hpp"
#include "trainer/game_sink.hpp"

namespace azg::trainer {

inline constexpr std::uint64_t kGamePayloadMagic = 0x31454d4147475a41ull;  // "AZGGAME1"

template <Game G>
std::string encode_game(const FinishedGame<G>& game) {
  ByteWriter w;
  w.pod(kGamePayloadMagic);
  write_state_layout<G>(w);
  w.pod(game.network_step);
  const std::string record = record_json(game.record, game.termination).dump();
  w.pod(static_cast<std::uint32_t>(record.size()));
  w.raw(record.data(), record.size());
  w.pod(static_cast<std::uint64_t>(game.positions.size()));
  for (const auto& p : game.positions) write_position(w, p);
  w.pod(fnv1a64(w.bytes()));
  return std::move(w.bytes());
}

// `source` names the payload in errors ("game 1700000000000-0 from actor-a").
template <Game G>
FinishedGame<G> decode_game(std::string_view bytes, const std::string& source) {
  auto fail = [&] {
    throw Error(source + " is not a self-play game of this build's " + std::string(G::kName));
  };
  if (bytes.size() < sizeof kGamePayloadMagic + sizeof(std::uint64_t)) fail();
  ByteReader r(without_checksum(bytes, source), source);
  if (r.pod<std::uint64_t>() != kGamePayloadMagic) fail();
  check_state_layout<G>(r, fail);
  FinishedGame<G> game;
  game.network_step = r.pod<std::int64_t>();
  const auto record_size = r.pod<std::uint32_t>();
  if (record_size > r.remaining()) fail();
  std::string record(record_size, '\0');
  r.raw(record.data(), record_size);
  // The record is replayed strictly: a payload that loads is a legal game, finished or
  // stopped with a stated termination (a resignation).
  play::ReadRecord read = play::read_game_record<G>(record, source);
  game.record = std::move(read.record);
  game.termination = std::move(read.termination);
  if (!game.termination.empty() && game.termination != kResignation) fail();
  const auto count = r.pod<std::uint64_t>();
  r.expect_items(count, sizeof(G) + sizeof(float) + 1 + sizeof(std::uint32_t));
  game.positions.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i)
    game.positions.push_back(read_position<G>(r, true, fail));
  if (r.remaining() != 0) fail();
  return game;
}

}  // namespace azg::trainer
