#pragma once
// MotionInterp (retail CMotionInterp, canim/CMotionInterp.c) with the
// InterpretedMotionState it keeps (CMInterpPrim, canim/CMInterpPrim.c): the
// raw motion state (the local player's keys) and the interpreted state (the
// canonical form the server sends for other objects), applied through the
// part array (motion_interp.cpp).

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/protocol/movement.hpp"
#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/movement_parameters.hpp"
#include "dereth/sim/motion/raw_motion_state.hpp"

namespace dereth::sim {

class PhysicsObj;

// InterpretedMotionState (CMInterpPrim): the canonical motion state.
struct InterpretedMotionState {
  struct Action {
    std::uint32_t motion = 0;
    float speed = 1.0f;
    std::uint32_t stamp = 0;
    bool autonomous = false;
    bool operator==(const Action&) const = default;
  };

  // InterpretedMotionState::InterpretedMotionState 0x0051E8D0 defaults.
  std::uint32_t current_style = motion_command::NonCombat;
  std::uint32_t forward_command = motion_command::Ready;
  float forward_speed = 1.0f;
  std::uint32_t sidestep_command = 0;
  float sidestep_speed = 1.0f;
  std::uint32_t turn_command = 0;
  float turn_speed = 1.0f;
  std::vector<Action> actions;

  // InterpretedMotionState::ApplyMotion 0x0051EA40
  void apply_motion(std::uint32_t motion, const MovementParameters& params);
  // InterpretedMotionState::RemoveMotion 0x0051E790
  void remove_motion(std::uint32_t motion);
  // InterpretedMotionState::copy_movement_from 0x0051E750 (not the actions)
  void copy_movement_from(const InterpretedMotionState& other);
  // InterpretedMotionState::AddAction 0x0051E9E0
  void add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous);
  // InterpretedMotionState::RemoveAction 0x0051EAD0: the motion, or 0.
  std::uint32_t remove_action();
};

// The interpreted state carried by a Movement (u16 commands widened through
// motion_command_from_wire; unknown commands logged and left at defaults).
[[nodiscard]] InterpretedMotionState interpreted_state_from_wire(const protocol::InterpretedMotionState& wire);

// CMotionInterp: the raw state (what the local player pressed) and the
// interpreted state (the canonical form the server sends for everyone else),
// hold keys, jumps; the MoveTo manager is not ported. apply_current_movement
// rebuilds the animation from the raw state for the local player whose last
// move was its own (autonomous), from the interpreted state otherwise.
class MotionInterp {
 public:
  struct PendingMotion {
    std::uint32_t context_id = 0;
    std::uint32_t motion = 0;
    std::uint32_t jump_error = 0;
    bool operator==(const PendingMotion&) const = default;
  };

  explicit MotionInterp(PhysicsObj& owner) : owner_(&owner) {}

  [[nodiscard]] const InterpretedMotionState& interpreted_state() const noexcept { return interpreted_; }
  [[nodiscard]] const RawMotionState& raw_state() const noexcept { return raw_; }
  [[nodiscard]] const std::vector<PendingMotion>& pending_motions() const noexcept { return pending_; }
  [[nodiscard]] bool initted() const noexcept { return initted_; }

