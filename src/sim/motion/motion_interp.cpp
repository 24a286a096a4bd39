#include "dereth/sim/motion/motion_interp.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {
constexpr double kEpsilon = core::kEpsilonDouble;  // retail's F_EPSILON compare
}  // namespace

namespace mc = motion_command;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

// --- InterpretedMotionState --------------------------------------------------------

// InterpretedMotionState::ApplyMotion 0x0051EA40
void InterpretedMotionState::apply_motion(std::uint32_t motion, const MovementParameters& params) {
  if (motion == mc::TurnRight) {
    turn_command = mc::TurnRight;
    turn_speed = params.speed;
  } else if (motion == mc::SideStepRight) {
    sidestep_command = mc::SideStepRight;
    sidestep_speed = params.speed;
  } else if ((motion & motion_mask::SubState) != 0) {
    forward_command = motion;
    forward_speed = params.speed;
  } else if ((motion & motion_mask::Style) == 0) {
    if ((motion & motion_mask::Action) != 0) {
      add_action(motion, params.speed, params.action_stamp, (params.bitfield & MovementParameters::kAutonomous) != 0);
    }
  } else {
    forward_command = mc::Ready;
    current_style = motion;
  }
}

// InterpretedMotionState::RemoveMotion 0x0051E790
void InterpretedMotionState::remove_motion(std::uint32_t motion) {
  if (motion == mc::TurnRight) {
    turn_command = 0;
  } else if (motion == mc::SideStepRight) {
    sidestep_command = 0;
  } else if ((motion & motion_mask::SubState) != 0) {
    if (motion == forward_command) {
      forward_command = mc::Ready;
      forward_speed = 1.0f;
    }
  } else if ((motion & motion_mask::Style) != 0 && motion == current_style) {
    current_style = mc::NonCombat;
  }
}

// InterpretedMotionState::copy_movement_from 0x0051E750
void InterpretedMotionState::copy_movement_from(const InterpretedMotionState& other) {
  current_style = other.current_style;
  forward_command = other.forward_command;
  forward_speed = other.forward_speed;
  sidestep_command = other.sidestep_command;
  sidestep_speed = other.sidestep_speed;
  turn_command = other.turn_command;
  turn_speed = other.turn_speed;
}

// InterpretedMotionState::AddAction 0x0051E9E0
void InterpretedMotionState::add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous) {
  actions.push_back(Action{action, speed, stamp, autonomous});
}

// InterpretedMotionState::RemoveAction 0x0051EAD0
std::uint32_t InterpretedMotionState::remove_action() {
  if (actions.empty()) return 0;
  const std::uint32_t motion = actions.front().motion;
  actions.erase(actions.begin());
  return motion;
}

InterpretedMotionState interpreted_state_from_wire(const protocol::InterpretedMotionState& wire) {
  InterpretedMotionState state;
  const auto widen = [](std::optional<std::uint16_t> command, std::uint32_t& slot) {
    if (!command) return;
    if (const auto full = motion_command_from_wire(*command)) {
      slot = *full;
    } else {
      core::logger(core::Module::Sim)->debug("motion command {:#06x} is not in the command table", *command);
    }
  };
  widen(wire.current_style, state.current_style);
  widen(wire.forward_command, state.forward_command);
  widen(wire.sidestep_command, state.sidestep_command);
  widen(wire.turn_command, state.turn_command);
  state.forward_speed = wire.forward_speed.value_or(1.0f);
  state.sidestep_speed = wire.sidestep_speed.value_or(1.0f);
  state.turn_speed = wire.turn_speed.value_or(1.0f);
  for (const protocol::MotionItem& item : wire.commands) {
    const auto full = motion_command_from_wire(item.command);
    if (!full) {
      core::logger(core::Module::Sim)->debug("motion command {:#06x} is not in the command table", item.command);
      continue;
    }
    state.add_action(*full, item.speed, item.packed_sequence & 0x7FFFu, (item.packed_sequence & 0x8000u) != 0);
  }
  return state;
}

// --- MotionInterp -----------------------------------------------------------------------

bool MotionInterp::is_creature_or_unknown() const {
  const auto& weenie = owner_->weenie();
  return !weenie || weenie->is_creature;
}

// The weenie's IsThePlayer (vtable slot 5): true without a weenie.
bool MotionInterp::is_the_player_or_unknown() const {
  return !owner_->weenie().has_value() || owner_ == owner_->context().player;
}

