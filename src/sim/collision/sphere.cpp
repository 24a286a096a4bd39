// CSphere's collision responses (spec/physics.md section 5.7; RE
// cgeometry/CSphere.c).
#include "dereth/sim/collision/sphere.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

constexpr float kEps = core::kEpsilon;

}  // namespace

// ---- CSphere ------------------------------------------------------------------------

namespace sphere {

// CSphere::collides_with_sphere 0x005369E0
bool collides_with_sphere(const glm::vec3& disp, float radsum) noexcept {
  return glm::dot(disp, disp) <= radsum * radsum;
}

// CSphere::find_time_of_collision 0x005368F0
double find_time_of_collision(const glm::vec3& movement, const glm::vec3& disp, float radsum) noexcept {
  const double mm = glm::dot(movement, movement);
  const double b = -static_cast<double>(glm::dot(disp, movement));
  const double c = static_cast<double>(glm::dot(disp, disp)) - static_cast<double>(radsum) * radsum;
  const double disc = b * b - c * mm;
  if (c < kEps || mm < kEps || disc < 0.0) return -1.0;
  const double root = std::sqrt(disc);
  if (b - root < 0.0) return (root - static_cast<double>(glm::dot(disp, movement))) / mm;
  return (b - root) / mm;
}

// CSphere::slide_sphere 0x00537440
TransitionState slide_sphere(const CollisionSphere& check, Transition& t, glm::vec3 normal,
                             const glm::vec3& curr_center) {
  SpherePath& path = t.sphere_path;
  CollisionInfo& ci = t.collision_info;
  if (normal == glm::vec3(0.0f)) {
    path.add_offset_to_check_pos((curr_center - check.center) * 0.5f);
    return TransitionState::Adjusted;
  }
  ci.set_collision_normal(normal);
  const glm::vec3 moved = path.curr_to_check_block_offset() + (check.center - curr_center);
  const Plane& plane = ci.contact_plane_valid ? ci.contact_plane : ci.last_known_contact_plane;
  const glm::vec3 dir = glm::cross(normal, plane.normal);
  const float dir2 = glm::dot(dir, dir);
  if (dir2 >= kEps) {
    const glm::vec3 along = dir * (glm::dot(dir, moved) / dir2);
    if (glm::dot(along, along) < kEps) return TransitionState::Collided;
    path.add_offset_to_check_pos(along - moved);
    return TransitionState::Slid;
  }
  if (glm::dot(normal, plane.normal) >= 0.0f) {
    path.add_offset_to_check_pos(-normal * glm::dot(moved, normal));
    return TransitionState::Slid;
  }
  glm::vec3 back = -moved;
  if (!normalize_check_small(back)) ci.set_collision_normal(back);
  return TransitionState::Collided;
}

namespace {

// CSphere::slide_sphere 0x00536F40 (the grounded foot sphere's slide).
TransitionState slide_sphere_grounded(const CollisionSphere& obstacle, Transition& t, const glm::vec3& disp,
                                      int sphere_num) {
  SpherePath& path = t.sphere_path;
  CollisionInfo& ci = t.collision_info;
  const CollisionSphere& check = path.global_sphere[static_cast<std::size_t>(sphere_num)];
  const glm::vec3& curr = path.global_curr_center[static_cast<std::size_t>(sphere_num)];
  glm::vec3 normal = curr - obstacle.center;
  if (normalize_check_small(normal)) return TransitionState::Collided;
  ci.set_collision_normal(normal);
  const Plane& plane = ci.contact_plane_valid ? ci.contact_plane : ci.last_known_contact_plane;
  const glm::vec3 dir = glm::cross(normal, plane.normal);
  const glm::vec3 moved = path.curr_to_check_block_offset() + (check.center - curr);
  const float dir2 = glm::dot(dir, dir);
  if (dir2 >= kEps) {
    const glm::vec3 along = dir * (glm::dot(moved, dir) / dir2);
    // The decompiled compare here is lost (x87 flags); read as the
    // five-argument form's "a vanishing slide is a collision".
    if (glm::dot(along, along) < kEps) return TransitionState::Collided;
    path.add_offset_to_check_pos(along - moved);
    return TransitionState::Slid;
  }
  if (glm::dot(plane.normal, disp) < 0.0f) return TransitionState::Collided;
  path.add_offset_to_check_pos(-normal * glm::dot(moved, normal));
  return TransitionState::Slid;
}

// CSphere::slide_sphere 0x00537A10 (the head sphere's slide).
TransitionState slide_sphere_head(const CollisionSphere& obstacle, Transition& t, int sphere_num) {
  SpherePath& path = t.sphere_path;
  const glm::vec3& curr = path.global_curr_center[static_cast<std::size_t>(sphere_num)];
  glm::vec3 normal = curr - obstacle.center;
  if (normalize_check_small(normal)) return TransitionState::Collided;
  return slide_sphere(path.global_sphere[static_cast<std::size_t>(sphere_num)], t, normal, curr);
}

// CSphere::step_sphere_up 0x00537900
TransitionState step_sphere_up(const CollisionSphere& obstacle, Transition& t, const glm::vec3& disp, float radsum) {
  const float reach = radsum + kEps;
  if (t.object_info.step_up_height < reach - disp.z) return slide_sphere_grounded(obstacle, t, disp, 0);
  const glm::vec3 normal = t.sphere_path.global_curr_center[0] - obstacle.center;
  if (t.step_up(normal)) return TransitionState::OK;
  return t.step_up_slide();
}

// CSphere::step_sphere_down 0x00536D20
TransitionState step_sphere_down(const CollisionSphere& obstacle, Transition& t, glm::vec3 disp, float radsum) {
  SpherePath& path = t.sphere_path;
  const float xy2 = disp.x * disp.x + disp.y * disp.y;
  if (radsum * radsum < disp.z * disp.z + xy2) {
    if (path.num_sphere <= 1) return TransitionState::OK;
    if (!collides_with_sphere(path.global_sphere[1].center - obstacle.center, radsum)) return TransitionState::OK;
  }
  const float amount = path.step_down_amt * path.walk_interp;
  if (std::fabs(amount) < kEps) return TransitionState::Collided;
  const float reach = radsum + kEps;
  const float time = (std::sqrt(reach * reach - xy2) - disp.z) / amount;
  const float interp = (1.0f - time) * path.walk_interp;
  if (interp >= path.walk_interp || interp < -0.1f) return TransitionState::Collided;
  const float lift = amount * time;
  disp.z += lift;
  disp /= reach;
  if (disp.z <= path.walkable_allowance) return TransitionState::OK;
  t.collision_info.set_contact_plane(plane_through(disp, obstacle.center + disp * obstacle.radius), true);
  t.collision_info.contact_plane_cell_id = path.check_pos.objcell_id;
  path.walk_interp = interp;
  path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, lift));
  return TransitionState::Adjusted;
}

