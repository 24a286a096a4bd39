// OBJECTINFO (spec/physics.md section 5; RE cphysics/CObjectInfo.c).
#include "dereth/sim/collision/object_info.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

namespace {

namespace ps = protocol::physics_state;
constexpr float kEps = core::kEpsilon;

}  // namespace

// ---- OBJECTINFO --------------------------------------------------------------

// OBJECTINFO::init 0x0050CF30
void ObjectInfo::init(PhysicsObj& obj, std::uint32_t object_state) {  // NOLINT: obj is the mover
  object = &obj;
  state = object_state;
  scale = obj.scale();
  step_up_height = obj.step_up_height();
  step_down_height = obj.step_down_height();
  ethereal = (obj.state() & ps::Ethereal) != 0;
  step_down = (obj.state() & ps::Missile) == 0;
  if (const auto& w = obj.weenie()) {
    if (w->is_impenetrable) state |= object_info_state::IsImpenetrable;
    if (w->is_player) state |= object_info_state::IsPlayer;
    if (w->is_pk) state |= object_info_state::IsPk;
    if (w->is_pklite) state |= object_info_state::IsPkLite;
  }
}

// OBJECTINFO::missile_ignore 0x0050CEB0
bool ObjectInfo::missile_ignore(const PhysicsObj& other) const noexcept {
  if ((other.state() & ps::Missile) != 0) return true;
  if (object == nullptr || (object->state() & ps::Missile) == 0) return false;
  if (other.id() == target_id) return false;
  const bool has_weenie = other.weenie().has_value();
  if ((other.state() & ps::Ethereal) != 0 && has_weenie) return true;
  return target_id != 0 && has_weenie && other.weenie()->is_creature;
}

// OBJECTINFO::kill_velocity 0x0050CFE0
void ObjectInfo::kill_velocity() const {
  if (object != nullptr) object->set_velocity(glm::vec3(0.0f), false);
}

// OBJECTINFO::validate_walkable 0x0050D010
TransitionState ObjectInfo::validate_walkable(const CollisionSphere& check, const Plane& plane, bool is_water,
                                              float water_depth, Transition& t, std::uint32_t land_cell_id) const {
  SpherePath& path = t.sphere_path;
  CollisionInfo& ci = t.collision_info;
  if ((state & object_info_state::IsViewer) != 0) {
    const float dist = glm::dot(plane.normal, check.center) + plane.d - check.radius;
    if (dist > -kEps) return TransitionState::OK;
    glm::vec3 offset = check.center - path.global_curr_center[0];
    const float u = dist / glm::dot(offset, plane.normal);
    if ((u <= 0.0f || u > 1.0f) && path.begin_pos && (path.begin_pos->objcell_id & 0xFFFFu) >= 0x100u) {
      return TransitionState::OK;
    }
    path.add_offset_to_check_pos(offset * -u);
    ci.set_collision_normal(plane.normal);
    ci.collided_with_environment = true;
    return TransitionState::Adjusted;
  }
  const float dist = check.center.y * plane.normal.y + (check.center.z - check.radius) * plane.normal.z +
                     check.center.x * plane.normal.x + plane.d + water_depth;
  const bool contact = (state & object_info_state::Contact) != 0;
  const bool on_walkable = (state & object_info_state::OnWalkable) != 0;
  if (dist >= -kEps) {
    if (dist > kEps) return TransitionState::OK;
    if (path.step_down || !on_walkable || is_valid_walkable(plane.normal)) {
      ci.set_contact_plane(plane, is_water);
      ci.contact_plane_cell_id = land_cell_id;
    }
    if (!contact && !path.step_down) {
      ci.set_collision_normal(plane.normal);
      ci.collided_with_environment = true;
    }
    return TransitionState::OK;
  }
  if (path.check_walkable) return TransitionState::Collided;
  TransitionState ts = TransitionState::OK;
  const float zd = dist / plane.normal.z;
  if (path.step_down || !on_walkable || is_valid_walkable(plane.normal)) {
    ci.set_contact_plane(plane, is_water);
    ci.contact_plane_cell_id = land_cell_id;
    if (path.step_down) {
      const float interp = (1.0f + zd / (path.step_down_amt * path.walk_interp)) * path.walk_interp;
      if (interp >= path.walk_interp || interp < -0.1f) return TransitionState::Collided;
      path.walk_interp = interp;
    }
    path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, -zd));
    ts = TransitionState::Adjusted;
  }
  if (!contact && !path.step_down) {
    ci.set_collision_normal(plane.normal);
    ci.collided_with_environment = true;
  }
  return ts;
}

}  // namespace dereth::sim