  // CMotionInterp::InqStyle 0x00527B10
  [[nodiscard]] std::uint32_t inq_style() const noexcept { return interpreted_.current_style; }
  // CMotionInterp::enter_default_state 0x00528C80
  void enter_default_state();
  // CMotionInterp::DoMotion 0x00528D20: the hold key, adjust_motion, the
  // interpreted motion, and on success the raw state.
  std::uint32_t do_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopMotion 0x00528530
  std::uint32_t stop_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::DoInterpretedMotion 0x00528360
  std::uint32_t do_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopInterpretedMotion 0x00528470
  std::uint32_t stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopCompletely 0x00527E40
  std::uint32_t stop_completely();
  // CMotionInterp::apply_interpreted_movement 0x00528600
  void apply_interpreted_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::apply_raw_movement 0x005287E0: the raw state copied into
  // the interpreted state, each slot through adjust_motion with its hold key.
  void apply_raw_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::apply_current_movement 0x00528870: raw for the local
  // player (or an object without a weenie) whose last move was autonomous.
  void apply_current_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::move_to_interpreted_state 0x005289C0
  bool move_to_interpreted_state(const InterpretedMotionState& state);
  // CMotionInterp::contact_allows_move 0x00528240
  [[nodiscard]] bool contact_allows_move(std::uint32_t motion) const;
  // CMotionInterp::adjust_motion 0x00528010: `key` Invalid means the raw
  // state's current hold key.
  void adjust_motion(std::uint32_t& motion, float& speed, HoldKey key = HoldKey::Invalid) const;
  // CMotionInterp::apply_run_to_command 0x00527BE0
  void apply_run_to_command(std::uint32_t& motion, float& speed) const;
  // CMotionInterp::set_hold_run 0x00528B70
  void set_hold_run(bool run, bool cancel_moveto);
  // CMotionInterp::SetHoldKey 0x00528BB0
  void set_hold_key(HoldKey key, bool cancel_moveto);
  // CMotionInterp::is_standing_still 0x00527FA0
  [[nodiscard]] bool is_standing_still() const;
  // CMotionInterp::motion_allows_jump 0x005279E0: 0, or 72 for a substate
  // (or action) from which no jump is allowed.
  [[nodiscard]] static std::uint32_t motion_allows_jump(std::uint32_t substate) noexcept;
  // CMotionInterp::jump_charge_is_allowed 0x00527A50: 73 when the weenie
  // says the burden forbids it (ACCWeenieObject::CanJump false: too loaded
  // down, not the player, or no qualities yet), 72 from a pose that cannot jump.
  [[nodiscard]] std::uint32_t jump_charge_is_allowed() const;
  // CMotionInterp::charge_jump 0x005281C0
  std::uint32_t charge_jump();
  // CMotionInterp::jump_is_allowed 0x005282B0: 36 in the air, 71 fully
  // constrained, a pending motion's jump error, jump_charge_is_allowed's
  // answer, motion_allows_jump's; then the weenie's JumpStaminaCost fills
  // `stamina_cost` (71 when it gives no answer). The cost is not compared
  // with the stamina: the server does that.
  [[nodiscard]] std::uint32_t jump_is_allowed(float extent, int& stamina_cost) const;
  // CMotionInterp::jump 0x00528780: on success the extent is kept and the
  // object leaves the ground (set_on_walkable(false) -> LeaveGround).
  std::uint32_t jump(float extent, int& stamina_adjustment);
  // CMotionInterp::get_jump_v_z 0x00527AA0
  [[nodiscard]] float get_jump_v_z() const;
  // CMotionInterp::add_to_queue 0x00527B80
  void add_to_queue(std::uint32_t context_id, std::uint32_t motion, std::uint32_t jump_error);
  // CMotionInterp::MotionDone 0x00527EC0
  void motion_done(bool success);
  // CMotionInterp::HandleExitWorld 0x00527F30
  void handle_exit_world();
  // CMotionInterp::HitGround 0x00528AC0
  void hit_ground();
  // CMotionInterp::LeaveGround 0x00528B00
  void leave_ground();
  // CMotionInterp::get_state_velocity 0x00527D50: object-local.
  [[nodiscard]] glm::vec3 get_state_velocity() const;
  // CMotionInterp::get_max_speed 0x00527CB0: 4 x InqRunRate.
  [[nodiscard]] float get_max_speed() const;
  // CMotionInterp::get_adjusted_max_speed 0x00527D00: as get_max_speed, but a
  // RunForward state uses its own forward speed (current_speed_factor, never
  // written after CMotionInterp::Create sets it to 1, divides it).
  [[nodiscard]] float get_adjusted_max_speed() const;
  // CMotionInterp::get_leave_ground_velocity 0x005280C0: the state velocity
  // with the jump's vertical speed, or the current velocity when both are nil.
  [[nodiscard]] glm::vec3 get_leave_ground_velocity() const;
  // CMotionInterp::motions_pending 0x00527FE0
  [[nodiscard]] bool motions_pending() const noexcept { return !pending_.empty(); }
  // The run rate the weenie answers (ACCWeenieObject::InqRunRate, from the
  // run skill) or, when it answers none, my_run_rate; 1 without a weenie.
  [[nodiscard]] float inq_run_rate() const;

  bool standing_longjump = false;
  std::uint32_t server_action_stamp = 0;
  float my_run_rate = 1.0f;
  float jump_extent = 0.0f;

 private:
  [[nodiscard]] bool is_creature_or_unknown() const;
  [[nodiscard]] bool is_the_player_or_unknown() const;
  void remove_link_animations_when_cell_less();

  PhysicsObj* owner_;
  RawMotionState raw_;
  InterpretedMotionState interpreted_;
  std::vector<PendingMotion> pending_;
  bool initted_ = false;
};

}  // namespace dereth::sim
