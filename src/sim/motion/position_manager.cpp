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

}  // namespace dereth::sim
