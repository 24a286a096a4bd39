#pragma once
// MovementData and its parts (spec/protocol.md section 5.7): the body of
// Movement F74C and of the movement buffer inside PhysicsDesc, and the
// client's RawMotionState for MoveToState (section 5.14).

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

enum class MovementType : std::uint8_t {
  Invalid = 0,  // the interpreted-motion-state form
  MoveToObject = 6,
  MoveToPosition = 7,
  TurnToObject = 8,
  TurnToHeading = 9,
};

// A one-shot action in a command list: u16 command, u16 packed sequence
// (bits 0-14 sequence, bit 15 autonomous), f32 speed.
struct MotionItem {
  std::uint16_t command = 0;
  std::uint16_t packed_sequence = 0;
  float speed = 1.0F;
  bool operator==(const MotionItem& o) const noexcept {
    return command == o.command && packed_sequence == o.packed_sequence && same_bits(speed, o.speed);
  }
};

namespace interpreted_flag {
inline constexpr std::uint32_t CurrentStyle = 0x01;
inline constexpr std::uint32_t ForwardCommand = 0x02;
inline constexpr std::uint32_t ForwardSpeed = 0x04;
inline constexpr std::uint32_t SidestepCommand = 0x08;
inline constexpr std::uint32_t SidestepSpeed = 0x10;
inline constexpr std::uint32_t TurnCommand = 0x20;
inline constexpr std::uint32_t TurnSpeed = 0x40;
}  // namespace interpreted_flag

// InterpretedMotionState: u32 (flags in bits 0-6, command count from bit 7),
// the present fields in wire order (style, forward, sidestep, turn commands,
// then the three speeds), the command list, then alignment.
struct InterpretedMotionState {
  std::optional<std::uint16_t> current_style;
  std::optional<std::uint16_t> forward_command;
  std::optional<std::uint16_t> sidestep_command;
  std::optional<std::uint16_t> turn_command;
  std::optional<float> forward_speed;
  std::optional<float> sidestep_speed;
  std::optional<float> turn_speed;
  std::vector<MotionItem> commands;

  [[nodiscard]] std::uint32_t flags() const;
  bool operator==(const InterpretedMotionState& o) const noexcept {
    return current_style == o.current_style && forward_command == o.forward_command &&
           sidestep_command == o.sidestep_command && turn_command == o.turn_command &&
           same_bits(forward_speed, o.forward_speed) && same_bits(sidestep_speed, o.sidestep_speed) &&
           same_bits(turn_speed, o.turn_speed) && commands == o.commands;
  }
};

struct MoveToParameters {
  std::uint32_t bitfield = 0;
  float distance_to_object = 0, min_distance = 0, fail_distance = 0, speed = 0, walk_run_threshold = 0,
        desired_heading = 0;
  bool operator==(const MoveToParameters& o) const noexcept {
    return bitfield == o.bitfield && same_bits(distance_to_object, o.distance_to_object) &&
           same_bits(min_distance, o.min_distance) && same_bits(fail_distance, o.fail_distance) &&
           same_bits(speed, o.speed) && same_bits(walk_run_threshold, o.walk_run_threshold) &&
           same_bits(desired_heading, o.desired_heading);
  }
};

struct TurnToParameters {
  std::uint32_t bitfield = 0;
  float speed = 0, desired_heading = 0;
  bool operator==(const TurnToParameters& o) const noexcept {
    return bitfield == o.bitfield && same_bits(speed, o.speed) && same_bits(desired_heading, o.desired_heading);
  }
};

struct InterpretedMovement {
  InterpretedMotionState state;
  std::optional<std::uint32_t> sticky_object;  // when motion_flags has StickToObject (0x1)
  bool operator==(const InterpretedMovement&) const = default;
};

struct MoveToObject {
  std::uint32_t target_guid = 0;
  Origin origin;
  MoveToParameters params;
  float run_rate = 0;
  bool operator==(const MoveToObject& o) const noexcept {
    return target_guid == o.target_guid && origin == o.origin && params == o.params && same_bits(run_rate, o.run_rate);
  }
};

