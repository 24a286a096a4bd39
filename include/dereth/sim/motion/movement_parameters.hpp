#pragma once
// MovementParameters (retail MovementParameters): what a motion or a MoveTo
// is asked to do, and the MoveTo's distance and heading rules
// (movement_parameters.cpp).

#include <cstdint>
#include <limits>

#include "dereth/protocol/movement.hpp"

namespace dereth::sim {

// Retail MovementParameters: what a motion or a MoveTo is asked to do.
struct MovementParameters {
  // The bitfield (MovementParameters::MovementParameters 0x00524380 sets
  // CanWalk, CanRun, CanSideStep, CanWalkBackwards, MoveTowards, UseSpheres,
  // SetHoldKey, ModifyRawState, ModifyInterpretedState, CancelMoveTo,
  // StopCompletely).
  static constexpr std::uint32_t kDefaultBitfield = 0x0001EE0F;
  static constexpr std::uint32_t kCanWalk = 0x1;
  static constexpr std::uint32_t kCanRun = 0x2;
  static constexpr std::uint32_t kCanSideStep = 0x4;
  static constexpr std::uint32_t kCanWalkBackwards = 0x8;
  static constexpr std::uint32_t kCanCharge = 0x10;
  static constexpr std::uint32_t kFailWalk = 0x20;
  static constexpr std::uint32_t kUseFinalHeading = 0x40;
  static constexpr std::uint32_t kSticky = 0x80;
  static constexpr std::uint32_t kMoveAway = 0x100;
  static constexpr std::uint32_t kMoveTowards = 0x200;
  static constexpr std::uint32_t kUseSpheres = 0x400;
  static constexpr std::uint32_t kSetHoldKey = 0x800;
  static constexpr std::uint32_t kAutonomous = 0x1000;
  static constexpr std::uint32_t kModifyRawState = 0x2000;
  static constexpr std::uint32_t kModifyInterpretedState = 0x4000;
  static constexpr std::uint32_t kCancelMoveTo = 0x8000;
  static constexpr std::uint32_t kStopCompletely = 0x10000;
  static constexpr std::uint32_t kDisableJumpDuringLink = 0x20000;

  std::uint32_t bitfield = kDefaultBitfield;
  float distance_to_object = 0.6f;
  float min_distance = 0.0f;
  float fail_distance = std::numeric_limits<float>::max();
  float desired_heading = 0.0f;
  float speed = 1.0f;
  float walk_run_threshhold = 15.0f;
  std::uint32_t context_id = 0;
  std::uint32_t action_stamp = 0;
  std::uint32_t hold_key = 0;  // hold_key_to_apply: HoldKey_Invalid

  // MovementParameters::UnPackNet 0x0052AC50 for MoveToObject and
  // MoveToPosition: bitfield, distance_to_object, min_distance,
  // fail_distance, speed, walk_run_threshhold, desired_heading (the wire
  // decode reads the 28 bytes; the other fields keep their values).
  void unpack_net(const protocol::MoveToParameters& wire) noexcept;
  // MovementParameters::UnPackNet 0x0052AC50 for TurnToObject and
  // TurnToHeading: bitfield, speed, desired_heading.
  void unpack_net(const protocol::TurnToParameters& wire) noexcept;
  // MovementParameters::towards_and_away 0x0052A9A0
  void towards_and_away(float curr_distance, float curr_heading, std::uint32_t& command,
                        bool& moving_away) const noexcept;
  // MovementParameters::get_command 0x0052AA00: the forward command (0: in
  // range), the hold key (Run or None) and the direction.
  void get_command(float curr_distance, float curr_heading, std::uint32_t& command, std::uint32_t& key,
                   bool& moving_away) const noexcept;
  // MovementParameters::get_desired_heading 0x0052AAD0: 0 or 180 degrees
  // relative to the heading to the target.
  [[nodiscard]] static float get_desired_heading(std::uint32_t command, bool moving_away) noexcept;
};

}  // namespace dereth::sim
