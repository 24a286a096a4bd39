#pragma once
// RawMotionState (retail RawMotionState) and HoldKey: the commands and hold
// keys the player pressed, before CMotionInterp::adjust_motion turns them
// into the interpreted state, and their MoveToState packing
// (raw_motion_state.cpp).

#include <cstdint>
#include <vector>

#include "dereth/protocol/movement.hpp"
#include "dereth/sim/motion/movement_parameters.hpp"

namespace dereth::sim {

// Retail HoldKey.
enum class HoldKey : std::uint32_t { Invalid = 0, None = 1, Run = 2 };

// RawMotionState: the commands and hold keys the player pressed, before
// CMotionInterp::adjust_motion turns them into the interpreted state.
struct RawMotionState {
  struct Action {
    std::uint32_t motion = 0;
    float speed = 1.0f;
    std::uint32_t stamp = 0;
    bool autonomous = false;
    bool operator==(const Action&) const = default;
  };

  // RawMotionState::RawMotionState 0x0051E7F0 defaults.
  std::vector<Action> actions;
  HoldKey current_holdkey = HoldKey::None;
  std::uint32_t current_style = 0x8000003D /* NonCombat */;
  std::uint32_t forward_command = 0x41000003 /* Ready */;
  HoldKey forward_holdkey = HoldKey::Invalid;
  float forward_speed = 1.0f;
  std::uint32_t sidestep_command = 0;
  HoldKey sidestep_holdkey = HoldKey::Invalid;
  float sidestep_speed = 1.0f;
  std::uint32_t turn_command = 0;
  HoldKey turn_holdkey = HoldKey::Invalid;
  float turn_speed = 1.0f;

  // RawMotionState::ApplyMotion 0x0051EB60
  void apply_motion(std::uint32_t motion, const MovementParameters& params);
  // RawMotionState::RemoveMotion 0x0051E6E0
  void remove_motion(std::uint32_t motion);
  // RawMotionState::AddAction 0x0051E840
  void add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous);
  // RawMotionState::RemoveAction 0x0051E8A0: the oldest action, or 0.
  std::uint32_t remove_action();
  // RawMotionState::Pack 0x0051ED10: a field is written only when it differs
  // from its default (speeds compared bit for bit); actions as u16 command,
  // u16 (stamp & 0x7FFF | autonomous << 15), f32 speed.
  [[nodiscard]] protocol::RawMotionState pack() const;
  bool operator==(const RawMotionState&) const = default;
};

}  // namespace dereth::sim