// CWeenieObject::InqRunRate (vtable slot 13) with CMotionInterp's fallback:
// 1 without a weenie, my_run_rate when the weenie gives no answer.
float MotionInterp::inq_run_rate() const {
  if (!owner_->weenie()) return 1.0f;
  float rate = 0.0f;
  if (owner_->weenie_inq_run_rate(rate)) return rate;
  return my_run_rate;
}

void MotionInterp::remove_link_animations_when_cell_less() {
  if (!owner_->in_cell()) owner_->remove_link_animations();
}

// CMotionInterp::enter_default_state 0x00528C80
void MotionInterp::enter_default_state() {
  raw_ = RawMotionState{};
  interpreted_ = InterpretedMotionState{};
  owner_->initialize_motion_tables();
  pending_.push_back(PendingMotion{0, mc::Ready, 0});
  initted_ = true;
  leave_ground();
}

// CMotionInterp::contact_allows_move 0x00528240
bool MotionInterp::contact_allows_move(std::uint32_t motion) const {
  if (motion > mc::Falling) {
    if (motion >= mc::TurnRight && motion <= mc::TurnLeft) return true;
  } else if (motion == mc::Falling || motion == mc::Dead) {
    return true;
  }
  if (!is_creature_or_unknown()) return true;
  if ((owner_->state() & ps::Gravity) == 0) return true;
  const std::uint32_t t = owner_->transient_state();
  return (t & ts::Contact) != 0 && (t & ts::OnWalkable) != 0;
}

// CMotionInterp::adjust_motion 0x00528010
void MotionInterp::adjust_motion(std::uint32_t& motion, float& speed, HoldKey key) const {
  if (!is_creature_or_unknown()) return;
  switch (motion) {
    case mc::TurnLeft:
      motion = mc::TurnRight;
      speed *= -1.0f;
      break;
    case mc::RunForward: return;
    case mc::WalkBackwards:
      motion = mc::WalkForward;
      speed *= -0.64999998f;
      break;
    case mc::SideStepRight: speed *= static_cast<float>(3.1199999 / 1.25 * 0.5); break;
    case mc::SideStepLeft:
      motion = mc::SideStepRight;
      speed *= -1.0f;
      speed *= static_cast<float>(3.1199999 / 1.25 * 0.5);
      break;
    default: break;
  }
  if (key == HoldKey::Invalid) key = raw_.current_holdkey;
  if (key == HoldKey::Run) apply_run_to_command(motion, speed);
}

// CMotionInterp::apply_run_to_command 0x00527BE0
void MotionInterp::apply_run_to_command(std::uint32_t& motion, float& speed) const {
  const float rate = inq_run_rate();
  switch (motion) {
    case mc::WalkForward:
      if (speed > 0.0f) motion = mc::RunForward;
      speed = rate * speed;
      break;
    case mc::TurnRight: speed = static_cast<float>(1.5 * static_cast<double>(speed)); break;
    case mc::SideStepRight: {
      const double v = static_cast<double>(rate) * static_cast<double>(speed);
      speed = static_cast<float>(v);
      if (std::fabs(v) > 3.0) speed = v <= 0.0 ? -3.0f : 3.0f;
      break;
    }
    default: break;
  }
}

// CMotionInterp::set_hold_run 0x00528B70
void MotionInterp::set_hold_run(bool run, bool cancel_moveto) {
  if (run != (raw_.current_holdkey == HoldKey::Run)) {
    raw_.current_holdkey = run ? HoldKey::Run : HoldKey::None;
    apply_current_movement(cancel_moveto, false);
  }
}

// CMotionInterp::SetHoldKey 0x00528BB0: only None (from Run) and Run change it.
void MotionInterp::set_hold_key(HoldKey key, bool cancel_moveto) {
  if (key == raw_.current_holdkey) return;
  if (key == HoldKey::None) {
    if (raw_.current_holdkey == HoldKey::Run) {
      raw_.current_holdkey = HoldKey::None;
      apply_current_movement(cancel_moveto, false);
    }
  } else if (key == HoldKey::Run) {
    raw_.current_holdkey = HoldKey::Run;
    apply_current_movement(cancel_moveto, false);
  }
}

// CMotionInterp::is_standing_still 0x00527FA0
bool MotionInterp::is_standing_still() const {
  const std::uint32_t t = owner_->transient_state();
  return (t & ts::Contact) != 0 && (t & ts::OnWalkable) != 0 && interpreted_.forward_command == mc::Ready &&
         interpreted_.sidestep_command == 0 && interpreted_.turn_command == 0;
}

