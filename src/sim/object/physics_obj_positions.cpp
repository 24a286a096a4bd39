// PhysicsObj, the positions part: CPhysicsObj's side of the position
// managers (interpolation, sticky, constraint) and the MoveTo cancel and
// sizes they read (RE cphysobj/CPhysicsObj.c; the managers are in motion/).
// physics_obj.hpp lists the other parts.
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// --- CPhysicsObj's side of the position managers (kept here, beside the
// managers they drive) ---------------------------------------------------

namespace ps = protocol::physics_state;
namespace ts = transient_state;

// CPhysicsObj::MakePositionManager 0x00510210: the factory's (a test's
// recorder) or retail's own; a non-static object becomes active.
PositionManager* PhysicsObj::make_position_manager() {
  if (!position_manager_) {
    position_manager_ = context_->factory().make_position_manager(*this);
    if (!position_manager_) position_manager_ = std::make_unique<PositionManager>(*this);
  }
  if ((state_ & ps::Static) == 0) {
    if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
    transient_state_ |= ts::Active;
  }
  return position_manager_.get();
}

// CPhysicsObj::InterpolateTo 0x005104F0
void PhysicsObj::interpolate_to(const Position& p, bool keep_heading) {
  make_position_manager()->interpolate_to(p, keep_heading);
}

// CPhysicsObj::ConstrainTo 0x00510520
void PhysicsObj::constrain_to(const Position& p, float start_distance, float max_distance) {
  make_position_manager()->constrain_to(p, start_distance, max_distance);
}

// CPhysicsObj::StopInterpolating 0x0050EB40
void PhysicsObj::stop_interpolating() {
  if (position_manager_) position_manager_->stop_interpolating();
}

// CPhysicsObj::IsInterpolating 0x0050EB50
bool PhysicsObj::is_interpolating() const {
  return position_manager_ && position_manager_->is_interpolating();
}

// CPhysicsObj::IsFullyConstrained 0x0050EC60
bool PhysicsObj::is_fully_constrained() const {
  return position_manager_ && position_manager_->is_fully_constrained();
}

// CPhysicsObj::GetAutonomyBlipDistance 0x0050EB70
float PhysicsObj::get_autonomy_blip_distance() const noexcept {
  const bool indoors = (position_.objcell_id & 0xFFFFu) >= 0x100u;
  if (this == context_->player) return indoors ? 25.0f : 100.0f;
  return indoors ? 20.0f : 100.0f;
}

// CPhysicsObj::GetStartConstraintDistance 0x0050EBC0 (the same for the player)
float PhysicsObj::get_start_constraint_distance() const noexcept {
  return (position_.objcell_id & 0xFFFFu) >= 0x100u ? 5.0f : 10.0f;
}

// CPhysicsObj::GetMaxConstraintDistance 0x0050EC10 (the same for the player)
float PhysicsObj::get_max_constraint_distance() const noexcept {
  return (position_.objcell_id & 0xFFFFu) >= 0x100u ? 20.0f : 50.0f;
}

// CPhysicsObj::stick_to_object 0x005127E0: to the target's parent when it has one.
void PhysicsObj::stick_to_object(std::uint32_t object_id) {
  PositionManager* manager = make_position_manager();
  if (context_->obj_maint == nullptr) return;
  const PhysicsObj* target = context_->obj_maint->get_object(object_id);
  if (target == nullptr) return;
  if (target->parent_ != nullptr) target = target->parent_;
  manager->stick_to(target->id_, target->get_radius(), target->get_height());
}

// CPhysicsObj::unstick_from_object 0x0050EAE0
void PhysicsObj::unstick_from_object() {
  if (position_manager_) position_manager_->unstick();
}

// CPhysicsObj::get_sticky_object_id 0x0050EAF0
std::uint32_t PhysicsObj::get_sticky_object_id() const {
  return position_manager_ ? position_manager_->get_sticky_object_id() : 0;
}

// CPhysicsObj::HandleUpdateTarget 0x00512BC0: only context 0 (the sticky
// and MoveTo targets) is delivered, to the MoveTo first.
void PhysicsObj::handle_update_target(const TargetInfo& info) {
  if (info.context_id != 0) return;
  if (movement_manager_) movement_manager_->handle_update_target(info);
  if (position_manager_) position_manager_->handle_update_target(info);
}

// CPhysicsObj::get_position_manager 0x00512130
PositionManager* PhysicsObj::get_position_manager() {
  return make_position_manager();
}

// CPhysicsObj::cancel_moveto 0x005101F0
void PhysicsObj::cancel_moveto() {
  if (movement_manager_) movement_manager_->cancel_move_to();
}

// CPhysicsObj::GetRadius 0x0050E9C0
float PhysicsObj::get_radius() const {
  return part_array_ ? part_array_->get_radius() : 0.0f;
}

// CPhysicsObj::GetHeight 0x0050E9E0
float PhysicsObj::get_height() const {
  return part_array_ ? part_array_->get_height() : 0.0f;
}

// CPhysicsObj::get_minterp 0x005120C0
MovementManager* PhysicsObj::get_minterp() {
  if (!movement_manager_) make_movement_manager(false);
  return movement_manager_.get();
}

}  // namespace dereth::sim
