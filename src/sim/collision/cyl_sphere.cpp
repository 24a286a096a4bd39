// CCylSphere's collision responses: an obstacle's vertical cylinders (the
// Setup's cylinder spheres: creatures, players, posts) against the mover's
// spheres (spec/physics.md section 5.8; RE cgeometry/CCylSphere.c). The
// cylinder stands on its low point and is never tilted: only its low point
// follows the object's frame.
#include "dereth/sim/collision/cyl_sphere.hpp"

#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/collision/transition.hpp"

namespace dereth::sim::cylsphere {

namespace {

constexpr float kEps = core::kEpsilon;

// The time along `movement` (from the sphere at `old_disp`, both relative
// to the cylinder's low point) at which the sphere's centre reaches the
// cylinder's top (moving down) or the sphere's top reaches its bottom
// (moving up). The caller has checked movement.z is not ~0.
double time_to_cap(const CollisionCylinder& cyl, const CollisionSphere& check, const glm::vec3& movement,
                   const glm::vec3& old_disp) noexcept {
  if (movement.z > 0.0f) return -((static_cast<double>(old_disp.z) + check.radius) / movement.z);
  return (static_cast<double>(check.radius) + cyl.height - old_disp.z) / movement.z;
}

// The time along `movement` (xy only) at which the centre at `old_disp`
// comes within `reach` of the axis: the earlier root, or the later one when
// the earlier lies behind. False when the roots are not real or the move
// has no horizontal part (its xy length squared under EPSILON, or at it
// too when `strict`: the binary's two call sites differ there).
bool time_to_side(const glm::vec3& movement, const glm::vec3& old_disp, float reach, bool strict, double& time) {
  const double xy2 = static_cast<double>(movement.y) * movement.y + static_cast<double>(movement.x) * movement.x;
  const double along = static_cast<double>(movement.y) * old_disp.y + static_cast<double>(movement.x) * old_disp.x;
  const double b = -along;
  const double c = static_cast<double>(old_disp.y) * old_disp.y + static_cast<double>(old_disp.x) * old_disp.x -
                   static_cast<double>(reach) * reach;
  const double disc = b * b - c * xy2;
  const bool moves = strict ? xy2 > kEps : xy2 >= kEps;
  if (!(disc >= 0.0) || !moves) return false;
  const double root = std::sqrt(disc);
  time = b - root < 0.0 ? (root - along) / xy2 : (b - root) / xy2;
  return true;
}

// The side normal at the contact: the contact centre's xy from the axis,
// over the reach (COLLISIONINFO normalises it).
glm::vec3 side_normal(const CollisionCylinder& cyl, const glm::vec3& contact_center, float reach) noexcept {
  const glm::vec3 d = contact_center - cyl.origin;
  return glm::vec3(d.x, d.y, 0.0f) / reach;
}

}  // namespace

// CCylSphere::collides_with_sphere 0x0053A880
bool collides_with_sphere(const CollisionCylinder& cyl, const CollisionSphere& check, const glm::vec3& disp,
                          float radsum) noexcept {
  const float half = cyl.height * 0.5f;
  return radsum * radsum >= disp.x * disp.x + disp.y * disp.y && check.radius - kEps + half >= std::fabs(half - disp.z);
}

// CCylSphere::normal_of_collision 0x0053AB50
bool normal_of_collision(const CollisionCylinder& cyl, const SpherePath& path, const CollisionSphere& check,
                         const glm::vec3& disp, float radsum, int sphere_num, glm::vec3& normal) noexcept {
  const glm::vec3 old_disp = path.global_curr_center[static_cast<std::size_t>(sphere_num)] - cyl.origin;
  if (radsum * radsum < old_disp.y * old_disp.y + old_disp.x * old_disp.x) {
    // It was beside the cylinder: a side hit, certain when it was already
    // level with the cylinder or did not move vertically.
    normal = glm::vec3(old_disp.x, old_disp.y, 0.0f);
    const float half = cyl.height * 0.5f;
    return check.radius - kEps + half >= std::fabs(half - old_disp.z) || std::fabs(old_disp.z - disp.z) <= kEps;
  }
  // It was over or under the cylinder: the top or the bottom.
  normal = glm::vec3(0.0f, 0.0f, disp.z - old_disp.z <= 0.0f ? 1.0f : -1.0f);
  return true;
}

// CCylSphere::step_sphere_down 0x0053A9B0: lift the sphere onto the top.
TransitionState step_sphere_down(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum) {
  SpherePath& path = t.sphere_path;
  if (!collides_with_sphere(cyl, check, disp, radsum) &&
      !(path.num_sphere > 1 &&
        collides_with_sphere(cyl, path.global_sphere[1], path.global_sphere[1].center - cyl.origin, radsum))) {
    return TransitionState::OK;
  }
  const double amount = static_cast<double>(path.step_down_amt) * path.walk_interp;
  if (!(std::fabs(amount) >= kEps)) return TransitionState::Collided;
  const double lift = static_cast<double>(cyl.height) + check.radius - disp.z;
  const double interp = (1.0 - lift / amount) * path.walk_interp;
  if (interp >= path.walk_interp || interp < -0.1) return TransitionState::Collided;
  const auto rise = static_cast<float>(lift);
  const glm::vec3 contact(check.center.x, check.center.y, rise - check.radius + check.center.z);
  t.collision_info.set_contact_plane(plane_through(glm::vec3(0.0f, 0.0f, 1.0f), contact), true);
  t.collision_info.contact_plane_cell_id = path.check_pos.objcell_id;
  path.walk_interp = static_cast<float>(interp);
  path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, rise));
  return TransitionState::Adjusted;
}