// CMotionInterp::motion_allows_jump 0x005279E0
std::uint32_t MotionInterp::motion_allows_jump(std::uint32_t substate) noexcept {
  constexpr std::uint32_t kNo = 72;
  if (substate > 0x40000018u) {
    if (substate > 0x41000014u || (substate < 0x41000012u && (substate < 0x4000001Eu || substate > 0x40000039u))) {
      return 0;
    }
  } else if (substate < 0x40000016u) {
    if (substate > 0x10000131u) {
      if (substate != 0x40000008u) return 0;
    } else if (substate < 0x10000128u && (substate < 0x1000006Fu || substate > 0x10000078u)) {
      return 0;
    }
  }
  return kNo;
}

// CMotionInterp::jump_charge_is_allowed 0x00527A50
std::uint32_t MotionInterp::jump_charge_is_allowed() const {
  if (owner_->weenie() && !owner_->weenie_can_jump(jump_extent)) return movement_error::CantJumpLoad;
  const std::uint32_t fwd = interpreted_.forward_command;
  if (fwd == 0x40000008u || (fwd > 0x41000011u && fwd <= 0x41000014u)) return 72;
  return 0;
}

// CMotionInterp::charge_jump 0x005281C0
std::uint32_t MotionInterp::charge_jump() {
  if (owner_->weenie() && !owner_->weenie_can_jump(jump_extent)) return movement_error::CantJumpLoad;
  const std::uint32_t fwd = interpreted_.forward_command;
  if (fwd == 0x40000008u || (fwd > 0x41000011u && fwd <= 0x41000014u)) return 72;
  const std::uint32_t t = owner_->transient_state();
  if ((t & ts::Contact) != 0 && (t & ts::OnWalkable) != 0 && fwd == mc::Ready && interpreted_.sidestep_command == 0 &&
      interpreted_.turn_command == 0) {
    standing_longjump = true;
  }
  return 0;
}

// CMotionInterp::jump_is_allowed 0x005282B0
std::uint32_t MotionInterp::jump_is_allowed(float extent, int& stamina_cost) const {
  const std::uint32_t t = owner_->transient_state();
  const bool grounded = !is_creature_or_unknown() || (owner_->state() & ps::Gravity) == 0 ||
                        ((t & ts::Contact) != 0 && (t & ts::OnWalkable) != 0);
  if (!grounded) return movement_error::YouCantJumpFromThisPosition;
  if (owner_->is_fully_constrained()) return movement_error::GeneralMovementFailure;
  if (!pending_.empty() && pending_.front().jump_error != 0) return pending_.front().jump_error;
  if (const std::uint32_t charge = jump_charge_is_allowed(); charge != 0) return charge;
  if (const std::uint32_t pose = motion_allows_jump(interpreted_.forward_command); pose != 0) return pose;
  if (owner_->weenie() && !owner_->weenie_jump_stamina_cost(extent, stamina_cost)) {
    return movement_error::GeneralMovementFailure;
  }
  return 0;
}

// CMotionInterp::jump 0x00528780
std::uint32_t MotionInterp::jump(float extent, int& stamina_adjustment) {
  owner_->cancel_moveto();
  const std::uint32_t result = jump_is_allowed(extent, stamina_adjustment);
  if (result != 0) {
    standing_longjump = false;
    return result;
  }
  jump_extent = extent;
  owner_->set_on_walkable(false);
  return 0;
}

// CMotionInterp::get_jump_v_z 0x00527AA0
float MotionInterp::get_jump_v_z() const {
  float extent = jump_extent;
  if (static_cast<double>(extent) < kEpsilon) return 0.0f;
  if (extent > 1.0f) extent = 1.0f;
  // Without a weenie 10; a weenie that gives no velocity (CWeenieObject::
  // InqJumpVelocity, slot 12, false: not the player, or no qualities yet) 0.
  if (!owner_->weenie()) return 10.0f;
  float v_z = 0.0f;
  if (owner_->weenie_inq_jump_velocity(extent, v_z)) return v_z;
  return 0.0f;
}

// CMotionInterp::add_to_queue 0x00527B80
void MotionInterp::add_to_queue(std::uint32_t context_id, std::uint32_t motion, std::uint32_t jump_error) {
  pending_.push_back(PendingMotion{context_id, motion, jump_error});
}

