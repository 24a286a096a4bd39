// The local player's CommandInterpreter: keys to raw motion state, raw motion
// state and the canonical position to MoveToState / AutonomousPosition
// (include/dereth/sim/player/command_interpreter.hpp; docs/sim.md).

#include "dereth/sim/player/command_interpreter.hpp"

#include <bit>
#include <cmath>

#include "dereth/protocol/login.hpp"
#include "dereth/sim/collision/plane.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/client_combat_system.hpp"

namespace dereth::sim {

// --- CommandInterpreter ------------------------------------------------------------------

// CommandInterpreter::CommandInterpreter 0x006B3E40
CommandInterpreter::CommandInterpreter(SimContext& context, SendFn send, StampFn next_stamp)
    : context_(&context),
      send_(std::move(send)),
      next_stamp_(std::move(next_stamp)),
      last_sent_position_time_(context.now()) {}

PhysicsObj* CommandInterpreter::player() const noexcept {
  return context_->player;
}

const RawMotionState& CommandInterpreter::raw_state() const noexcept {
  if (const PhysicsObj* p = player()) {
    if (const RawMotionState* raw = p->inq_raw_motion_state()) return *raw;
  }
  return raw_;
}

bool CommandInterpreter::standing_longjump() const noexcept {
  if (const PhysicsObj* p = player()) {
    if (const MotionInterp* m = p->motion_interp()) return m->standing_longjump;
  }
  return standing_longjump_;
}

void CommandInterpreter::set_standing_longjump(bool on) noexcept {
  standing_longjump_ = on;
  if (PhysicsObj* p = player()) {
    if (MotionInterp* m = p->motion_interp()) m->standing_longjump = on;
  }
}

core::Seconds CommandInterpreter::now() const {
  return context_->now();
}

void CommandInterpreter::send(std::vector<std::uint8_t> bytes) {
  if (send_) send_(std::move(bytes), kQueue);
}

void CommandInterpreter::send_game_action(std::uint32_t action) {
  const std::uint32_t stamp = next_stamp_ ? next_stamp_() : 0;
  send(protocol::encode_game_action(stamp, action));
}

protocol::EchoedTimestamps CommandInterpreter::echoed_timestamps(const PhysicsObj& p) const noexcept {
  using TI = protocol::TimestampIndex;
  protocol::EchoedTimestamps t;
  t.instance_ts = p.update_time(TI::Instance);                    // update_times[8]
  t.server_control_ts = p.update_time(TI::ServerControlledMove);  // update_times[5]
  t.teleport_ts = p.update_time(TI::Teleport);                    // update_times[4]
  t.force_position_ts = p.update_time(TI::ForcePosition);         // update_times[6]
  return t;
}

void CommandInterpreter::send_position_event(const PhysicsObj& /*player*/) {
  send_position_event();
}

void CommandInterpreter::movement_applied(const PhysicsObj& /*player*/) {
  lose_control_to_server();
}

void CommandInterpreter::player_teleported(const PhysicsObj& /*player*/) {
  player_teleported();
}

// CommandInterpreter::PlayerTeleported 0x006B32B0
void CommandInterpreter::player_teleported() {
  set_auto_run(false, true);
  send_movement_event();
}

// CommandInterpreter::SetAutonomyLevel 0x006B3BB0
bool CommandInterpreter::set_autonomy_level(std::uint32_t level) {
  if (level > 2) return false;
  autonomy_level_ = level;
  send_autonomy_level_event(level);
  return true;
}

// ACCmdInterp::SendAutonomyLevelEvent 0x0058B210
void CommandInterpreter::send_autonomy_level_event(std::uint32_t level) {
  send(protocol::encode(protocol::AutonomyLevel{next_stamp(), level}));
}

// ACCmdInterp::SendDoMovementEvent 0x0058B230
void CommandInterpreter::send_do_movement_event(std::uint32_t motion, float speed, HoldKey hold_key) {
  send(
      protocol::encode(protocol::DoMovementCommand{next_stamp(), motion, speed, static_cast<std::uint32_t>(hold_key)}));
}

// ACCmdInterp::SendStopMovementEvent 0x0058B250
void CommandInterpreter::send_stop_movement_event(std::uint32_t motion, HoldKey hold_key) {
  send(protocol::encode(protocol::StopMovementCommand{next_stamp(), motion, static_cast<std::uint32_t>(hold_key)}));
}

// CM_Movement::Event_Jump_NonAutonomous 0x006AFB30
void CommandInterpreter::send_jump_non_autonomous_event(float extent) {
  send(protocol::encode(protocol::JumpNonAutonomous{next_stamp(), extent}));
}

// ACCmdInterp::CommenceJump 0x0058B1A0
void CommandInterpreter::commence_jump() {
  if (combat_ != nullptr) combat_->commence_jump();
}

// ACCmdInterp::DoJump 0x0058B1C0
void CommandInterpreter::do_jump(bool autonomous) {
  if (combat_ != nullptr) combat_->do_jump(autonomous);
}

// CommandInterpreter::MovePlayer_NonAutonomous 0x006B3D00
void CommandInterpreter::move_player_non_autonomous(std::uint32_t cmd, bool start, float speed, HoldKey key) {
  if (start) {
    if (cmd == command::Jump) {
      commence_jump();
    } else {
      send_do_movement_event(cmd, speed, key);
    }
  } else if (cmd == command::Jump) {
    do_jump(false);
  } else {
    send_stop_movement_event(cmd, key);
  }
}

// CommandInterpreter::IsActive 0x006B3CE0
bool CommandInterpreter::is_active() const noexcept {
  return enabled_ && player() != nullptr;
}

// CommandInterpreter::UseTime 0x006B3BF0
void CommandInterpreter::use_time() {
  if (should_send_position_event()) send_position_event();
  PhysicsObj* p = player();
  if (p == nullptr || !enabled_ || !controlled_by_server_) return;
  const MovementManager* m = p->movement_manager();
  if (m != nullptr && (m->motions_pending() || m->is_moving_to())) return;
  if (substate_list_.get_head() != nullptr || turn_list_.get_head() != nullptr ||
      sidestep_list_.get_head() != nullptr || auto_run_) {
    take_control_from_server();
  }
}

// CommandInterpreter::ShouldSendPositionEvent 0x006B45E0
bool CommandInterpreter::should_send_position_event() const {
  if (!is_active() || autonomy_level_ != 2) return false;
  const PhysicsObj& p = *player();
  const Position& now_at = p.position();
  if (kTimeBetweenPositionEvents + last_sent_position_time_ < context_->now()) {
    // The interval has passed: only a move (cell or frame) is worth sending.
    return last_sent_position_.objcell_id != now_at.objcell_id || !last_sent_position_.frame.is_equal(now_at.frame);
  }
  // Within the interval: a new cell, or (same cell) a new contact plane.
  if (last_sent_position_.objcell_id != now_at.objcell_id) return true;
  return !plane_equal(last_sent_contact_plane_, p.contact_plane());
}

// CommandInterpreter::SendMovementEvent 0x006B4680
void CommandInterpreter::send_movement_event() {
  const PhysicsObj* p = player();
  if (p == nullptr || autonomy_level_ == 0) return;
  const std::uint32_t ts = p->transient_state();
  const bool contact = (ts & transient_state::Contact) != 0 && (ts & transient_state::OnWalkable) != 0;
  protocol::MoveToState m;
  m.sequence = next_stamp_ ? next_stamp_() : 0;
  m.raw = raw_state().pack();
  m.position = to_wire(p->position());
  m.timestamps = echoed_timestamps(*p);
  // MoveToStatePack::Pack: contact | longjump_mode << 1.
  m.contact_long_jump = static_cast<std::uint8_t>((contact ? 1u : 0u) | (standing_longjump() ? 2u : 0u));
  send(protocol::encode(m));
  // Only the time: the position the schedule compares against stays the
  // last one an AutonomousPosition carried.
  last_sent_position_time_ = context_->now();
}

// CommandInterpreter::SendPositionEvent 0x006B4770
void CommandInterpreter::send_position_event() {
  const PhysicsObj* p = player();
  if (p == nullptr) return;
  const std::uint32_t ts = p->transient_state();
  if ((ts & transient_state::Contact) == 0 || (ts & transient_state::OnWalkable) == 0) return;
  if (!position_is_valid(p->position())) return;
  protocol::AutonomousPosition m;
  m.sequence = next_stamp_ ? next_stamp_() : 0;
  m.position = to_wire(p->position());
  m.timestamps = echoed_timestamps(*p);
  m.contact = 1;  // (Contact && OnWalkable), which the gate above already required
  send(protocol::encode(m));
  last_sent_position_time_ = context_->now();
  last_sent_position_ = p->position();
  last_sent_contact_plane_ = p->contact_plane();
}

// CommandInterpreter::WhichList 0x006B3950
CommandList* CommandInterpreter::which_list(std::uint32_t cmd) noexcept {
  switch (cmd) {
    case command::TurnRight:
    case command::TurnLeft: return &turn_list_;
    case command::SideStepRight:
    case command::SideStepLeft: return &sidestep_list_;
    default: break;
  }
  if ((cmd & motion_mask::SubState) != 0 && (cmd & motion_mask::Toggle) != 0) return &substate_list_;
  return nullptr;
}

// CommandInterpreter::AddCommand 0x006B39A0
void CommandInterpreter::add_command(std::uint32_t cmd, float speed, bool hold_run) {
  if (CommandList* list = which_list(cmd)) {
    list->add_command(cmd, speed, hold_run);
    if ((cmd & motion_mask::SubState) != 0) {
      if (list == &substate_list_) handle_new_forward_movement();
      transient_state_ = false;
    }
  } else if ((cmd & motion_mask::SubState) != 0 && (cmd & motion_mask::Toggle) == 0) {
    // A one-shot substate (crouch, sit...): forward movement, held until Ready.
    handle_new_forward_movement();
    if (cmd != command::Ready) transient_state_ = true;
  }
}

// CommandInterpreter::NukeCommand 0x006B3A20
bool CommandInterpreter::nuke_command(std::uint32_t& cmd, bool& start, float& speed, bool& hold_run) {
  CommandList* list = which_list(cmd);
  if (list == nullptr) return false;
  // The entry goes even when nothing is to be done about it.
  const bool was_head = list->remove_command(cmd);
  if (!was_head || transient_state_ || (auto_run_ && list == &substate_list_)) return false;
  if (const CommandListElement* head = list->get_head()) {
    // The key below takes over.
    cmd = head->command;
    speed = head->speed;
    start = true;
    hold_run = head->hold_run;
  }
  return true;
}

// CommandInterpreter::BookkeepCommandAndModifyIfNecessary 0x006B3AD0
bool CommandInterpreter::bookkeep_command_and_modify_if_necessary(std::uint32_t& cmd, bool& start, float& speed,
                                                                  bool& hold_run) {
  if (cmd == command::Jump) return true;
  if (start) {
    add_command(cmd, speed, hold_run);
    return true;
  }
  return nuke_command(cmd, start, speed, hold_run);
}

// CommandInterpreter::ApplyHoldKeysToCommand 0x006B3340
void CommandInterpreter::apply_hold_keys_to_command(std::uint32_t& cmd) const noexcept {
  if (!hold_sidestep_) return;
  if (cmd == command::TurnRight) {
    cmd = command::SideStepRight;
  } else if (cmd == command::TurnLeft) {
    cmd = command::SideStepLeft;
  }
}

// CommandInterpreter::HandleKeyboardCommand 0x006B3690
void CommandInterpreter::handle_keyboard_command(std::uint32_t cmd, bool start, float speed) {
  if (!is_active()) return;
  if (cmd == command::AutoRun) {
    if (!start) return;
    autorun_speed_ = speed;
    toggle_auto_run();
    send_movement_event();
    return;
  }
  if ((cmd & motion_mask::UI) != 0) return;
  bool hold_run = false;
  if (controlled_by_server_ && !start) {
    // The server drives the player: a released key only leaves its list.
    nuke_command(cmd, start, speed, hold_run);
    return;
  }
  take_control_from_server();
  if (cmd == command::HoldRun || cmd == command::HoldSidestep) {
    if (cmd == command::HoldRun) {
      set_hold_run(start);
    } else {
      set_hold_sidestep(start);
    }
    if (!is_standing_still()) send_movement_event();
    return;
  }
  if (!bookkeep_command_and_modify_if_necessary(cmd, start, speed, hold_run)) {
    send_movement_event();
    return;
  }
  apply_hold_keys_to_command(cmd);
  move_player(cmd, start, speed, false, false);
  if (cmd != command::Jump) send_movement_event();
}

// CommandInterpreter::SetHoldRun 0x006B3370
void CommandInterpreter::set_hold_run(bool held) {
  if (player() == nullptr) return;
  hold_run_ = held;
  // The run key inverts the "run as the default movement" option.
  const bool run = hold_run_ != ui_toggles_run();
  if (autonomy_level_ != 0) raw_set_hold_run(run);
}

// ACCmdInterp::UITogglesRun 0x0058B180 (PlayerModule::ToggleRun 0x005D2DA0)
bool CommandInterpreter::ui_toggles_run() const noexcept {
  return context_->toggle_run;
}

// CommandInterpreter::SetHoldSidestep 0x006B3410
void CommandInterpreter::set_hold_sidestep(bool held) {
  // CommandInterpreter::StopListHeadMovement 0x006B35A0 on the turn list,
  // under the old hold state.
  if (const CommandListElement* head = turn_list_.get_head()) {
    std::uint32_t cmd = head->command;
    const float speed = head->speed;
    apply_hold_keys_to_command(cmd);
    move_player(cmd, false, speed, false, false);
  }
  hold_sidestep_ = held;
  apply_current_movement();
}

// CommandInterpreter::SetAutoRun 0x006B4850
void CommandInterpreter::set_auto_run(bool on, bool apply_movement) {
  if (on == auto_run_) return;
  auto_run_ = on;
  transient_state_ = false;
  if (on) take_control_from_server();
  if (apply_movement) apply_current_movement();
}

// ACCmdInterp::HandleNewForwardMovement 0x0058B1F0
void CommandInterpreter::handle_new_forward_movement() {
  if (combat_ != nullptr) combat_->abort_automatic_attack();
  base_handle_new_forward_movement();
}

// CommandInterpreter::TakeControlFromServer 0x006B32D0 (PlayerIsDead needs the
// interpreted state, which is the MotionInterp's: never dead here)
void CommandInterpreter::take_control_from_server() {
  if (!controlled_by_server_ || autonomy_level_ == 0) return;
  controlled_by_server_ = false;
  if (PhysicsObj* p = player()) {
    p->set_last_move_was_autonomous(true);
    // CPhysicsObj::StopCompletely -> CMotionInterp::StopCompletely 0x00527E40:
    // forward Ready at speed 1, no sidestep, no turn (their hold keys and
    // speeds stay). Without a motion interpreter, its raw half here.
    if (p->motion_interp() != nullptr) {
      p->stop_completely();
    } else {
      raw_.forward_command = command::Ready;
      raw_.forward_speed = 1.0f;
      raw_.sidestep_command = 0;
      raw_.turn_command = 0;
    }
    if (PositionManager* pm = p->position_manager()) pm->stop_interpolating();
  }
  set_hold_run(hold_run_);
  apply_current_movement();
}

// CommandInterpreter::LoseControlToServer 0x006B3170
void CommandInterpreter::lose_control_to_server() {
  if (autonomy_level_ == 0) return;
  controlled_by_server_ = true;
  set_auto_run(false, false);
}

// CommandInterpreter::ClearAllCommands 0x006B31A0
void CommandInterpreter::clear_all_commands() {
  substate_list_.clear_all_commands();
  turn_list_.clear_all_commands();
  sidestep_list_.clear_all_commands();
}

// CommandInterpreter::IsStandingStill 0x006B3CA0
bool CommandInterpreter::is_standing_still() const noexcept {
  if (player() == nullptr) return true;
  const RawMotionState& raw = raw_state();
  return raw.forward_command == command::Ready && raw.sidestep_command == 0 && raw.turn_command == 0;
}

// CMotionInterp::charge_jump 0x005281C0
std::uint32_t CommandInterpreter::charge_jump() {
  PhysicsObj* p = player();
  if (p == nullptr) return 8;
  if (MotionInterp* m = p->motion_interp()) return m->charge_jump();
  const std::uint32_t fwd = raw_.forward_command;
  if (fwd == command::Fallen || (fwd > 0x41000011 && fwd <= command::Sleeping)) return 0x48;
  const std::uint32_t ts = p->transient_state();
  if ((ts & transient_state::Contact) != 0 && (ts & transient_state::OnWalkable) != 0 && fwd == command::Ready &&
      raw_.sidestep_command == 0 && raw_.turn_command == 0) {
    standing_longjump_ = true;
  }
  return 0;
}

// CM_Movement::Event_Jump 0x006AFA70
void CommandInterpreter::send_jump_event(float extent) {
  const PhysicsObj* p = player();
  if (p == nullptr) return;
  protocol::Jump m;
  m.sequence = next_stamp_ ? next_stamp_() : 0;
  m.extent = extent;
  const glm::vec3 v = p->get_local_physics_velocity();
  m.velocity = protocol::Vec3{v.x, v.y, v.z};
  m.position = to_wire(p->position());
  m.timestamps = echoed_timestamps(*p);
  send(protocol::encode(m));
}

// CMotionInterp::jump 0x00528780 through CPhysicsObj::get_minterp
std::uint32_t CommandInterpreter::jump(float extent, int& stamina_adjustment) {
  PhysicsObj* p = player();
  if (p == nullptr) return 8;
  MotionInterp* m = p->motion_interp();
  if (m == nullptr) return movement_error::NoMotionTable;
  return m->jump(extent, stamina_adjustment);
}

// CommandInterpreter::ApplyListHeadMovement 0x006B3510
void CommandInterpreter::apply_list_head_movement(const CommandList& list) {
  const CommandListElement* head = list.get_head();
  if (head == nullptr) return;
  std::uint32_t cmd = head->command;
  const float speed = head->speed;
  apply_hold_keys_to_command(cmd);
  move_player(cmd, true, speed, false, false);
}

// CommandInterpreter::ApplyCurrentMovement 0x006B3430
void CommandInterpreter::apply_current_movement() {
  if (player() == nullptr) return;
  if (auto_run_) {
    move_player(command::WalkForward, true, autorun_speed_, true, true);
  } else if (substate_list_.get_head() != nullptr) {
    apply_list_head_movement(substate_list_);
  } else if (!transient_state_) {
    move_player(command::Ready, true, 1.0f, false, false);
  }
  if (turn_list_.get_head() != nullptr) {
    apply_list_head_movement(turn_list_);
  } else {
    // No turn key: retail stops SideStepRight, then TurnRight.
    move_player(command::SideStepRight, false, 1.0f, false, false);
    move_player(command::TurnRight, false, 1.0f, false, false);
  }
  if (sidestep_list_.get_head() != nullptr) {
    apply_list_head_movement(sidestep_list_);
  } else {
    move_player(command::SideStepRight, false, 1.0f, false, false);
  }
}

// CommandInterpreter::MovePlayer 0x006B3F40
void CommandInterpreter::move_player(std::uint32_t cmd, bool start, float speed, bool mouse, bool hold_run) {
  if (player() == nullptr) return;
  // Keyboard commands carry no hold key; mouse and autorun commands carry
  // Run or None and clear SetHoldKey.
  const HoldKey key = mouse ? (hold_run ? HoldKey::Run : HoldKey::None) : HoldKey::Invalid;
  if (autonomy_level_ == 0) {
    move_player_non_autonomous(cmd, start, speed, key);
    return;
  }
  if (cmd == command::Jump) return;
  MovementParameters params;
  params.hold_key = static_cast<std::uint32_t>(key);
  if (mouse) params.bitfield &= ~MovementParameters::kSetHoldKey;
  if (start) {
    params.action_stamp = action_stamp_;
    params.bitfield |= MovementParameters::kAutonomous;
    params.speed = speed;
    if (do_motion(cmd, params) == movement_error::None && (cmd & motion_mask::Action) != 0) ++action_stamp_;
  } else {
    stop_motion(cmd, params);
  }
}

// CPhysicsObj::DoMotion 0x00510020: the player's motion interpreter
// (CMotionInterp::DoMotion 0x00528D20); without one, its raw-state half.
std::uint32_t CommandInterpreter::do_motion(std::uint32_t motion, const MovementParameters& params) {
  PhysicsObj* p = player();
  if (p != nullptr && p->motion_interp() != nullptr) return p->do_motion(motion, params);
  if ((params.bitfield & MovementParameters::kSetHoldKey) != 0) set_hold_key(static_cast<HoldKey>(params.hold_key));
  if ((params.bitfield & MovementParameters::kModifyRawState) != 0) raw_.apply_motion(motion, params);
  return movement_error::None;
}

// CPhysicsObj::StopMotion 0x005100D0 (CMotionInterp::StopMotion 0x00528530);
// without a motion interpreter, its raw-state half.
void CommandInterpreter::stop_motion(std::uint32_t motion, const MovementParameters& params) {
  PhysicsObj* p = player();
  if (p != nullptr && p->motion_interp() != nullptr) {
    p->stop_motion(motion, params);
    return;
  }
  if ((params.bitfield & MovementParameters::kModifyRawState) != 0) raw_.remove_motion(motion);
}

// CMotionInterp::SetHoldKey 0x00528BB0: only None (from Run) and Run change it.
void CommandInterpreter::set_hold_key(HoldKey key) {
  if (key == raw_.current_holdkey) return;
  if (key == HoldKey::None) {
    if (raw_.current_holdkey == HoldKey::Run) raw_.current_holdkey = HoldKey::None;
  } else if (key == HoldKey::Run) {
    raw_.current_holdkey = HoldKey::Run;
  }
}

// CMotionInterp::set_hold_run 0x00528B70
void CommandInterpreter::raw_set_hold_run(bool run) {
  if (PhysicsObj* p = player()) {
    if (MotionInterp* m = p->motion_interp()) {
      m->set_hold_run(run, true);  // SetHoldRun 0x006B3370 cancels a move-to
      return;
    }
  }
  if (run != (raw_.current_holdkey == HoldKey::Run)) raw_.current_holdkey = run ? HoldKey::Run : HoldKey::None;
}

}  // namespace dereth::sim
