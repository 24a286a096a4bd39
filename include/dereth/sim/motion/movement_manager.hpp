#pragma once
// MovementManager: the seam for the object's motion state machine
// (MovementManager / MotionInterp; DatMovementManager is the real one), with
// the MovementStruct it performs. MovementParameters and RawMotionState have
// their own headers (movement_parameters.hpp, raw_motion_state.hpp).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/motion/movement_parameters.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;

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
  virtual void enter_default_state() {}  // MovementManager::EnterDefaultState 0x005241C0
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