// CSphere::land_on_sphere 0x005379A0
TransitionState land_on_sphere(const CollisionSphere& obstacle, Transition& t) {
  glm::vec3 normal = t.sphere_path.global_curr_center[0] - obstacle.center;
  if (normalize_check_small(normal)) return TransitionState::Collided;
  t.sphere_path.set_collide(normal);
  t.sphere_path.walkable_allowance = kLandingZ;
  return TransitionState::Adjusted;
}

// CSphere::collide_with_point 0x00537230
TransitionState collide_with_point(const CollisionSphere& obstacle, Transition& t, float radsum, int sphere_num) {
  SpherePath& path = t.sphere_path;
  const CollisionSphere& check = path.global_sphere[static_cast<std::size_t>(sphere_num)];
  const glm::vec3& curr = path.global_curr_center[static_cast<std::size_t>(sphere_num)];
  if ((t.object_info.state & object_info_state::PerfectClip) == 0) {
    glm::vec3 normal = curr - obstacle.center;
    if (!normalize_check_small(normal)) t.collision_info.set_collision_normal(normal);
    return TransitionState::Collided;
  }
  const float reach = radsum + kEps;
  const glm::vec3 old_disp = curr - obstacle.center;
  const glm::vec3 movement = path.curr_to_check_block_offset() + (check.center - curr);
  const double time = find_time_of_collision(movement, old_disp, reach);
  if (time < kEps || time > 1.0) return TransitionState::Collided;
  const glm::vec3 back = movement * static_cast<float>(time) - movement;
  t.collision_info.set_collision_normal((back + check.center - obstacle.center) * (1.0f / reach));
  path.add_offset_to_check_pos(back);
  return TransitionState::Adjusted;
}

}  // namespace

