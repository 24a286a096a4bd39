// COLLISIONINFO (spec/physics.md section 5; RE cphysics/CTransition.c).
#include "dereth/sim/collision/collision_info.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

// ---- COLLISIONINFO -------------------------------------------------------------

// COLLISIONINFO::init 0x00509D60
void CollisionInfo::init() noexcept {
  last_known_contact_plane_valid = false;
  contact_plane_valid = false;
  sliding_normal_valid = false;
  collision_normal_valid = false;
  collide_objects.clear();
  last_collided_object = nullptr;
  collided_with_environment = false;
  contact_plane_cell_id = 0;
  frames_stationary_fall = 0;
}

// COLLISIONINFO::set_contact_plane 0x00509D80
void CollisionInfo::set_contact_plane(const Plane& plane, bool is_water) noexcept {
  contact_plane_valid = true;
  contact_plane = plane;
  contact_plane_is_water = is_water;
}

// COLLISIONINFO::set_collision_normal 0x0050A000
void CollisionInfo::set_collision_normal(const glm::vec3& normal) noexcept {
  collision_normal_valid = true;
  collision_normal = normal;
  if (normalize_check_small(collision_normal)) collision_normal = glm::vec3(0.0f);
}

// COLLISIONINFO::set_sliding_normal 0x0050A060
void CollisionInfo::set_sliding_normal(const glm::vec3& normal) noexcept {
  sliding_normal_valid = true;
  sliding_normal = glm::vec3(normal.x, normal.y, 0.0f);
  if (normalize_check_small(sliding_normal)) sliding_normal = glm::vec3(0.0f);
}

// COLLISIONINFO::add_object 0x006B4E20
void CollisionInfo::add_object(PhysicsObj* object, TransitionState ts) {
  if (std::find(collide_objects.begin(), collide_objects.end(), object) == collide_objects.end()) {
    collide_objects.push_back(object);
  }
  if (ts != TransitionState::OK) last_collided_object = object;
}

}  // namespace dereth::sim
