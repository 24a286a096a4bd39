#include "dereth/sim/motion/dat_movement_manager.hpp"

#include <cmath>
#include <type_traits>
#include <utility>
#include <variant>

#include "dereth/core/log.hpp"
#include "dereth/sim/motion/move_to_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// --- DatMovementManager ---------------------------------------------------------------

// MovementManager::Create 0x00524050: neither the interpreter nor the
// MoveToManager exists yet.
DatMovementManager::DatMovementManager(PhysicsObj& owner) : owner_(&owner) {}

// MovementManager::Destroy 0x005243F0
DatMovementManager::~DatMovementManager() = default;

// MovementManager::MakeMoveToManager 0x00524000
MoveToManager& DatMovementManager::make_move_to_manager() {
  if (!moveto_manager_) moveto_manager_ = std::make_unique<MoveToManager>(owner_);
  return *moveto_manager_;
}

// MovementManager::UseTime 0x005242F0
void DatMovementManager::use_time() {
  if (moveto_manager_) moveto_manager_->use_time();
}

// MovementManager::CancelMoveTo 0x005241B0 with CPhysicsObj::cancel_moveto's 0x36
void DatMovementManager::cancel_move_to() {
  if (moveto_manager_) moveto_manager_->cancel_move_to(0x36);
}

// MovementManager::IsMovingTo 0x00524260
bool DatMovementManager::is_moving_to() const {
  return moveto_manager_ && moveto_manager_->is_moving_to();
}

// MovementManager::HandleUpdateTarget 0x00524790
void DatMovementManager::handle_update_target(const TargetInfo& info) {
  if (moveto_manager_) moveto_manager_->handle_update_target(info);
}

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
  if (moveto_manager_) moveto_manager_->hit_ground();
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

// MovementManager::PerformMovement 0x005240D0 (any kind; the MoveTo kinds
// make the MoveToManager)
std::uint32_t DatMovementManager::perform_movement_struct(const MovementStruct& mvs) {
  switch (mvs.type) {
    case MovementKind::MoveToObject:
    case MovementKind::MoveToPosition:
    case MovementKind::TurnToObject:
    case MovementKind::TurnToHeading: owner_->set_active(true); return make_move_to_manager().perform_movement(mvs);
    default: return perform_movement(mvs.type, mvs.motion, mvs.params);
  }
}

// MovementManager::unpack_movement 0x00524440: any movement first cancels
// the current MoveTo and unsticks; then the style, then the type's form.
void DatMovementManager::unpack_movement(const protocol::MovementData& data, bool /*autonomous*/) {
  // Retail unpacks nothing for an object whose interpreter was never made
  // (no motion table).
  if (!minterp_) return;
  owner_->cancel_moveto();
  owner_->unstick_from_object();
  MovementParameters params;
  // Position::UnPackOrigin: the cell and origin; the rotation stays identity.
  const auto origin_position = [](const protocol::Origin& o) {
    return Position{o.cell_id, core::Frame(to_vec3(o.origin), glm::quat(1, 0, 0, 0))};
  };
  if (const auto style = motion_command_from_wire(data.current_style); style && minterp_->inq_style() != *style) {
    minterp_->do_motion(*style, params);
  }
  std::visit(
      [&](const auto& payload) {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, protocol::InterpretedMovement>) {
          minterp_->move_to_interpreted_state(interpreted_state_from_wire(payload.state));
          if (payload.sticky_object && *payload.sticky_object != 0) owner_->stick_to_object(*payload.sticky_object);
          minterp_->standing_longjump = (data.motion_flags & protocol::kMotionFlagStandingLongJump) != 0;
        } else if constexpr (std::is_same_v<T, protocol::MoveToObject>) {
          // An unknown object: the MoveTo goes to the position sent with it.
          MoveToManager& moveto = make_move_to_manager();
          params.unpack_net(payload.params);
          minterp_->my_run_rate = payload.run_rate;
          if (PhysicsObj::get_object(owner_->context(), payload.target_guid) != nullptr) {
            owner_->move_to_object(payload.target_guid, params);
          } else {
            moveto.move_to_position(origin_position(payload.origin), params);
          }
        } else if constexpr (std::is_same_v<T, protocol::MoveToPosition>) {
          MoveToManager& moveto = make_move_to_manager();
          params.unpack_net(payload.params);
          minterp_->my_run_rate = payload.run_rate;
          moveto.move_to_position(origin_position(payload.origin), params);
        } else if constexpr (std::is_same_v<T, protocol::TurnToObject>) {
          // An unknown object: a turn to the heading sent with it.
          MoveToManager& moveto = make_move_to_manager();
          params.unpack_net(payload.params);
          if (PhysicsObj::get_object(owner_->context(), payload.target_guid) != nullptr) {
            owner_->turn_to_object(payload.target_guid, params);
          } else {
            params.desired_heading = payload.desired_heading;
            moveto.turn_to_heading(params);
          }
        } else if constexpr (std::is_same_v<T, protocol::TurnToHeading>) {
          MoveToManager& moveto = make_move_to_manager();
          params.unpack_net(payload.params);
          moveto.turn_to_heading(params);
        }
      },
      data.payload);
}

}  // namespace dereth::sim
