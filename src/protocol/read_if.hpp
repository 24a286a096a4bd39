#pragma once
// Private to the protocol module: an optional field read when its flag bit
// is set and cleared otherwise (PhysicsDesc and WeenieDesc, decoded into
// caller-owned storage).

#include <optional>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol::detail {

// Reads an optional field when its bit is set, else clears it.
template <class T, class Read>
DERETH_READ_INLINE ReadResult<void> read_if(bool present, std::optional<T>& out, Read&& read) {
  if (!present) {
    out.reset();
    return {};
  }
  auto v = read();
  if (!v) [[unlikely]] {
    return std::unexpected(v.error());
  }
  out = *v;
  return {};
}

}  // namespace dereth::protocol::detail
