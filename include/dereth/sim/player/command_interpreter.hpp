#pragma once
// CommandInterpreter (retail CommandInterpreter / ACCmdInterp), the SmartBox's
// PlayerController: movement keys become the player's raw motion state
// (through CPhysicsObj::DoMotion/StopMotion, as MovePlayer does), and that
// state and the canonical position become F7B1 MoveToState and
// AutonomousPosition. docs/sim.md "The CommandInterpreter"; spec/protocol.md 5.14.

#include <cstdint>
#include <functional>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/raw_motion_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/seams.hpp"
#include "dereth/sim/player/command_list.hpp"

namespace dereth::sim {

class SimContext;
class ClientCombatSystem;

// The commands the interpreter handles (retail MotionCommand values): the
// motion code's (motion_table.hpp) plus the interpreter's own.
namespace command {
using namespace motion_command;  // Ready, WalkForward, ..., Crouch, Jump, NonCombat
inline constexpr std::uint32_t Fallen = 0x40000008;
inline constexpr std::uint32_t AutoRun = 0x090000C7;
inline constexpr std::uint32_t HoldRun = 0x85000001;
inline constexpr std::uint32_t HoldSidestep = 0x85000002;
}  // namespace command

// F7B1 action types the interpreter and the combat system send.
namespace game_action {
inline constexpr std::uint32_t CancelAttack = 0x01B7;  // CM_Combat::Event_CancelAttack
}  // namespace game_action

class CommandInterpreter final : public PlayerController {
 public:
  // The F7B1 message and the queue it goes on (3, Weenie).
  using SendFn = std::function<void(std::vector<std::uint8_t> message, std::uint16_t queue)>;
  // Proto_UI::GetNextUICounter: the next F7B1 stamp.
  using StampFn = std::function<std::uint32_t()>;

  static constexpr std::uint16_t kQueue = 3;
  // time_between_position_events, set by the constructor (the double 1.0).
  static constexpr core::Seconds kTimeBetweenPositionEvents{1.0};

  // CommandInterpreter::CommandInterpreter 0x006B3E40: autonomy 2, controlled
  // by the server, enabled, action stamp 1, last sent position time = now,
  // last sent position cell 0 with the identity frame, zero contact plane.
  CommandInterpreter(SimContext& context, SendFn send, StampFn next_stamp);

  // --- PlayerController ------------------------------------------------------
  // CommandInterpreter::UsePositionFromServer 0x006B3B40: autonomy level != 2.
  [[nodiscard]] bool server_controls_player() const override { return use_position_from_server(); }
  // SmartBox::HandleReceivedPosition 0x00453FD0 keeps the heading when the
  // interpreter's autonomy level is non-zero.
  [[nodiscard]] bool keep_heading_on_interpolate() const override { return autonomy_level_ != 0; }
  // The ForcePosition blip: SendPositionEvent (its own gate decides).
  void send_position_event(const PhysicsObj& player) override;
  // A server (non-autonomous) Movement for the player: LoseControlToServer.
  void movement_applied(const PhysicsObj& player) override;
  // The SmartBox's teleport notice: PlayerTeleported.
  void player_teleported(const PhysicsObj& player) override;

  // --- Retail entry points ---------------------------------------------------
  // CommandInterpreter::UsePositionFromServer 0x006B3B40
  [[nodiscard]] bool use_position_from_server() const noexcept { return autonomy_level_ != 2; }
  // CommandInterpreter::SetAutonomyLevel 0x006B3BB0: levels above 2 refused;
  // an accepted level (changed or not) is told to the server
  // (ACCmdInterp::SendAutonomyLevelEvent 0x0058B210: F7B1/F752).
  bool set_autonomy_level(std::uint32_t level);
  [[nodiscard]] std::uint32_t autonomy_level() const noexcept { return autonomy_level_; }
  // CommandInterpreter::IsActive 0x006B3CE0
  [[nodiscard]] bool is_active() const noexcept;
  void set_enabled(bool enabled) noexcept { enabled_ = enabled; }

  // CommandInterpreter::UseTime 0x006B3BF0: a position event when due, then
  // control back from the server when keys are held and nothing is pending.
  void use_time();
  // CommandInterpreter::ShouldSendPositionEvent 0x006B45E0
  [[nodiscard]] bool should_send_position_event() const;
  // CommandInterpreter::SendMovementEvent 0x006B4680
  void send_movement_event();
  // CommandInterpreter::SendPositionEvent 0x006B4770
  void send_position_event();

