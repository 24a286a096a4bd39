#pragma once
// OBJECTINFO (RE cphysics/CObjectInfo.c): the mover's side of a transition
// (its state, scale, step heights) and the walkable test against terrain
// (object_info.cpp).
#include <cstdint>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"  // Plane
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;
class Transition;

// PhysicsGlobals::floor_z and the landing allowance (spec 6.5) are kFloorZ
// and kLandingZ in types.hpp, beside the other PhysicsGlobals.

// OBJECTINFO.
struct ObjectInfo {
  PhysicsObj* object = nullptr;
  std::uint32_t state = 0;  // object_info_state bits
  float scale = 1.0f;
  float step_up_height = 0.0f;
  float step_down_height = 0.0f;
  bool ethereal = false;
  bool step_down = true;
  // The designated target: zero unless a targeting system sets it, never
  // inferred from the UI selection (seed retail-projectile-vfx section 10).
  std::uint32_t target_id = 0;

  // OBJECTINFO::init 0x0050CF30
  void init(PhysicsObj& mover, std::uint32_t object_state);
  // OBJECTINFO::get_walkable_z 0x0050CF20
  [[nodiscard]] static float get_walkable_z() noexcept { return kFloorZ; }
  // OBJECTINFO::is_valid_walkable 0x0050CF10
  [[nodiscard]] static bool is_valid_walkable(const glm::vec3& normal) noexcept {
    return sim::is_valid_walkable(normal.z);
  }
  // OBJECTINFO::missile_ignore 0x0050CEB0
  [[nodiscard]] bool missile_ignore(const PhysicsObj& other) const noexcept;
  // OBJECTINFO::kill_velocity 0x0050CFE0
  void kill_velocity() const;
  // OBJECTINFO::validate_walkable 0x0050D010: the sphere (block space)
  // against a terrain plane.
  TransitionState validate_walkable(const CollisionSphere& check, const Plane& plane, bool is_water, float water_depth,
                                    Transition& t, std::uint32_t land_cell_id) const;
};

}  // namespace dereth::sim