// CCylSphere::collide_with_point 0x0053ACB0: stop a missile where it meets
// the cylinder (PERFECT_CLIP), else report the hit.
TransitionState collide_with_point(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                   const glm::vec3& disp, float radsum, int sphere_num) {
  SpherePath& path = t.sphere_path;
  glm::vec3 normal;
  const bool definite = normal_of_collision(cyl, path, check, disp, radsum, sphere_num, normal);
  if (normalize_check_small(normal)) return TransitionState::Collided;
  if ((t.object_info.state & object_info_state::PerfectClip) == 0) {
    t.collision_info.set_collision_normal(normal);
    return TransitionState::Collided;
  }
  // The binary measures from sphere 0's current centre whichever sphere hit.
  const glm::vec3& curr = path.global_curr_center[0];
  const glm::vec3 movement = path.curr_to_check_block_offset() + (check.center - curr);
  const glm::vec3 old_disp = curr - cyl.origin;
  const float reach = radsum + kEps;
  double time = 0.0;
  glm::vec3 offset(0.0f);
  if (!definite) {
    // Top or bottom first; the side when the cap's contact lies outside.
    if (std::fabs(movement.z) < kEps) return TransitionState::Collided;
    time = time_to_cap(cyl, check, movement, old_disp);
    normal = glm::vec3(0.0f, 0.0f, movement.z > 0.0f ? -1.0f : 1.0f);
    offset = glm::vec3(static_cast<float>(movement.x * time), static_cast<float>(movement.y * time),
                       static_cast<float>(movement.z * time));
    const glm::vec2 at(offset.x + old_disp.x, offset.y + old_disp.y);
    if (at.y * at.y + at.x * at.x >= reach * reach) {
      if (std::fabs(movement.y * movement.y + movement.x * movement.x) < kEps) return TransitionState::Collided;
      if (time_to_side(movement, old_disp, reach, true, time)) offset = movement * static_cast<float>(time);
      normal = side_normal(cyl, curr + offset, reach);
    }
  } else if (normal.z != 0.0f) {
    if (std::fabs(movement.z) < kEps) return TransitionState::Collided;
    time = time_to_cap(cyl, check, movement, old_disp);
    offset = movement * static_cast<float>(time);
  } else {
    if (!time_to_side(movement, old_disp, reach, false, time)) return TransitionState::Collided;
    offset = movement * static_cast<float>(time);
    normal = side_normal(cyl, curr + offset, reach);
  }
  if (!(time >= 0.0 && time <= 1.0)) return TransitionState::Collided;
  t.collision_info.set_collision_normal(normal);
  path.add_offset_to_check_pos(curr + offset - check.center);
  return TransitionState::Adjusted;
}

// CCylSphere::slide_sphere 0x0053B2A0
TransitionState slide_sphere(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                             const glm::vec3& disp, float radsum, int sphere_num) {
  glm::vec3 normal;
  normal_of_collision(cyl, t.sphere_path, check, disp, radsum, sphere_num, normal);
  if (normalize_check_small(normal)) return TransitionState::Collided;
  return sphere::slide_sphere(check, t, normal, t.sphere_path.global_curr_center[static_cast<std::size_t>(sphere_num)]);
}

// CCylSphere::step_sphere_up 0x0053B310
TransitionState step_sphere_up(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                               const glm::vec3& disp, float radsum) {
  if (t.object_info.step_up_height < check.radius + cyl.height - disp.z) {
    return slide_sphere(cyl, t, check, disp, radsum, 0);
  }
  glm::vec3 normal;
  normal_of_collision(cyl, t.sphere_path, check, disp, radsum, 0, normal);
  if (normalize_check_small(normal)) return TransitionState::Collided;
  // The normal is already global; the binary turns it by the obstacle's
  // frame (localspace_pos) all the same.
  if (t.step_up(t.sphere_path.localspace_pos.frame.localtoglobalvec(normal))) return TransitionState::OK;
  return t.step_up_slide();
}

