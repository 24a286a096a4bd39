// MovementParameters (retail PORTAL/canim/CMovementDefs): the MoveTo side of
// the parameters: the wire form and the command a MoveTo walks with.
#include "dereth/sim/motion/movement_parameters.hpp"

#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/movement_manager.hpp"

namespace dereth::sim {

namespace mc = motion_command;

namespace {
constexpr float kEpsilon = core::kEpsilon;  // PhysicsGlobals EPSILON
constexpr std::uint32_t kHoldKeyNone = 1;
constexpr std::uint32_t kHoldKeyRun = 2;
}  // namespace

// MovementParameters::UnPackNet 0x0052AC50 (MoveToObject, MoveToPosition)
void MovementParameters::unpack_net(const protocol::MoveToParameters& wire) noexcept {
  bitfield = wire.bitfield;
  distance_to_object = wire.distance_to_object;
  min_distance = wire.min_distance;
  fail_distance = wire.fail_distance;
  speed = wire.speed;
  walk_run_threshhold = wire.walk_run_threshold;
  desired_heading = wire.desired_heading;
}

// MovementParameters::UnPackNet 0x0052AC50 (TurnToObject, TurnToHeading)
void MovementParameters::unpack_net(const protocol::TurnToParameters& wire) noexcept {
  bitfield = wire.bitfield;
  speed = wire.speed;
  desired_heading = wire.desired_heading;
}

// MovementParameters::towards_and_away 0x0052A9A0: forward when beyond
// distance_to_object, backwards when closer than min_distance.
void MovementParameters::towards_and_away(float curr_distance, float /*curr_heading*/, std::uint32_t& command,
                                          bool& moving_away) const noexcept {
  if (curr_distance <= distance_to_object) {
    if (curr_distance - min_distance >= kEpsilon) {
      command = 0;
    } else {
      command = mc::WalkBackwards;
      moving_away = true;
    }
  } else {
    command = mc::WalkForward;
    moving_away = false;
  }
}

// MovementParameters::get_command 0x0052AA00
void MovementParameters::get_command(float curr_distance, float curr_heading, std::uint32_t& command,
                                     std::uint32_t& key, bool& moving_away) const noexcept {
  const bool towards = (bitfield & kMoveTowards) != 0;
  const bool away = (bitfield & kMoveAway) != 0;
  if (towards && away) {
    towards_and_away(curr_distance, curr_heading, command, moving_away);
  } else if (away) {
    // Away only: walk off (facing away) while inside min_distance.
    if (curr_distance < min_distance) {
      command = mc::WalkForward;
      moving_away = true;
    } else {
      command = 0;
    }
  } else if (curr_distance > distance_to_object) {
    command = mc::WalkForward;
    moving_away = false;
  } else {
    command = 0;
  }
  const bool run = (bitfield & kCanCharge) != 0 ||
                   ((bitfield & kCanRun) != 0 &&
                    ((bitfield & kCanWalk) == 0 || curr_distance - distance_to_object > walk_run_threshhold));
  key = run ? kHoldKeyRun : kHoldKeyNone;
}

// MovementParameters::get_desired_heading 0x0052AAD0
float MovementParameters::get_desired_heading(std::uint32_t command, bool moving_away) noexcept {
  if (command == mc::RunForward || command == mc::WalkForward) return moving_away ? 180.0f : 0.0f;
  if (command == mc::WalkBackwards) return moving_away ? 0.0f : 180.0f;
  return 0.0f;
}

}  // namespace dereth::sim
