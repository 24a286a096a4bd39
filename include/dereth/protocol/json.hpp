#pragma once
// JSON views of decoded messages, for dereth-msg and the capture tools:
// field names as the seeds and spec name them, ids and DIDs as hex strings
// ("0x50000042"), absent optional fields omitted, non-finite floats with
// their raw bits.

#include <string>

#include "dereth/core/json_writer.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"

namespace dereth::protocol {

void write_json(core::JsonWriter& j, const Message& m);
void write_json(core::JsonWriter& j, const MoveToState& m);
void write_json(core::JsonWriter& j, const AutonomousPosition& m);

// One JSON object on one line.
std::string to_json(const Message& m);

}  // namespace dereth::protocol
