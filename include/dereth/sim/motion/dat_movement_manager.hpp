#pragma once
// DatMovementManager: the MovementManager seam's real implementation (retail
// MovementManager over CMotionInterp and MoveToManager): Movement messages
// drive the motion table (the interpreted form) or a MoveTo (types 6-9)
// (dat_movement_manager.cpp).

#include <cstdint>
#include <memory>

#include "dereth/protocol/movement.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/motion/movement_manager.hpp"

namespace dereth::sim {

class PhysicsObj;
class MoveToManager;

// MovementManager over MotionInterp and MoveToManager: Movement messages
// drive the motion table (the interpreted form) or a MoveTo (types 6-9).
class DatMovementManager final : public MovementManager {
 public:
  explicit DatMovementManager(PhysicsObj& owner);
  ~DatMovementManager() override;

  // MovementManager::unpack_movement 0x00524440
  void unpack_movement(const protocol::MovementData& data, bool autonomous) override;
  // MovementManager::EnterDefaultState 0x005241C0
  void enter_default_state() override;
  // MovementManager::MotionDone 0x005242D0
  void motion_done(std::uint32_t motion, bool success) override;
  // MovementManager::HandleExitWorld 0x00524350
  void handle_exit_world() override;
  // MovementManager::HitGround 0x00524300: the interpreter, then the MoveTo.
  void hit_ground() override;
  // MovementManager::LeaveGround 0x00524320 (the MoveTo's half is empty)
  void leave_ground() override;
  // MovementManager::UseTime 0x005242F0
  void use_time() override;
  // MovementManager::CancelMoveTo 0x005241B0 (CPhysicsObj::cancel_moveto's 0x36)
  void cancel_move_to() override;
  // MovementManager::IsMovingTo 0x00524260
  [[nodiscard]] bool is_moving_to() const override;
  // MovementManager::HandleUpdateTarget 0x00524790
  void handle_update_target(const TargetInfo& info) override;
  // MovementManager::motions_pending 0x00524280
  [[nodiscard]] bool motions_pending() const override { return minterp_ && minterp_->motions_pending(); }
  // MovementManager::PerformMovement 0x005240D0 for the interpreted kinds
  // (InterpretedCommand, StopInterpretedCommand, StopCompletely).
  std::uint32_t perform_movement(MovementKind kind, std::uint32_t motion, const MovementParameters& params) override;
  // MovementManager::PerformMovement 0x005240D0: the MoveTo kinds (6-9)
  // through the MoveToManager (made on first use).
  std::uint32_t perform_movement_struct(const MovementStruct& mvs) override;
  // CMotionInterp::get_max_speed 0x00527CB0, through get_minterp
  [[nodiscard]] float get_max_speed() override { return get_minterp().get_max_speed(); }
  // CMotionInterp::get_adjusted_max_speed 0x00527D00, through get_minterp
  [[nodiscard]] float get_adjusted_max_speed() override { return get_minterp().get_adjusted_max_speed(); }
  // MovementManager::get_minterp 0x005242A0: created (in its default state)
  // on first use.
  MotionInterp& get_minterp();
  [[nodiscard]] MotionInterp* motion_interpreter() const noexcept { return minterp_.get(); }
  [[nodiscard]] MotionInterp* get_motion_interp() override { return &get_minterp(); }
  // MovementManager::MakeMoveToManager 0x00524000
  MoveToManager& make_move_to_manager();
  [[nodiscard]] MoveToManager* move_to_manager() const noexcept { return moveto_manager_.get(); }

 private:
  PhysicsObj* owner_;
  std::unique_ptr<MotionInterp> minterp_;
  std::unique_ptr<MoveToManager> moveto_manager_;
};

}  // namespace dereth::sim
