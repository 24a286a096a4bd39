#pragma once
// Private to the protocol module: the F7B1 GameAction header (opcode,
// sequence, action type) every outbound action starts with, written and
// read in one place (outbound movement, chat, magic).

#include <cstdint>

#include "dereth/core/byte_reader.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/error.hpp"

namespace dereth::protocol::detail {

// A writer holding the F7B1 header: opcode, sequence, action type.
[[nodiscard]] core::ByteWriter action_writer(std::uint32_t sequence, std::uint32_t action);

// Reads the F7B1 header and gives its sequence; an opcode other than F7B1
// or an action type other than `action` is an error naming the field.
[[nodiscard]] core::Result<std::uint32_t> read_action_header(core::ByteReader& r, std::uint32_t action);

}  // namespace dereth::protocol::detail
