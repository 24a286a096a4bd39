#pragma once
// MotionState (retail CMotionPrim's MotionState, canim/CMotionPrim.c): the
// style, substate and its speed, and the modifier and action lists a motion
// table rewrites (implemented in motion_state.cpp).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dereth::sim {

// One entry of a MotionState list (retail MotionList).
struct MotionListEntry {
  std::uint32_t motion = 0;
  float speed_mod = 1.0f;
  bool operator==(const MotionListEntry&) const = default;
};

// MotionState (CMotionPrim): style, substate and its speed, the modifiers
// (newest first) and the pending actions (oldest first).
class MotionState {
 public:
  std::uint32_t style = 0;
  std::uint32_t substate = 0;
  float substate_mod = 1.0f;

  // MotionState::add_modifier 0x00526340: refused when present or equal to
  // the substate.
  bool add_modifier(std::uint32_t modifier, float speed_mod);
  // MotionState::add_modifier_no_check 0x00525FF0: pushes to the front.
  void add_modifier_no_check(std::uint32_t modifier, float speed_mod);
  // MotionState::remove_modifier 0x00526040
  void remove_modifier(std::size_t index);
  // MotionState::clear_modifiers 0x00526070
  void clear_modifiers() noexcept { modifiers_.clear(); }
  // MotionState::add_action 0x005260A0
  void add_action(std::uint32_t action, float speed_mod);
  // MotionState::clear_actions 0x005260F0
  void clear_actions() noexcept { actions_.clear(); }
  // MotionState::remove_action_head 0x00526120: the motion, or 0 when empty.
  std::uint32_t remove_action_head();

  [[nodiscard]] const std::vector<MotionListEntry>& modifiers() const noexcept { return modifiers_; }
  [[nodiscard]] const std::vector<MotionListEntry>& actions() const noexcept { return actions_; }

 private:
  std::vector<MotionListEntry> modifiers_;  // index 0 is modifier_head
  std::vector<MotionListEntry> actions_;    // index 0 is action_head
};

}  // namespace dereth::sim
