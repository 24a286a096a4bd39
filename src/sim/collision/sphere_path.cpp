// SPHEREPATH (spec/physics.md section 5; RE cphysics/CSpherePath.c).
#include "dereth/sim/collision/sphere_path.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/collision/obj_cell.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

// ---- SPHEREPATH ------------------------------------------------------------------

// SPHEREPATH::init 0x0050C330
void SpherePath::init() noexcept {
  num_sphere = 0;
  begin_cell = nullptr;
  begin_pos.reset();
  curr_cell = nullptr;
  check_cell = nullptr;
  insert_type = InsertType::Transition;
  step_down = false;
  step_up = false;
  collide = false;
  hits_interior_cell = false;
  building_check = false;
  obstruction_ethereal = false;
  backup_cell = nullptr;
  walkable_allowance = 0.0f;
  walkable = nullptr;
  check_walkable = false;
  cell_array_valid = false;
  neg_step_up = false;
  neg_poly_hit = false;
  placement_allows_sliding = true;
}

// SPHEREPATH::init_sphere 0x0050C670
void SpherePath::init_sphere(std::uint32_t count, const CollisionSphere* spheres, float scale) noexcept {
  num_sphere = std::min<std::uint32_t>(count, 2);
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    local_sphere[i].center = spheres[i].center * scale;
    local_sphere[i].radius = spheres[i].radius * scale;
  }
  local_low_point = local_sphere[0].center - glm::vec3(0.0f, 0.0f, local_sphere[0].radius);
}

// SPHEREPATH::init_path 0x0050CE20
void SpherePath::init_path(ObjCell* begin, const Position* begin_position, const Position& end) noexcept {
  begin_cell = begin;
  end_pos = end;
  if (begin_position != nullptr) {
    begin_pos = *begin_position;
    curr_pos = *begin_position;
    insert_type = InsertType::Transition;
  } else {
    begin_pos.reset();
    curr_pos = end;
    insert_type = InsertType::Placement;
  }
  curr_cell = begin;
  cache_global_curr_center();
}

// SPHEREPATH::cache_global_curr_center 0x0050C740
void SpherePath::cache_global_curr_center() noexcept {
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    global_curr_center[i] = curr_pos.frame.localtoglobal(local_sphere[i].center);
  }
}

// SPHEREPATH::cache_global_sphere 0x0050C810
void SpherePath::cache_global_sphere(const glm::vec3* offset) noexcept {
  if (offset != nullptr) {
    for (std::uint32_t i = 0; i < num_sphere; ++i) global_sphere[i].center += *offset;
    global_low_point += *offset;
    return;
  }
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    global_sphere[i].radius = local_sphere[i].radius;
    global_sphere[i].center = check_pos.frame.localtoglobal(local_sphere[i].center);
  }
  global_low_point = check_pos.frame.localtoglobal(local_low_point);
}

// SPHEREPATH::add_offset_to_check_pos 0x00536A60
void SpherePath::add_offset_to_check_pos(const glm::vec3& offset) noexcept {
  cell_array_valid = false;
  check_pos.frame.origin += offset;
  cache_global_sphere(&offset);
}

// SPHEREPATH::save_check_pos 0x0050A880
void SpherePath::save_check_pos() noexcept {
  backup_cell = check_cell;
  backup_check_pos = check_pos;
}

// SPHEREPATH::restore_check_pos 0x0050B100
void SpherePath::restore_check_pos() noexcept {
  check_pos = backup_check_pos;
  check_cell = backup_cell;
  cell_array_valid = false;
  cache_global_sphere(nullptr);
}

// SPHEREPATH::set_check_pos 0x0050A8B0
void SpherePath::set_check_pos(const Position& p, ObjCell* cell) noexcept {
  check_pos = p;
  check_cell = cell;
  cell_array_valid = false;
  cache_global_sphere(nullptr);
}

// SPHEREPATH::adjust_check_pos 0x0050CC00: re-home the check position (and
// the cached spheres) into an outdoor cell's landblock.
void SpherePath::adjust_check_pos(std::uint32_t cell_id) noexcept {
  if ((cell_id & 0xFFFFu) < 0x100u) {
    const glm::vec3 offset = block_offset(cell_id, check_pos.objcell_id);
    cache_global_sphere(&offset);
    check_pos.frame.origin += offset;
  }
  check_pos.objcell_id = cell_id;
}

// SPHEREPATH::set_collide 0x005378A0
void SpherePath::set_collide(const glm::vec3& normal) noexcept {
  collide = true;
  backup_cell = check_cell;
  backup_check_pos = check_pos;
  step_up_normal = normal;
  walk_interp = 1.0f;
}

// SPHEREPATH::get_curr_pos_check_pos_block_offset 0x00509FD0
glm::vec3 SpherePath::curr_to_check_block_offset() const noexcept {
  return block_offset(curr_pos.objcell_id, check_pos.objcell_id);
}

// SPHEREPATH::check_walkables 0x0050C3E0
bool SpherePath::check_walkables() noexcept {
  if (walkable == nullptr) return true;
  walkable_check_pos.radius *= 0.5f;
  return walkable->check_walkable(walkable_check_pos, walkable_up);
}

// SPHEREPATH::cache_localspace_sphere 0x0050C9D0
void SpherePath::cache_localspace_sphere(const Position& p, float scale) noexcept {
  const float inv = 1.0f / scale;
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    localspace_sphere[i].radius = inv * local_sphere[i].radius;
    // Position::localtolocal: the sphere's centre of check_pos (curr_pos)
    // in p's frame.
    localspace_sphere[i].center = p.frame.globaltolocal(localtoglobal(p, check_pos, local_sphere[i].center)) * inv;
    localspace_curr_center[i] = p.frame.globaltolocal(localtoglobal(p, curr_pos, local_sphere[i].center)) * inv;
  }
  localspace_pos = p;
  localspace_z = p.frame.globaltolocalvec(glm::vec3(0.0f, 0.0f, 1.0f));
  localspace_low_point = localspace_sphere[0].center - localspace_sphere[0].radius * localspace_z;
}

// SPHEREPATH::set_walkable 0x00539FC0
void SpherePath::set_walkable(const CollisionSphere& sphere, const Polygon* poly, const glm::vec3& zaxis,
                              const Position& local_pos, float scale) noexcept {
  walkable_check_pos = sphere;
  walkable = poly;
  walkable_up = zaxis;
  walkable_pos = local_pos;
  walkable_scale = scale;
}

// SPHEREPATH::set_neg_poly_hit 0x005398E0
void SpherePath::set_neg_poly_hit(bool step_up_hit, const glm::vec3& collision_normal) noexcept {
  neg_step_up = step_up_hit;
  neg_poly_hit = true;
  neg_collision_normal = -collision_normal;
}

void SpherePath::copy_curr_to_check() noexcept {
  check_pos = curr_pos;
  check_cell = curr_cell;
  cell_array_valid = false;
  cache_global_sphere(nullptr);
}

}  // namespace dereth::sim
