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

namespace opcode {
// Action types inside F7B1 of the non-autonomous movement messages.
inline constexpr std::uint32_t DoMovementCommand = 0xF61E;
inline constexpr std::uint32_t StopMovementCommand = 0xF661;
inline constexpr std::uint32_t AutonomyLevel = 0xF752;
inline constexpr std::uint32_t JumpNonAutonomous = 0xF7C9;
// Action type inside F7B1: ask for an object's health (the toolbar's meter).
inline constexpr std::uint32_t QueryHealth = 0x01BF;
}  // namespace opcode

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

// F7B1 / 01BF QueryHealth (CM_Combat::Event_QueryHealth 0x006A9B40): the
// object whose health the toolbar shows; gmToolbarUI sends it when a
// creature is selected and sends 0 when the meter is taken down.
struct QueryHealth {
  std::uint32_t sequence = 0;
  std::uint32_t target = 0;
  bool operator==(const QueryHealth&) const = default;
};

// F7B1 / F752 AutonomyLevel (CM_Movement::Event_AutonomyLevel 0x006AF850):
// the level the client's CommandInterpreter was set to (0, 1 or 2).
struct AutonomyLevel {
  std::uint32_t sequence = 0;
  std::uint32_t level = 0;
  bool operator==(const AutonomyLevel&) const = default;
};

// F7B1 / F7C9 Jump_NonAutonomous (CM_Movement::Event_Jump_NonAutonomous
// 0x006AFB30): the extent only; the server makes the jump.
struct JumpNonAutonomous {
  std::uint32_t sequence = 0;
  float extent = 0;
  bool operator==(const JumpNonAutonomous& o) const noexcept {
    return sequence == o.sequence && same_bits(extent, o.extent);
  }
};

// F7B1 / F61E DoMovementCommand (CM_Movement::Event_DoMovementCommand
// 0x006AF920): a non-autonomous client's started motion, speed and hold key.
struct DoMovementCommand {
  std::uint32_t sequence = 0;
  std::uint32_t motion = 0;
  float speed = 1.0F;
  std::uint32_t hold_key = 0;
  bool operator==(const DoMovementCommand& o) const noexcept {
    return sequence == o.sequence && motion == o.motion && same_bits(speed, o.speed) && hold_key == o.hold_key;
  }
};

// F7B1 / F661 StopMovementCommand (CM_Movement::Event_StopMovementCommand
// 0x006AFCC0): a non-autonomous client's stopped motion and hold key.
struct StopMovementCommand {
  std::uint32_t sequence = 0;
  std::uint32_t motion = 0;
  std::uint32_t hold_key = 0;
  bool operator==(const StopMovementCommand&) const = default;
};

std::vector<std::uint8_t> encode(const QueryHealth& m);
Result<QueryHealth> decode_query_health(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const AutonomyLevel& m);
Result<AutonomyLevel> decode_autonomy_level(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const JumpNonAutonomous& m);
Result<JumpNonAutonomous> decode_jump_non_autonomous(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const DoMovementCommand& m);
Result<DoMovementCommand> decode_do_movement_command(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const StopMovementCommand& m);
Result<StopMovementCommand> decode_stop_movement_command(std::span<const std::uint8_t> body);

std::vector<std::uint8_t> encode(const MoveToState& m);
std::vector<std::uint8_t> encode(const Jump& m);
Result<Jump> decode_jump(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const AutonomousPosition& m);
Result<MoveToState> decode_move_to_state(std::span<const std::uint8_t> body);
Result<AutonomousPosition> decode_autonomous_position(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
