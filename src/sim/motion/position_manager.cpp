#include "dereth/sim/motion/position_manager.hpp"

#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// PositionManager::Destroy 0x00555340 (the sub-managers go with it)
PositionManager::~PositionManager() = default;

// PositionManager::adjust_offset 0x00555190
void PositionManager::adjust_offset(core::Frame& offset, FloatSeconds quantum) {
  if (interpolation_) interpolation_->adjust_offset(offset, quantum);
  if (sticky_) sticky_->adjust_offset(offset, quantum);
  if (constraint_) constraint_->adjust_offset(offset, quantum);
}

// PositionManager::UseTime 0x00555160
void PositionManager::use_time() {
  if (interpolation_) interpolation_->use_time();
  if (constraint_) constraint_->use_time();
  if (sticky_) sticky_->use_time();
}

// PositionManager::InterpolateTo 0x005551F0
void PositionManager::interpolate_to(const Position& p, bool keep_heading) {
  if (!interpolation_) interpolation_ = std::make_unique<InterpolationManager>(*owner_);
  interpolation_->interpolate_to(p, keep_heading);
}

// PositionManager::StopInterpolating 0x00555220
void PositionManager::stop_interpolating() {
  if (interpolation_) interpolation_->stop_interpolating();
}

// PositionManager::IsInterpolating 0x005553B0
bool PositionManager::is_interpolating() const {
  return interpolation_ && interpolation_->is_interpolating();
}

// PositionManager::StickTo 0x00555230
void PositionManager::stick_to(std::uint32_t object_id, float radius, float height) {
  if (!sticky_) sticky_ = std::make_unique<StickyManager>(*owner_);
  sticky_->stick_to(object_id, radius, height);
}

// PositionManager::UnStick 0x005551E0
void PositionManager::unstick() {
  if (sticky_) sticky_->handle_exit_world();
}

// PositionManager::GetStickyObjectID 0x00555270
std::uint32_t PositionManager::get_sticky_object_id() const {
  return sticky_ ? sticky_->target_id() : 0;
}

// PositionManager::ConstrainTo 0x00555280
void PositionManager::constrain_to(const Position& p, float start_distance, float max_distance) {
  if (!constraint_) constraint_ = std::make_unique<ConstraintManager>(*owner_);
  constraint_->constrain_to(p, start_distance, max_distance);
}

// PositionManager::UnConstrain 0x005552B0
void PositionManager::unconstrain() {
  if (constraint_) constraint_->unconstrain();
}

// PositionManager::IsFullyConstrained 0x005552C0
bool PositionManager::is_fully_constrained() const {
  return constraint_ && constraint_->is_fully_constrained();
}

// PositionManager::HandleUpdateTarget 0x005553D0
void PositionManager::handle_update_target(const TargetInfo& info) {
  if (sticky_) sticky_->handle_update_target(info);
}

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
PositionManager* PhysicsObj::get_position_manager() { return make_position_manager(); }

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