struct MoveToPosition {
  Origin origin;
  MoveToParameters params;
  float run_rate = 0;
  bool operator==(const MoveToPosition& o) const noexcept {
    return origin == o.origin && params == o.params && same_bits(run_rate, o.run_rate);
  }
};

struct TurnToObject {
  std::uint32_t target_guid = 0;
  float desired_heading = 0;
  TurnToParameters params;
  bool operator==(const TurnToObject& o) const noexcept {
    return target_guid == o.target_guid && same_bits(desired_heading, o.desired_heading) && params == o.params;
  }
};

struct TurnToHeading {
  TurnToParameters params;
  bool operator==(const TurnToHeading&) const = default;
};

inline constexpr std::uint8_t kMotionFlagStickToObject = 0x1;
inline constexpr std::uint8_t kMotionFlagStandingLongJump = 0x2;

// MovementData without the F74C header: u8 type, u8 motion flags, u16 style,
// then the type's payload.
struct MovementData {
  std::uint8_t motion_flags = 0;
  std::uint16_t current_style = 0;
  std::variant<InterpretedMovement, MoveToObject, MoveToPosition, TurnToObject, TurnToHeading> payload;

  [[nodiscard]] MovementType type() const;
  bool operator==(const MovementData&) const = default;
};

Result<MovementData> read_movement_data(ByteReader& r);
void write_movement_data(ByteWriter& w, const MovementData& m);

// Decodes PhysicsDesc's movement buffer (MovementData without header); the
// whole buffer must be consumed. Alignment is relative to the buffer start,
// which ACE and retail always place on a four-byte boundary.
Result<MovementData> decode_movement_buffer(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> encode_movement_buffer(const MovementData& m);

// --- Outbound: RawMotionState inside MoveToState F61C -----------------------

namespace raw_motion_flag {
inline constexpr std::uint32_t CurrentHoldKey = 0x001;
inline constexpr std::uint32_t CurrentStyle = 0x002;
inline constexpr std::uint32_t ForwardCommand = 0x004;
inline constexpr std::uint32_t ForwardHoldKey = 0x008;
inline constexpr std::uint32_t ForwardSpeed = 0x010;
inline constexpr std::uint32_t SidestepCommand = 0x020;
inline constexpr std::uint32_t SidestepHoldKey = 0x040;
inline constexpr std::uint32_t SidestepSpeed = 0x080;
inline constexpr std::uint32_t TurnCommand = 0x100;
inline constexpr std::uint32_t TurnHoldKey = 0x200;
inline constexpr std::uint32_t TurnSpeed = 0x400;
}  // namespace raw_motion_flag

// RawMotionState: u32 (flags in bits 0-10, command count from bit 11), the
// present fields in bit order, then the command list.
struct RawMotionState {
  std::optional<std::uint32_t> current_hold_key;
  std::optional<std::uint32_t> current_style;
  std::optional<std::uint32_t> forward_command;
  std::optional<std::uint32_t> forward_hold_key;
  std::optional<float> forward_speed;
  std::optional<std::uint32_t> sidestep_command;
  std::optional<std::uint32_t> sidestep_hold_key;
  std::optional<float> sidestep_speed;
  std::optional<std::uint32_t> turn_command;
  std::optional<std::uint32_t> turn_hold_key;
  std::optional<float> turn_speed;
  std::vector<MotionItem> commands;

  [[nodiscard]] std::uint32_t flags() const;
  bool operator==(const RawMotionState& o) const noexcept {
    return current_hold_key == o.current_hold_key && current_style == o.current_style &&
           forward_command == o.forward_command && forward_hold_key == o.forward_hold_key &&
           same_bits(forward_speed, o.forward_speed) && sidestep_command == o.sidestep_command &&
           sidestep_hold_key == o.sidestep_hold_key && same_bits(sidestep_speed, o.sidestep_speed) &&
           turn_command == o.turn_command && turn_hold_key == o.turn_hold_key && same_bits(turn_speed, o.turn_speed) &&
           commands == o.commands;
  }
};

Result<RawMotionState> read_raw_motion_state(ByteReader& r);
void write_raw_motion_state(ByteWriter& w, const RawMotionState& s);

}  // namespace dereth::protocol
