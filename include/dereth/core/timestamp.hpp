#pragma once
// The retail u16 timestamp comparator, used by every timestamp-gated channel
// (State, Vector, Movement, Position, ObjDesc, Teleport, ForcePosition,
// Instance). It is the only such helper in the project (decisions.md item 5).

#include <cstdint>

namespace dereth::core {

// SmartBox::DoSetState 0x004520D0 / SmartBox::DoVectorUpdate 0x004521C0:
// equality is stale; up to a distance of 0x7FFF the numerically higher stamp
// wins; from 0x8000 on (the wrap half) the numerically lower stamp wins.
[[nodiscard]] constexpr bool is_newer(std::uint16_t incoming, std::uint16_t stored) noexcept {
  const int distance = static_cast<int>(incoming) - static_cast<int>(stored);
  const int magnitude = distance < 0 ? -distance : distance;
  if (magnitude > 0x7FFF) {
    return incoming < stored;
  }
  return stored < incoming;
}

}  // namespace dereth::core