  // CommandInterpreter::HandleKeyboardCommand 0x006B3690: `command` is a
  // movement command (forward/backward, turn, sidestep), HoldRun or
  // HoldSidestep; `start` true on press, false on release.
  void handle_keyboard_command(std::uint32_t command, bool start, float speed = 1.0f);
  // CommandInterpreter::SetHoldRun 0x006B3370
  void set_hold_run(bool held);
  // CommandInterpreter::SetHoldSidestep 0x006B3410
  void set_hold_sidestep(bool held);
  // CommandInterpreter::SetAutoRun 0x006B4850 (the "AutoRun ON/OFF" notice is the UI's)
  void set_auto_run(bool on, bool apply_movement);
  // CommandInterpreter::ToggleAutoRun 0x006B3CC0
  void toggle_auto_run() { set_auto_run(!auto_run_, true); }
  // ACCmdInterp::HandleNewForwardMovement 0x0058B1F0: the combat system
  // aborts an automatic attack first, then the base behaviour.
  void handle_new_forward_movement();
  // CommandInterpreter::HandleNewForwardMovement 0x006B3D60: autorun off.
  void base_handle_new_forward_movement() { set_auto_run(false, true); }
  // CommandInterpreter::PlayerTeleported 0x006B32B0 (ACCmdInterp does not
  // override it): autorun off, the movement re-applied (SetAutoRun(0, 1)),
  // then a MoveToState (SendMovementEvent), whether autorun was on or not.
  void player_teleported();
  // CommandInterpreter::TakeControlFromServer 0x006B32D0
  void take_control_from_server();
  // CommandInterpreter::LoseControlToServer 0x006B3170
  void lose_control_to_server();
  // CommandInterpreter::ApplyCurrentMovement 0x006B3430
  void apply_current_movement();
  // CommandInterpreter::ClearAllCommands 0x006B31A0
  void clear_all_commands();
  // CommandInterpreter::IsStandingStill 0x006B3CA0 (CMotionInterp::is_standing_still
  // over the raw state: Ready, no sidestep, no turn).
  [[nodiscard]] bool is_standing_still() const noexcept;
  // CMotionInterp::charge_jump 0x005281C0 on the player's motion interpreter
  // (its interpreted state): 0x48 while fallen, crouching, sitting or
  // sleeping, else 0 (and a standing long jump when grounded with no
  // movement); 0x49 when the player's weenie says it is too loaded down.
  // Without one, the pose checks over the raw state.
  std::uint32_t charge_jump();
  // CMotionInterp::jump 0x00528780 on the player's motion interpreter, as
  // ClientCombatSystem::DoJump 0x0056B110 calls it (the stamina cost comes
  // back in `stamina_adjustment`); 8 without a player, 7 without a motion
  // interpreter.
  std::uint32_t jump(float extent, int& stamina_adjustment);
  // CM_Movement::Event_Jump 0x006AFA70 with JumpPack::JumpPack 0x00516C70:
  // F7B1/F61B with the extent, the player's local velocity
  // (get_local_physics_velocity), its position and stamps 8, 5, 4, 6.
  void send_jump_event(float extent);
  // ACCmdInterp::SendAutonomyLevelEvent 0x0058B210 (CM_Movement::Event_AutonomyLevel 0x006AF850)
  void send_autonomy_level_event(std::uint32_t level);
  // ACCmdInterp::SendDoMovementEvent 0x0058B230 (CM_Movement::Event_DoMovementCommand 0x006AF920)
  void send_do_movement_event(std::uint32_t motion, float speed, HoldKey hold_key);
  // ACCmdInterp::SendStopMovementEvent 0x0058B250 (CM_Movement::Event_StopMovementCommand 0x006AFCC0)
  void send_stop_movement_event(std::uint32_t motion, HoldKey hold_key);
  // CM_Movement::Event_Jump_NonAutonomous 0x006AFB30: F7B1/F7C9 with the extent.
  void send_jump_non_autonomous_event(float extent);
  // ACCmdInterp::CommenceJump 0x0058B1A0 / DoJump 0x0058B1C0: the combat
  // system's (nothing without one).
  void commence_jump();
  void do_jump(bool autonomous);
  // CommandInterpreter::MovePlayer_NonAutonomous 0x006B3D00: at autonomy 0
  // the server moves the player: the Jump command charges (down) and sends
  // the non-autonomous jump (up); any other command is sent as a
  // DoMovementCommand (start) or StopMovementCommand.
  void move_player_non_autonomous(std::uint32_t cmd, bool start, float speed, HoldKey key);

  // The combat system the ACCmdInterp override talks to (not owned; may be null).
  void set_combat_system(ClientCombatSystem* combat) noexcept { combat_ = combat; }
  // ACCmdInterp::UITogglesRun 0x0058B180: the player's ToggleRun option
  // (SimContext::toggle_run), which SetHoldRun inverts the run key with. It
  // is read at each SetHoldRun (taking control, the run key), as retail
  // reads the PlayerModule (the PlayerDescription's options send no notice).
  [[nodiscard]] bool ui_toggles_run() const noexcept;