// CSphere::intersects_sphere 0x00537A80
TransitionState intersects_sphere(const CollisionSphere& obstacle, Transition& t, bool is_creature) {
  SpherePath& path = t.sphere_path;
  const CollisionSphere& foot = path.global_sphere[0];
  glm::vec3 disp = foot.center - obstacle.center;
  const float radsum = obstacle.radius + foot.radius - kEps;
  const bool two = path.num_sphere > 1;
  const auto head_disp = [&] { return path.global_sphere[1].center - obstacle.center; };

  if (path.obstruction_ethereal || path.insert_type == InsertType::Placement) {
    if (radsum * radsum >= glm::dot(disp, disp)) return TransitionState::Collided;
    if (two && collides_with_sphere(head_disp(), radsum)) return TransitionState::Collided;
    return TransitionState::OK;
  }
  if (path.step_down) {
    if (is_creature) return TransitionState::OK;
    return step_sphere_down(obstacle, t, disp, radsum);
  }
  if (path.check_walkable) {
    if (collides_with_sphere(disp, radsum)) return TransitionState::Collided;
    if (two && collides_with_sphere(head_disp(), radsum)) return TransitionState::Collided;
    return TransitionState::OK;
  }
  if (!path.collide) {
    const std::uint32_t st = t.object_info.state;
    if ((st & (object_info_state::Contact | object_info_state::OnWalkable)) != 0) {
      if (collides_with_sphere(disp, radsum)) return step_sphere_up(obstacle, t, disp, radsum);
      if (two && collides_with_sphere(head_disp(), radsum)) return slide_sphere_head(obstacle, t, 1);
    } else if ((st & object_info_state::PathClipped) != 0) {
      if (collides_with_sphere(disp, radsum)) return collide_with_point(obstacle, t, radsum, 0);
    } else {
      if (collides_with_sphere(disp, radsum)) return land_on_sphere(obstacle, t);
      if (two && collides_with_sphere(head_disp(), radsum)) return collide_with_point(obstacle, t, radsum, 1);
    }
    return TransitionState::OK;
  }
  // The landing pass (collide): solve the time of impact along the move.
  if (is_creature) return TransitionState::OK;
  if (!collides_with_sphere(disp, radsum) && !(two && collides_with_sphere(head_disp(), radsum))) {
    return TransitionState::OK;
  }
  glm::vec3 movement = path.global_curr_center[0] - foot.center - path.curr_to_check_block_offset();
  const float reach = radsum + kEps;
  const double mm = glm::dot(movement, movement);
  const double b = -static_cast<double>(glm::dot(movement, disp));
  if (std::fabs(mm) < kEps) return TransitionState::Collided;
  double root =
      std::sqrt(b * b - (static_cast<double>(glm::dot(disp, disp)) - static_cast<double>(reach) * reach) * mm) -
      static_cast<double>(glm::dot(movement, disp));
  if (root > 1.0) root = b + b - root;
  const double time = root / mm;
  const double interp = (1.0 - time) * path.walk_interp;
  if (!(interp < path.walk_interp && interp >= -0.1)) return TransitionState::Collided;
  movement *= static_cast<float>(time);
  disp = (movement + disp) / reach;
  if (!path.is_walkable_allowable(disp.z)) return TransitionState::OK;
  t.collision_info.set_contact_plane(plane_through(disp, foot.center - disp * foot.radius), true);
  t.collision_info.contact_plane_cell_id = path.check_pos.objcell_id;
  path.walk_interp = static_cast<float>(interp);
  path.add_offset_to_check_pos(movement);
  return TransitionState::Adjusted;
}

// CSphere::intersects_sphere 0x00537FD0
TransitionState intersects_sphere(const CollisionSphere& local, const Position& p, float scale, Transition& t,
                                  bool is_creature) {
  CollisionSphere global;
  global.radius = local.radius * scale;
  global.center = localtoglobal(t.sphere_path.check_pos, p, local.center * scale);
  return intersects_sphere(global, t, is_creature);
}

}  // namespace sphere

}  // namespace dereth::sim
