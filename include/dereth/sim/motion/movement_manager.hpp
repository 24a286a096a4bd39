#pragma once
// MovementManager: the seam for the object's motion state machine
// (MovementManager / MotionInterp; DatMovementManager is the real one), and
// the MovementParameters the motion code reads.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/snapshot/render_snapshot.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

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

// MovementStruct types (MovementManager::PerformMovement).
enum class MovementKind : std::uint8_t {
  RawCommand = 1,
  InterpretedCommand = 2,
  StopRawCommand = 3,
  StopInterpretedCommand = 4,
  StopCompletely = 5,
  MoveToObject = 6,
  MoveToPosition = 7,
  TurnToObject = 8,
  TurnToHeading = 9,
};

// MovementStruct: one movement for MovementManager::PerformMovement (the
// motion kinds read motion and params; the MoveTo kinds the rest).
struct MovementStruct {
  MovementKind type = MovementKind::StopCompletely;
  std::uint32_t motion = 0;
  std::uint32_t object_id = 0;
  std::uint32_t top_level_id = 0;
  Position pos;
  float radius = 0.0f;
  float height = 0.0f;
  MovementParameters params;
};

class MotionInterp;

// MovementManager / MotionInterp: the object's motion state machine.
class MovementManager {
 public:
  MovementManager() = default;
  MovementManager(const MovementManager&) = delete;
  MovementManager& operator=(const MovementManager&) = delete;
  virtual ~MovementManager() = default;

  // CPhysicsObj::unpack_movement: a movement that passed the Movement and
  // ServerControlledMove gates (CPhysics::SetObjectMovement 0x00509690).
  virtual void unpack_movement(const protocol::MovementData& /*data*/, bool /*autonomous*/) {}
  virtual void use_time() {}                                         // MovementManager::UseTime
  virtual void handle_enter_world() {}                               // MovementManager::HandleEnterWorld
  virtual void handle_exit_world() {}                                // MovementManager::HandleExitWorld
  virtual void cancel_move_to() {}                                   // MovementManager::CancelMoveTo 0x005241B0
  virtual void leave_ground() {}                                     // MovementManager::LeaveGround
  virtual void hit_ground() {}                                       // MovementManager::HitGround
  [[nodiscard]] virtual bool is_moving_to() const { return false; }  // MovementManager::IsMovingTo 0x00524260
  // MovementManager::HandleUpdateTarget 0x00524790
  virtual void handle_update_target(const TargetInfo& /*info*/) {}
  virtual void enter_default_state() {}                              // MovementManager::EnterDefaultState 0x005241C0
  virtual void motion_done(std::uint32_t /*motion*/, bool /*success*/) {}  // MovementManager::MotionDone 0x005242D0
  [[nodiscard]] virtual bool motions_pending() const { return false; }  // MovementManager::motions_pending 0x00524280
  // CMotionInterp::get_max_speed 0x00527CB0 and get_adjusted_max_speed
  // 0x00527D00 (through get_minterp); 0 stands for "no motion interpreter".
  [[nodiscard]] virtual float get_max_speed() { return 0.0f; }
  [[nodiscard]] virtual float get_adjusted_max_speed() { return 0.0f; }
  // MovementManager::PerformMovement 0x005240D0 for the motion kinds (1-5);
  // 7 (no motion table) where there is no motion interpreter.
  virtual std::uint32_t perform_movement(MovementKind /*kind*/, std::uint32_t /*motion*/,
                                         const MovementParameters& /*params*/) {
    return 7;
  }
  // MovementManager::PerformMovement 0x005240D0 for any kind: the motion
  // kinds through the overload above, the MoveTo kinds (6-9) through the
  // MoveToManager, which a manager without one (test fakes) lacks: 7.
  virtual std::uint32_t perform_movement_struct(const MovementStruct& mvs) {
    if (static_cast<std::uint8_t>(mvs.type) <= 5) return perform_movement(mvs.type, mvs.motion, mvs.params);
    return 7;
  }
  // MovementManager::get_minterp 0x005242A0; null for a manager without one
  // (test fakes).
  [[nodiscard]] virtual MotionInterp* get_motion_interp() { return nullptr; }
};

}  // namespace dereth::sim
