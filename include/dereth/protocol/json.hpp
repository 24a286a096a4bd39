#pragma once
// JSON views of decoded messages, for dereth-msg and the capture tools:
// field names as the seeds and spec name them, ids and DIDs as hex strings
// ("0x50000042"), absent optional fields omitted, non-finite floats with
// their raw bits.

#include <cstdint>
#include <span>
#include <string>

#include "dereth/core/json_writer.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"

namespace dereth::protocol {

void write_json(core::JsonWriter& j, const Message& m);
void write_json(core::JsonWriter& j, const MoveToState& m);
void write_json(core::JsonWriter& j, const AutonomousPosition& m);

// Any message body dereth decodes anywhere, in either direction: the
// object messages of decode_message, login and world entry, chat (F7E0,
// speech, emotes, tells, the chat actions), the movement and combat game
// actions, the combat and house game events and the PlayerDescription,
// each read by its protocol decoder and written as one object of its fields
// (F7B0/F7B1 with "event_type"/"action_type", the event's target and the
// sequence). False, with nothing written, for a body dereth does not decode;
// the decoder's error for one it decodes that is malformed.
core::Result<bool> write_any_json(core::JsonWriter& j, std::span<const std::uint8_t> body);
// Whether write_any_json decodes `body` (by its opcode and wrapped type).
bool is_json_decoded(std::span<const std::uint8_t> body);

// One JSON object on one line.
std::string to_json(const Message& m);

}  // namespace dereth::protocol