// CMotionInterp::DoMotion 0x00528D20
std::uint32_t MotionInterp::do_motion(std::uint32_t motion, const MovementParameters& params) {
  MovementParameters adjusted = params;
  if ((params.bitfield & MovementParameters::kCancelMoveTo) != 0) owner_->cancel_moveto();
  if ((params.bitfield & MovementParameters::kSetHoldKey) != 0) {
    set_hold_key(static_cast<HoldKey>(params.hold_key), (params.bitfield & MovementParameters::kCancelMoveTo) != 0);
  }
  std::uint32_t adjusted_motion = motion;
  adjust_motion(adjusted_motion, adjusted.speed, static_cast<HoldKey>(params.hold_key));
  if (interpreted_.current_style != mc::NonCombat) {
    if (motion == mc::Crouch) return movement_error::CantCrouchInCombat;
    if (motion == mc::Sitting) return movement_error::CantSitInCombat;
    if (motion == mc::Sleeping) return movement_error::CantLieDownInCombat;
    if ((motion & motion_mask::ChatEmote) != 0) return movement_error::CantChatEmoteInCombat;
  }
  if ((motion & motion_mask::Action) != 0 && interpreted_.actions.size() >= 6) {
    return movement_error::TooManyActions;
  }
  const std::uint32_t result = do_interpreted_motion(adjusted_motion, adjusted);
  if (result == movement_error::None && (params.bitfield & MovementParameters::kModifyRawState) != 0) {
    raw_.apply_motion(motion, params);
  }
  return result;
}

// CMotionInterp::StopMotion 0x00528530
std::uint32_t MotionInterp::stop_motion(std::uint32_t motion, const MovementParameters& params) {
  if ((params.bitfield & MovementParameters::kCancelMoveTo) != 0) owner_->cancel_moveto();
  MovementParameters adjusted = params;
  std::uint32_t adjusted_motion = motion;
  adjust_motion(adjusted_motion, adjusted.speed, static_cast<HoldKey>(params.hold_key));
  const std::uint32_t result = stop_interpreted_motion(adjusted_motion, adjusted);
  if (result == movement_error::None && (params.bitfield & MovementParameters::kModifyRawState) != 0) {
    raw_.remove_motion(motion);
  }
  return result;
}

// CMotionInterp::DoInterpretedMotion 0x00528360
std::uint32_t MotionInterp::do_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  std::uint32_t result = movement_error::None;
  const bool modify = (params.bitfield & MovementParameters::kModifyInterpretedState) != 0;
  if (contact_allows_move(motion)) {
    const bool longjump_locked =
        standing_longjump && (motion == mc::WalkForward || motion == mc::RunForward || motion == mc::SideStepRight);
    if (!longjump_locked) {
      if (motion == mc::Dead) owner_->remove_link_animations();
      result = owner_->do_interpreted_motion(motion, params);
      if (result == movement_error::None) {
        std::uint32_t jump_error = 72;
        if ((params.bitfield & MovementParameters::kDisableJumpDuringLink) == 0) {
          jump_error = motion_allows_jump(motion);
          if (jump_error == 0 && (motion & motion_mask::Action) == 0) {
            jump_error = motion_allows_jump(interpreted_.forward_command);
          }
        }
        add_to_queue(params.context_id, motion, jump_error);
        if (modify) interpreted_.apply_motion(motion, params);
      }
    } else if (modify) {
      interpreted_.apply_motion(motion, params);
    }
  } else if ((motion & motion_mask::Action) != 0) {
    result = movement_error::YouCantJumpFromThisPosition;
  } else if (modify) {
    // Airborne: remembered, applied on landing.
    interpreted_.apply_motion(motion, params);
  }
  remove_link_animations_when_cell_less();
  return result;
}

// CMotionInterp::StopInterpretedMotion 0x00528470
std::uint32_t MotionInterp::stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  std::uint32_t result = movement_error::None;
  const bool modify = (params.bitfield & MovementParameters::kModifyInterpretedState) != 0;
  const bool longjump_locked =
      standing_longjump && (motion == mc::WalkForward || motion == mc::RunForward || motion == mc::SideStepRight);
  if (!contact_allows_move(motion) || longjump_locked) {
    if (modify) interpreted_.remove_motion(motion);
  } else {
    result = owner_->stop_interpreted_motion(motion, params);
    if (result == movement_error::None) {
      add_to_queue(params.context_id, mc::Ready, 0);
      if (modify) interpreted_.remove_motion(motion);
    }
  }
  remove_link_animations_when_cell_less();
  return result;
}