  // --- State, for the app and tests -----------------------------------------
  // The player's raw motion state: its motion interpreter's (CPhysicsObj::
  // InqRawMotionState), or, for a player without one (no motion table), the
  // interpreter's own copy.
  [[nodiscard]] const RawMotionState& raw_state() const noexcept;
  [[nodiscard]] bool controlled_by_server() const noexcept { return controlled_by_server_; }
  [[nodiscard]] bool auto_run() const noexcept { return auto_run_; }
  [[nodiscard]] bool hold_run() const noexcept { return hold_run_; }
  // The player's motion interpreter's standing_longjump (the interpreter's
  // own flag without one).
  [[nodiscard]] bool standing_longjump() const noexcept;
  void set_standing_longjump(bool on) noexcept;
  [[nodiscard]] std::uint32_t action_stamp() const noexcept { return action_stamp_; }
  [[nodiscard]] core::Seconds last_sent_position_time() const noexcept { return last_sent_position_time_; }
  [[nodiscard]] const Position& last_sent_position() const noexcept { return last_sent_position_; }
  [[nodiscard]] const Plane& last_sent_contact_plane() const noexcept { return last_sent_contact_plane_; }
  [[nodiscard]] const CommandList& substate_list() const noexcept { return substate_list_; }
  [[nodiscard]] const CommandList& turn_list() const noexcept { return turn_list_; }
  [[nodiscard]] const CommandList& sidestep_list() const noexcept { return sidestep_list_; }

  // The outbound path, for the combat system's own events.
  void send_game_action(std::uint32_t action);
  // Proto_UI::GetNextUICounter (0 without a counter) and a whole F7B1
  // message sent on the interpreter's queue.
  [[nodiscard]] std::uint32_t next_stamp() { return next_stamp_ ? next_stamp_() : 0; }
  void send_message(std::vector<std::uint8_t> bytes) { send(std::move(bytes)); }
  // CPhysicsObj::player_object (null before the player exists).
  [[nodiscard]] PhysicsObj* player_object() const noexcept { return player(); }
  // Timer::cur_time: the SimContext's clock.
  [[nodiscard]] core::Seconds now() const;

 private:
  PhysicsObj* player() const noexcept;
  [[nodiscard]] protocol::EchoedTimestamps echoed_timestamps(const PhysicsObj& p) const noexcept;
  // CommandInterpreter::WhichList 0x006B3950
  CommandList* which_list(std::uint32_t command) noexcept;
  // CommandInterpreter::AddCommand 0x006B39A0
  void add_command(std::uint32_t command, float speed, bool hold_run);
  // CommandInterpreter::NukeCommand 0x006B3A20
  bool nuke_command(std::uint32_t& command, bool& start, float& speed, bool& hold_run);
  // CommandInterpreter::BookkeepCommandAndModifyIfNecessary 0x006B3AD0
  bool bookkeep_command_and_modify_if_necessary(std::uint32_t& command, bool& start, float& speed, bool& hold_run);
  // CommandInterpreter::ApplyHoldKeysToCommand 0x006B3340
  void apply_hold_keys_to_command(std::uint32_t& command) const noexcept;
  // CommandInterpreter::ApplyListHeadMovement 0x006B3510
  void apply_list_head_movement(const CommandList& list);
  // CommandInterpreter::MovePlayer 0x006B3F40 (keyboard and autorun; no mouse turning)
  void move_player(std::uint32_t command, bool start, float speed, bool mouse, bool hold_run);
  // CPhysicsObj::DoMotion 0x00510020 (CMotionInterp::DoMotion 0x00528D20);
  // without a motion interpreter, its raw-state half.
  std::uint32_t do_motion(std::uint32_t motion, const MovementParameters& params);
  // CPhysicsObj::StopMotion 0x005100D0 (CMotionInterp::StopMotion 0x00528530);
  // without a motion interpreter, its raw-state half.
  void stop_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::SetHoldKey 0x00528BB0
  void set_hold_key(HoldKey key);
  void raw_set_hold_run(bool run);  // CMotionInterp::set_hold_run 0x00528B70
  void send(std::vector<std::uint8_t> bytes);

  SimContext* context_;
  SendFn send_;
  StampFn next_stamp_;
  ClientCombatSystem* combat_ = nullptr;

  RawMotionState raw_;
  CommandList substate_list_;
  CommandList turn_list_;
  CommandList sidestep_list_;
  std::uint32_t autonomy_level_ = 2;
  bool controlled_by_server_ = true;
  bool hold_run_ = false;
  bool hold_sidestep_ = false;
  bool transient_state_ = false;
  bool enabled_ = true;
  bool auto_run_ = false;
  bool standing_longjump_ = false;
  float autorun_speed_ = 1.0f;
  std::uint32_t action_stamp_ = 1;
  core::Seconds last_sent_position_time_{0.0};
  Position last_sent_position_;
  Plane last_sent_contact_plane_;
};

}  // namespace dereth::sim
