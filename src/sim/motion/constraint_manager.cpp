#include "dereth/sim/motion/constraint_manager.hpp"

#include <cmath>

#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

// ConstraintManager::ConstrainTo 0x00556240: the offset starts at the
// distance between the object and the constraint position.
void ConstraintManager::constrain_to(const Position& p, float start_distance, float max_distance) {
  is_constrained_ = true;
  constraint_pos_ = p;
  constraint_distance_start_ = start_distance;
  constraint_distance_max_ = max_distance;
  constraint_pos_offset_ = distance(p, owner_->position());
}

// ConstraintManager::IsFullyConstrained 0x005560D0
bool ConstraintManager::is_fully_constrained() const noexcept {
  return constraint_distance_max_ * 0.9 < constraint_pos_offset_;
}

// ConstraintManager::adjust_offset 0x00556180: on the ground, the offset is
// scaled down linearly from the start distance and zeroed at the maximum; the
// length of what is left is added to the running offset whether grounded or
// not (it is path length, not displacement).
void ConstraintManager::adjust_offset(core::Frame& offset, FloatSeconds /*quantum*/) {
  if (!is_constrained_) return;
  if ((owner_->transient_state() & transient_state::Contact) != 0) {
    if (constraint_pos_offset_ < constraint_distance_max_) {
      if (constraint_pos_offset_ > constraint_distance_start_) {
        offset.origin *= (constraint_distance_max_ - constraint_pos_offset_) /
                         (constraint_distance_max_ - constraint_distance_start_);
      }
    } else {
      offset.origin = glm::vec3(0.0f);
    }
  }
  const glm::vec3& o = offset.origin;
  constraint_pos_offset_ += std::sqrt(o.x * o.x + o.y * o.y + o.z * o.z);
}

}  // namespace dereth::sim
