#include "dereth/sim/motion/sticky_manager.hpp"

#include <cmath>

#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

void StickyManager::clear() {
  target_id_ = 0;
  initialized_ = false;
  owner_->clear_target();
  owner_->cancel_moveto();
}

// StickyManager::StickTo 0x00555710: a new target replaces the old one; the
// stick lapses one second from now unless the target manager confirms it.
void StickyManager::stick_to(std::uint32_t target_id, float target_radius, float target_height) {
  if (target_id_ != 0) clear();
  target_radius_ = target_radius;
  target_height_ = target_height;
  target_id_ = target_id;
  initialized_ = false;
  sticky_timeout_time_ = owner_->context().now() + kStickyTimeout;
  owner_->set_target(0, target_id, 0.5f, 0.5f);
}

// StickyManager::HandleExitWorld 0x00555400
void StickyManager::handle_exit_world() {
  if (target_id_ != 0) clear();
}

// StickyManager::HandleUpdateTarget 0x00555780: an Ok report for the target
// initialises the stick with the reported position; any other status ends it.
void StickyManager::handle_update_target(const TargetInfo& info) {
  if (info.object_id != target_id_) return;
  if (info.status == TargetInfo::kOk) {
    initialized_ = true;
    target_position_ = info.target_position;
  } else if (target_id_ != 0) {
    clear();
  }
}

// StickyManager::UseTime 0x00555610
void StickyManager::use_time() {
  if (target_id_ != 0 && owner_->context().now() > sticky_timeout_time_) clear();
}

// StickyManager::adjust_offset 0x00555430: replaces the offset with a
// horizontal step (object-local) that closes the cylinder gap to 0.3 m, at
// most 5 x max speed (15 m/s without one) per second, and turns the object to
// face the target.
void StickyManager::adjust_offset(core::Frame& offset, FloatSeconds quantum) {
  if (target_id_ == 0 || !initialized_) return;
  const Position& self = owner_->position();
  const PhysicsObj* target = nullptr;
  if (const ObjectMaint* maint = owner_->context().obj_maint) target = maint->get_object(target_id_);
  const Position& target_pos = target != nullptr ? target->position() : target_position_;

  glm::vec3 v = self.frame.globaltolocalvec(get_offset(self, target_pos));
  v.z = 0.0f;
  const float gap = cylinder_distance_no_z(owner_->get_radius(), self, target_radius_, target_pos) - kStickyGap;
  // AC1Legacy::Vector3::normalize_check_small: a tiny vector becomes zero.
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (length < kPhysicsEpsilon) {
    v = glm::vec3(0.0f);
  } else {
    v /= length;
  }
  float speed = 0.0f;
  if (MovementManager* minterp = owner_->get_minterp()) speed = minterp->get_max_speed() * kSpeedFactor;
  if (speed < kPhysicsEpsilon) speed = kDefaultSpeed;
  float step = speed * quantum.count();
  if (step >= std::fabs(gap)) step = gap;
  offset.origin = v * step;

  float sought = heading(self, target_pos) - self.frame.get_heading();
  if (std::fabs(sought) < kPhysicsEpsilon) sought = 0.0f;
  if (-kPhysicsEpsilon > sought) sought += 360.0f;
  offset.set_heading(sought);
}

}  // namespace dereth::sim
