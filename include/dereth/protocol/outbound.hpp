#pragma once
// Outbound (client-to-server) movement messages, inside the F7B1 GameAction
// wrapper: u32 0xF7B1, u32 sequence ("stamp"), u32 action type, payload
// (spec/protocol.md sections 4.2 and 5.14). Readers exist too, for the
// scenario server and round-trip tests.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/protocol/movement.hpp"
#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

// The timestamps the client echoes back (the latest the server gave it).
struct EchoedTimestamps {
  std::uint16_t instance_ts = 0;
  std::uint16_t server_control_ts = 0;
  std::uint16_t teleport_ts = 0;
  std::uint16_t force_position_ts = 0;
  bool operator==(const EchoedTimestamps&) const = default;
};

// F7B1 / F61C MoveToState.
struct MoveToState {
  std::uint32_t sequence = 0;
  RawMotionState raw;
  Position position;
  EchoedTimestamps timestamps;
  std::uint8_t contact_long_jump = 0;  // bit 0 on ground, bit 1 standing long jump
  bool operator==(const MoveToState&) const = default;
};

// F7B1 / F753 AutonomousPosition (56 bytes in all).
struct AutonomousPosition {
  std::uint32_t sequence = 0;
  Position position;
  EchoedTimestamps timestamps;
  std::uint8_t contact = 0;  // 1 = on the ground
  bool operator==(const AutonomousPosition&) const = default;
};

// F7B1 / F61B Jump: JumpPack::Pack 0x00516D10 (f32 extent, the local
// velocity, the Position, the four echoed stamps, aligned).
struct Jump {
  std::uint32_t sequence = 0;
  float extent = 0;
  Vec3 velocity;
  Position position;
  EchoedTimestamps timestamps;
  bool operator==(const Jump& o) const noexcept {
    return sequence == o.sequence && same_bits(extent, o.extent) && velocity == o.velocity && position == o.position &&
           timestamps == o.timestamps;
  }
};

std::vector<std::uint8_t> encode(const MoveToState& m);
std::vector<std::uint8_t> encode(const Jump& m);
Result<Jump> decode_jump(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const AutonomousPosition& m);
Result<MoveToState> decode_move_to_state(std::span<const std::uint8_t> body);
Result<AutonomousPosition> decode_autonomous_position(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
