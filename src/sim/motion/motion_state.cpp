#include "dereth/sim/motion/motion_state.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// --- MotionState -------------------------------------------------------------------

// MotionState::add_modifier 0x00526340
bool MotionState::add_modifier(std::uint32_t modifier, float speed_mod) {
  for (const MotionListEntry& m : modifiers_) {
    if (m.motion == modifier) return false;
  }
  if (substate == modifier) return false;
  add_modifier_no_check(modifier, speed_mod);
  return true;
}

// MotionState::add_modifier_no_check 0x00525FF0
void MotionState::add_modifier_no_check(std::uint32_t modifier, float speed_mod) {
  modifiers_.insert(modifiers_.begin(), MotionListEntry{modifier, speed_mod});
}

// MotionState::remove_modifier 0x00526040
void MotionState::remove_modifier(std::size_t index) {
  if (index < modifiers_.size()) modifiers_.erase(modifiers_.begin() + static_cast<std::ptrdiff_t>(index));
}

// MotionState::add_action 0x005260A0
void MotionState::add_action(std::uint32_t action, float speed_mod) {
  actions_.push_back(MotionListEntry{action, speed_mod});
}

// MotionState::remove_action_head 0x00526120
std::uint32_t MotionState::remove_action_head() {
  if (actions_.empty()) return 0;
  const std::uint32_t motion = actions_.front().motion;
  actions_.erase(actions_.begin());
  return motion;
}

}  // namespace dereth::sim
