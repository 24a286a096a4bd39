#pragma once
// Private to the protocol module: the shape every fixed-opcode message
// reader shares (the opcode checked, the body read, nothing left over).

#include <string_view>

#include <fmt/format.h>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol::detail {

inline Result<void> expect_opcode(ByteReader& r, std::uint32_t expected) {
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != expected) {
    return std::unexpected(r.error_at(0, core::ErrorKind::Invalid, "opcode",
                                      fmt::format("opcode 0x{:04X}, expected 0x{:04X}", op, expected)));
  }
  return {};
}

template <class T, class Body>
Result<T> decode_with(std::span<const std::uint8_t> bytes, std::uint32_t op, std::string_view context, Body&& body) {
  ByteReader r(bytes, context);
  DERETH_CHECK(expect_opcode(r, op));
  T m;
  DERETH_CHECK(body(r, m));
  DERETH_CHECK(r.expect_end());
  return m;
}

}  // namespace dereth::protocol::detail
