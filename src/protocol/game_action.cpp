#include "game_action.hpp"

#include <fmt/format.h>

#include "dereth/protocol/login.hpp"

namespace dereth::protocol::detail {

core::ByteWriter action_writer(std::uint32_t sequence, std::uint32_t action) {
  core::ByteWriter w;
  w.u32(login_opcode::GameAction);
  w.u32(sequence);
  w.u32(action);
  return w;
}

core::Result<std::uint32_t> read_action_header(core::ByteReader& r, std::uint32_t action) {
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != login_opcode::GameAction) {
    return std::unexpected(
        r.error_at(0, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}, expected 0xF7B1", op)));
  }
  DERETH_TRY(const std::uint32_t sequence, r.u32("sequence"));
  const std::size_t type_at = r.position();
  DERETH_TRY(const std::uint32_t type, r.u32("action_type"));
  if (type != action) {
    return std::unexpected(r.error_at(type_at, core::ErrorKind::Invalid, "action_type",
                                      fmt::format("action 0x{:04X}, expected 0x{:04X}", type, action)));
  }
  return sequence;
}

}  // namespace dereth::protocol::detail