// CMotionInterp::StopCompletely 0x00527E40
std::uint32_t MotionInterp::stop_completely() {
  owner_->cancel_moveto();
  const std::uint32_t jump_error = motion_allows_jump(interpreted_.forward_command);
  raw_.forward_command = mc::Ready;
  raw_.forward_speed = 1.0f;
  raw_.sidestep_command = 0;
  raw_.turn_command = 0;
  interpreted_.forward_command = mc::Ready;
  interpreted_.forward_speed = 1.0f;
  interpreted_.sidestep_command = 0;
  interpreted_.turn_command = 0;
  owner_->stop_completely_internal();
  add_to_queue(0, mc::Ready, jump_error);
  remove_link_animations_when_cell_less();
  return movement_error::None;
}

// CMotionInterp::apply_interpreted_movement 0x00528600
void MotionInterp::apply_interpreted_movement(bool cancel_moveto, bool disallow_jump) {
  MovementParameters params;
  // Neither the hold key nor the interpreted state is modified: the state is
  // what is being applied.
  params.bitfield = (params.bitfield & 0xFFFD37FFu) | (((cancel_moveto ? 1u : 0u) | (disallow_jump ? 4u : 0u)) << 15);
  if (interpreted_.forward_command == mc::RunForward) my_run_rate = interpreted_.forward_speed;
  do_interpreted_motion(interpreted_.current_style, params);
  if (contact_allows_move(interpreted_.forward_command)) {
    if (standing_longjump) {
      params.speed = 1.0f;
      do_interpreted_motion(mc::Ready, params);
      stop_interpreted_motion(mc::SideStepRight, params);
    } else {
      params.speed = interpreted_.forward_speed;
      do_interpreted_motion(interpreted_.forward_command, params);
      if (interpreted_.sidestep_command != 0) {
        params.speed = interpreted_.sidestep_speed;
        do_interpreted_motion(interpreted_.sidestep_command, params);
      } else {
        stop_interpreted_motion(mc::SideStepRight, params);
      }
    }
  } else {
    params.speed = 1.0f;
    do_interpreted_motion(mc::Falling, params);
  }
  if (interpreted_.turn_command != 0) {
    params.speed = interpreted_.turn_speed;
    do_interpreted_motion(interpreted_.turn_command, params);
  } else {
    if (owner_->stop_interpreted_motion(mc::TurnRight, params) == movement_error::None) {
      add_to_queue(params.context_id, mc::Ready, 0);
      if ((params.bitfield & MovementParameters::kModifyInterpretedState) != 0) {
        interpreted_.remove_motion(mc::TurnRight);
      }
    }
    remove_link_animations_when_cell_less();
  }
}

// CMotionInterp::apply_raw_movement 0x005287E0
void MotionInterp::apply_raw_movement(bool cancel_moveto, bool disallow_jump) {
  interpreted_.current_style = raw_.current_style;
  interpreted_.forward_command = raw_.forward_command;
  interpreted_.forward_speed = raw_.forward_speed;
  interpreted_.sidestep_command = raw_.sidestep_command;
  interpreted_.sidestep_speed = raw_.sidestep_speed;
  interpreted_.turn_command = raw_.turn_command;
  interpreted_.turn_speed = raw_.turn_speed;
  adjust_motion(interpreted_.forward_command, interpreted_.forward_speed, raw_.forward_holdkey);
  adjust_motion(interpreted_.sidestep_command, interpreted_.sidestep_speed, raw_.sidestep_holdkey);
  adjust_motion(interpreted_.turn_command, interpreted_.turn_speed, raw_.turn_holdkey);
  apply_interpreted_movement(cancel_moveto, disallow_jump);
}

// CMotionInterp::apply_current_movement 0x00528870
void MotionInterp::apply_current_movement(bool cancel_moveto, bool disallow_jump) {
  if (!initted_) return;
  if (is_the_player_or_unknown() && owner_->last_move_was_autonomous()) {
    apply_raw_movement(cancel_moveto, disallow_jump);
  } else {
    apply_interpreted_movement(cancel_moveto, disallow_jump);
  }
}