// CCylSphere::land_on_cylinder 0x0053B3D0
TransitionState land_on_cylinder(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum) {
  glm::vec3 normal;
  normal_of_collision(cyl, t.sphere_path, check, disp, radsum, 0, normal);
  if (normalize_check_small(normal)) return TransitionState::Collided;
  t.sphere_path.set_collide(normal);
  t.sphere_path.walkable_allowance = kLandingZ;
  return TransitionState::Adjusted;
}

// CCylSphere::intersects_sphere 0x0053B440
TransitionState intersects_sphere(const CollisionCylinder& cyl, Transition& t) {
  SpherePath& path = t.sphere_path;
  const CollisionSphere& foot = path.global_sphere[0];
  const CollisionSphere& head = path.global_sphere[1];
  const glm::vec3 disp = foot.center - cyl.origin;
  const glm::vec3 head_disp = head.center - cyl.origin;
  const float radsum = cyl.radius - kEps + foot.radius;
  const bool two = path.num_sphere > 1;
  const auto foot_hits = [&] { return collides_with_sphere(cyl, foot, disp, radsum); };
  const auto head_hits = [&] { return two && collides_with_sphere(cyl, head, head_disp, radsum); };

  const auto overlap = [&] { return foot_hits() || head_hits() ? TransitionState::Collided : TransitionState::OK; };

  if (path.insert_type == InsertType::Placement || path.obstruction_ethereal) return overlap();
  if (path.step_down) return step_sphere_down(cyl, t, foot, disp, radsum);
  if (path.check_walkable) return overlap();
  if (!path.collide) {
    const std::uint32_t st = t.object_info.state;
    if ((st & (object_info_state::Contact | object_info_state::OnWalkable)) != 0) {
      if (foot_hits()) return step_sphere_up(cyl, t, foot, disp, radsum);
      if (head_hits()) return slide_sphere(cyl, t, head, head_disp, radsum, 1);
    } else if ((st & object_info_state::PathClipped) != 0) {
      if (foot_hits()) return collide_with_point(cyl, t, foot, disp, radsum, 0);
    } else {
      if (foot_hits()) return land_on_cylinder(cyl, t, foot, disp, radsum);
      if (head_hits()) return collide_with_point(cyl, t, head, head_disp, radsum, 1);
    }
    return TransitionState::OK;
  }
  // The landing pass (collide): back along the move to where the foot
  // sphere rests on the top.
  if (!foot_hits() && !head_hits()) return TransitionState::OK;
  const glm::vec3 back = path.global_curr_center[0] - foot.center - path.curr_to_check_block_offset();
  if (!(std::fabs(back.z) >= kEps)) return TransitionState::Collided;
  const double time = (static_cast<double>(cyl.height) + foot.radius - disp.z) / back.z;
  const glm::vec3 offset = back * static_cast<float>(time);
  const glm::vec2 at(offset.x + disp.x, offset.y + disp.y);
  if (radsum * radsum < at.y * at.y + at.x * at.x) return TransitionState::OK;
  const double interp = (1.0 - time) * path.walk_interp;
  if (!(interp < path.walk_interp && interp >= -0.1)) return TransitionState::Collided;
  glm::vec3 contact = foot.center + offset;
  contact.z -= foot.radius;
  t.collision_info.set_contact_plane(plane_through(glm::vec3(0.0f, 0.0f, 1.0f), contact), true);
  t.collision_info.contact_plane_cell_id = path.check_pos.objcell_id;
  path.walk_interp = static_cast<float>(interp);
  path.add_offset_to_check_pos(offset);
  return TransitionState::Adjusted;
}

// CCylSphere::intersects_sphere 0x0053B8F0
TransitionState intersects_sphere(const CollisionCylinder& local, const Position& p, float scale, Transition& t) {
  // SPHEREPATH::cache_localspace_sphere 0x0050C9D0 also puts the mover's
  // spheres into p's frame; only localspace_pos is read on this path
  // (step_sphere_up) and the BSP tests cache their own before reading, so
  // only it is kept: the rest cost a third of a cylinder sweep.
  t.sphere_path.localspace_pos = p;
  CollisionCylinder global;
  global.radius = scale * local.radius;
  global.height = scale * local.height;
  global.origin = localtoglobal(t.sphere_path.check_pos, p, local.origin * scale);
  return intersects_sphere(global, t);
}

}  // namespace dereth::sim::cylsphere
