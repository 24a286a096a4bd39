#include "dereth/sim/motion_table.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/physics_obj.hpp"
#include "dereth/sim/sim_context.hpp"

namespace dereth::sim {


// --- DatMovementManager ---------------------------------------------------------------

// MovementManager::get_minterp 0x005242A0
MotionInterp& DatMovementManager::get_minterp() {
  if (!minterp_) {
    minterp_ = std::make_unique<MotionInterp>(*owner_);
    minterp_->enter_default_state();
  }
  return *minterp_;
}

// MovementManager::EnterDefaultState 0x005241C0: a new interpreter enters its
// default state twice, as retail's does.
void DatMovementManager::enter_default_state() {
  get_minterp().enter_default_state();
}

// MovementManager::MotionDone 0x005242D0
void DatMovementManager::motion_done(std::uint32_t /*motion*/, bool success) {
  if (minterp_) minterp_->motion_done(success);
}

// MovementManager::HandleExitWorld 0x00524350
void DatMovementManager::handle_exit_world() {
  if (minterp_) minterp_->handle_exit_world();
}

// MovementManager::HitGround 0x00524300
void DatMovementManager::hit_ground() {
  if (minterp_) minterp_->hit_ground();
}

// MovementManager::LeaveGround 0x00524320
void DatMovementManager::leave_ground() {
  if (minterp_) minterp_->leave_ground();
}

// MovementManager::PerformMovement 0x005240D0
std::uint32_t DatMovementManager::perform_movement(MovementKind kind, std::uint32_t motion,
                                                   const MovementParameters& params) {
  owner_->set_active(true);
  MotionInterp& minterp = get_minterp();
  std::uint32_t result = movement_error::GeneralMovementFailure;
  switch (kind) {
    case MovementKind::InterpretedCommand: result = minterp.do_interpreted_motion(motion, params); break;
    case MovementKind::StopInterpretedCommand: result = minterp.stop_interpreted_motion(motion, params); break;
    case MovementKind::StopCompletely: result = minterp.stop_completely(); break;
    case MovementKind::RawCommand: result = minterp.do_motion(motion, params); break;
    case MovementKind::StopRawCommand: result = minterp.stop_motion(motion, params); break;
    default: return movement_error::GeneralMovementFailure;
  }
  owner_->check_for_completed_motions();
  return result;
}

// MovementManager::unpack_movement 0x00524440
void DatMovementManager::unpack_movement(const protocol::MovementData& data, bool /*autonomous*/) {
  // Retail unpacks nothing for an object whose interpreter was never made
  // (no motion table).
  if (!minterp_) return;
  if (const auto style = motion_command_from_wire(data.current_style); style && minterp_->inq_style() != *style) {
    minterp_->do_motion(*style, MovementParameters{});
  }
  if (const auto* interpreted = std::get_if<protocol::InterpretedMovement>(&data.payload)) {
    minterp_->move_to_interpreted_state(interpreted_state_from_wire(interpreted->state));
    minterp_->standing_longjump = (data.motion_flags & protocol::kMotionFlagStandingLongJump) != 0;
    return;
  }
  core::logger(core::Module::Sim)
      ->debug("object {:#010x}: movement type {} is not ported", owner_->id(), static_cast<int>(data.type()));
}

}  // namespace dereth::sim