// CMotionInterp::move_to_interpreted_state 0x005289C0
bool MotionInterp::move_to_interpreted_state(const InterpretedMotionState& state) {
  raw_.current_style = state.current_style;
  owner_->cancel_moveto();
  const bool disallow_jump = motion_allows_jump(interpreted_.forward_command) != 0;
  interpreted_.copy_movement_from(state);
  apply_current_movement(true, disallow_jump);
  MovementParameters params;
  const bool remote = !is_the_player_or_unknown();
  for (const InterpretedMotionState::Action& action : state.actions) {
    // 15-bit action stamps, newer within half the range.
    const std::uint32_t incoming = action.stamp & 0x7FFFu;
    const std::uint32_t stored = server_action_stamp & 0x7FFFu;
    const std::uint32_t distance = incoming <= stored ? stored - incoming : incoming - stored;
    const bool newer = distance <= 0x3FFFu ? stored < incoming : incoming < stored;
    if (!newer) continue;
    // The player's (or a weenie-less object's) own autonomous actions already played.
    if (!remote && action.autonomous) continue;
    server_action_stamp = action.stamp;
    params.speed = action.speed;
    params.bitfield = (params.bitfield & ~MovementParameters::kAutonomous) |
                      (action.autonomous ? MovementParameters::kAutonomous : 0u);
    do_interpreted_motion(action.motion, params);
  }
  return true;
}

// CMotionInterp::MotionDone 0x00527EC0
void MotionInterp::motion_done(bool /*success*/) {
  if (pending_.empty()) return;
  if ((pending_.front().motion & motion_mask::Action) != 0) {
    owner_->unstick_from_object();
    interpreted_.remove_action();
    raw_.remove_action();
  }
  pending_.erase(pending_.begin());
}

// CMotionInterp::HandleExitWorld 0x00527F30
void MotionInterp::handle_exit_world() {
  while (!pending_.empty()) motion_done(false);
}

// CMotionInterp::HitGround 0x00528AC0
void MotionInterp::hit_ground() {
  if (!is_creature_or_unknown() || (owner_->state() & ps::Gravity) == 0) return;
  owner_->remove_link_animations();
  apply_current_movement(false, false);
}

// CMotionInterp::get_state_velocity 0x00527D50
glm::vec3 MotionInterp::get_state_velocity() const {
  glm::vec3 v{0.0f};
  if (interpreted_.sidestep_command == mc::SideStepRight) v.x = 1.25f * interpreted_.sidestep_speed;
  if (interpreted_.forward_command == mc::WalkForward) {
    v.y = 3.1199999f * interpreted_.forward_speed;
  } else if (interpreted_.forward_command == mc::RunForward) {
    v.y = 4.0f * interpreted_.forward_speed;
  }
  const float cap = inq_run_rate() * 4.0f;
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (length > cap) v *= cap / length;
  return v;
}

// CMotionInterp::get_max_speed 0x00527CB0
float MotionInterp::get_max_speed() const {
  return inq_run_rate() * 4.0f;
}

// CMotionInterp::get_adjusted_max_speed 0x00527D00
float MotionInterp::get_adjusted_max_speed() const {
  constexpr float kCurrentSpeedFactor = 1.0f;
  float rate = inq_run_rate();
  if (interpreted_.forward_command == mc::RunForward) rate = interpreted_.forward_speed / kCurrentSpeedFactor;
  return rate * 4.0f;
}

// CMotionInterp::get_leave_ground_velocity 0x005280C0
glm::vec3 MotionInterp::get_leave_ground_velocity() const {
  glm::vec3 v = get_state_velocity();
  v.z = get_jump_v_z();
  const auto tiny = [](float f) { return std::fabs(static_cast<double>(f)) < kEpsilon; };
  if (tiny(v.x) && tiny(v.y) && tiny(v.z)) v = owner_->position().frame.globaltolocalvec(owner_->velocity());
  return v;
}

// CMotionInterp::LeaveGround 0x00528B00
void MotionInterp::leave_ground() {
  if (!is_creature_or_unknown() || (owner_->state() & ps::Gravity) == 0) return;
  // CPhysicsObj::set_local_velocity: the state's velocity in world axes.
  owner_->set_velocity(owner_->position().frame.localtoglobalvec(get_leave_ground_velocity()), true);
  standing_longjump = false;
  jump_extent = 0.0f;
  owner_->remove_link_animations();
  apply_current_movement(false, false);
}

}  // namespace dereth::sim
