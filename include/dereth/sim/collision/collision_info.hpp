#pragma once
// COLLISIONINFO: what a transition learned on the way (contact plane,
// sliding and collision normals, the objects hit), which the commit applies
// (collision_info.cpp).
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"  // Plane

namespace dereth::sim {

class PhysicsObj;

// COLLISIONINFO.
struct CollisionInfo {
  bool last_known_contact_plane_valid = false;
  Plane last_known_contact_plane;
  bool last_known_contact_plane_is_water = false;
  std::uint32_t last_known_contact_plane_cell_id = 0;
  bool contact_plane_valid = false;
  Plane contact_plane;
  bool contact_plane_is_water = false;
  std::uint32_t contact_plane_cell_id = 0;
  bool sliding_normal_valid = false;
  glm::vec3 sliding_normal{0.0f};
  bool collision_normal_valid = false;
  glm::vec3 collision_normal{0.0f};
  glm::vec3 adjust_offset{0.0f};
  std::vector<PhysicsObj*> collide_objects;
  PhysicsObj* last_collided_object = nullptr;
  bool collided_with_environment = false;
  int frames_stationary_fall = 0;

  // COLLISIONINFO::init 0x00509D60
  void init() noexcept;
  // The contact plane forgotten (valid and is_water cleared), as the
  // binary does inline after a slide or a failed step.
  void clear_contact_plane() noexcept {
    contact_plane_valid = false;
    contact_plane_is_water = false;
  }
  // COLLISIONINFO::set_contact_plane 0x00509D80
  void set_contact_plane(const Plane& plane, bool is_water) noexcept;
  // COLLISIONINFO::set_collision_normal 0x0050A000: normalised, zero when tiny.
  void set_collision_normal(const glm::vec3& normal) noexcept;
  // COLLISIONINFO::set_sliding_normal 0x0050A060: xy only, normalised.
  void set_sliding_normal(const glm::vec3& normal) noexcept;
  // COLLISIONINFO::add_object 0x006B4E20: each object once.
  void add_object(PhysicsObj* object, TransitionState ts);
};

}  // namespace dereth::sim
