// RawMotionState: the player's pressed commands and hold keys, and their
// MoveToState packing (include/dereth/sim/motion/raw_motion_state.hpp).

#include "dereth/sim/motion/raw_motion_state.hpp"

#include <bit>

#include "dereth/sim/motion/motion_command.hpp"

namespace dereth::sim {

namespace {

namespace command = motion_command;
namespace mask = motion_mask;

constexpr std::uint32_t kOneBits = 0x3F800000u;  // 1.0f

bool speed_is_default(float speed) noexcept {
  return std::bit_cast<std::uint32_t>(speed) == kOneBits;
}

}  // namespace

// --- RawMotionState ------------------------------------------------------------------

// RawMotionState::ApplyMotion 0x0051EB60
void RawMotionState::apply_motion(std::uint32_t motion, const MovementParameters& params) {
  // With SetHoldKey the slot's hold key is Invalid; otherwise the one to apply.
  const bool set_hold_key = (params.bitfield & MovementParameters::kSetHoldKey) != 0;
  const HoldKey slot_key = set_hold_key ? HoldKey::Invalid : static_cast<HoldKey>(params.hold_key);
  switch (motion) {
    case command::SideStepRight:
    case command::SideStepLeft:
      sidestep_command = motion;
      sidestep_holdkey = slot_key;
      sidestep_speed = params.speed;
      return;
    case command::TurnRight:
    case command::TurnLeft:
      turn_command = motion;
      turn_holdkey = slot_key;
      turn_speed = params.speed;
      return;
    default: break;
  }
  if ((motion & mask::SubState) != 0) {
    // RunForward never enters the raw state: running is the hold key.
    if (motion != command::RunForward) {
      forward_command = motion;
      forward_holdkey = slot_key;
      forward_speed = params.speed;
    }
  } else if ((motion & mask::Style) != 0) {
    if (current_style != motion) {
      forward_command = command::Ready;
      current_style = motion;
    }
  } else if ((motion & mask::Action) != 0) {
    add_action(motion, params.speed, params.action_stamp, (params.bitfield & MovementParameters::kAutonomous) != 0);
  }
}

// RawMotionState::RemoveMotion 0x0051E6E0
void RawMotionState::remove_motion(std::uint32_t motion) {
  switch (motion) {
    case command::SideStepRight:
    case command::SideStepLeft:
      sidestep_command = 0;  // either direction clears the slot; hold key and speed stay
      return;
    case command::TurnRight:
    case command::TurnLeft: turn_command = 0; return;
    default: break;
  }
  if ((motion & mask::SubState) != 0) {
    if (motion == forward_command) {
      forward_command = command::Ready;
      forward_speed = 1.0f;  // the forward hold key is left as it was
    }
  } else if ((motion & mask::Style) != 0 && motion == current_style) {
    current_style = command::NonCombat;
  }
}

// RawMotionState::AddAction 0x0051E840
void RawMotionState::add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous) {
  actions.push_back(Action{action, speed, stamp, autonomous});
}

// RawMotionState::RemoveAction 0x0051E8A0
std::uint32_t RawMotionState::remove_action() {
  if (actions.empty()) return 0;
  const std::uint32_t motion = actions.front().motion;
  actions.erase(actions.begin());
  return motion;
}

// RawMotionState::Pack 0x0051ED10
protocol::RawMotionState RawMotionState::pack() const {
  protocol::RawMotionState w;
  auto key = [](HoldKey k) { return static_cast<std::uint32_t>(k); };
  if (current_holdkey != HoldKey::None) w.current_hold_key = key(current_holdkey);
  if (current_style != command::NonCombat) w.current_style = current_style;
  if (forward_command != command::Ready) w.forward_command = forward_command;
  if (forward_holdkey != HoldKey::Invalid) w.forward_hold_key = key(forward_holdkey);
  if (!speed_is_default(forward_speed)) w.forward_speed = forward_speed;
  if (sidestep_command != 0) w.sidestep_command = sidestep_command;
  if (sidestep_holdkey != HoldKey::Invalid) w.sidestep_hold_key = key(sidestep_holdkey);
  if (!speed_is_default(sidestep_speed)) w.sidestep_speed = sidestep_speed;
  if (turn_command != 0) w.turn_command = turn_command;
  if (turn_holdkey != HoldKey::Invalid) w.turn_hold_key = key(turn_holdkey);
  if (!speed_is_default(turn_speed)) w.turn_speed = turn_speed;
  for (const Action& a : actions) {
    protocol::MotionItem item;
    item.command = static_cast<std::uint16_t>(a.motion & 0xFFFFu);
    item.packed_sequence = static_cast<std::uint16_t>((a.stamp & 0x7FFFu) | (a.autonomous ? 0x8000u : 0u));
    item.speed = a.speed;
    w.commands.push_back(item);
  }
  return w;
}

}  // namespace dereth::sim
