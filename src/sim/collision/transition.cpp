// CTransition (spec/physics.md section 5; RE cphysics/CTransition.c); its
// OBJECTINFO, SPHEREPATH and COLLISIONINFO are in their own files.
#include "dereth/sim/collision/transition.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

namespace {

namespace ps = protocol::physics_state;
constexpr float kEps = core::kEpsilon;

// Plane::snap_to_plane 0x00509C50: the offset's z follows the plane.
void snap_to_plane(const Plane& p, glm::vec3& offset) noexcept {
  if (std::fabs(p.normal.z) > kEps) {
    offset.z = -(offset.y * p.normal.y + offset.x * p.normal.x) / p.normal.z;
  }
}

}  // namespace

// AC1Legacy::Vector3::normalize_check_small
bool normalize_check_small(glm::vec3& v) noexcept {
  const float len = glm::length(v);
  if (len < core::kEpsilon) return true;
  v /= len;
  return false;
}

// Plane::Plane 0x00536A20
Plane plane_through(const glm::vec3& normal, const glm::vec3& point) noexcept {
  return Plane{normal, -glm::dot(point, normal)};
}

// ---- CTransition -------------------------------------------------------------------

// CTransition::init 0x00509DD0
void Transition::init() noexcept {
  object_info = ObjectInfo{};
  object_info.object = nullptr;
  object_info.state = 0;
  object_info.target_id = 0;
  sphere_path.init();
  collision_info.init();
  cell_array.cells.clear();
  cell_array.added_outside = false;
  cell_array.do_not_load_cells = false;
}

// CTransition::insert_into_cell 0x00509E70
TransitionState Transition::insert_into_cell(ObjCell* cell, int attempts) {
  if (cell == nullptr) return TransitionState::Collided;
  TransitionState result = TransitionState::OK;
  for (int i = 0; i < attempts; ++i) {
    result = cell->find_collisions(*this);
    if (result == TransitionState::OK || result == TransitionState::Collided) return result;
    if (result == TransitionState::Slid) {
      collision_info.clear_contact_plane();
    }
  }
  return result;
}

// CTransition::build_cell_array 0x00509EE0
void Transition::build_cell_array(ObjCell*& new_cell) {
  sphere_path.cell_array_valid = true;
  sphere_path.hits_interior_cell = false;
  cell_array.cells.clear();
  new_cell = nullptr;
  cells_->find_cell_list(sphere_path.check_pos, sphere_path.num_sphere, sphere_path.global_sphere.data(), cell_array,
                         new_cell, &sphere_path);
}

// CTransition::check_other_cells 0x0050AE50
TransitionState Transition::check_other_cells(ObjCell* curr) {
  TransitionState ts = TransitionState::OK;
  ObjCell* new_cell = nullptr;
  build_cell_array(new_cell);
  for (const CellArrayEntry& entry : cell_array.cells) {
    if (entry.cell == nullptr || entry.cell == curr) continue;
    ts = entry.cell->find_collisions(*this);
    if (ts == TransitionState::Slid) {
      collision_info.clear_contact_plane();
      return ts;
    }
    if (ts == TransitionState::Collided || ts == TransitionState::Adjusted) return ts;
  }
  sphere_path.check_cell = new_cell;
  if (new_cell != nullptr) {
    sphere_path.adjust_check_pos(new_cell->id());
    return ts;
  }
  if (sphere_path.step_down) return TransitionState::Collided;
  Position p = sphere_path.check_pos;
  if ((p.objcell_id & 0xFFFFu) < 0x100u) adjust_to_outside(p.objcell_id, p.frame.origin);
  if (p.objcell_id == 0) return TransitionState::Collided;
  sphere_path.adjust_check_pos(p.objcell_id);
  sphere_path.check_pos = p;
  sphere_path.check_cell = nullptr;
  sphere_path.cell_array_valid = false;
  sphere_path.cache_global_sphere(nullptr);
  sphere_path.cell_array_valid = true;
  return ts;
}

// CTransition::adjust_offset 0x0050A370
glm::vec3 Transition::adjust_offset(const glm::vec3& offset) {
  CollisionInfo& ci = collision_info;
  glm::vec3 out = offset;
  bool sliding = false;
  if (ci.sliding_normal_valid) {
    if (glm::dot(out, ci.sliding_normal) < 0.0f) {
      sliding = true;
    } else {
      ci.sliding_normal_valid = false;
    }
  }
  if (ci.contact_plane_valid) {
    const glm::vec3& n = ci.contact_plane.normal;
    const float along = glm::dot(out, n);
    if (sliding) {
      glm::vec3 crease = glm::cross(n, ci.sliding_normal);
      if (normalize_check_small(crease)) {
        out = glm::vec3(0.0f);
      } else {
        out = crease * glm::dot(crease, out);
      }
    } else if (along <= 0.0f) {
      out -= n * along;
    } else {
      snap_to_plane(ci.contact_plane, out);
    }
    if (!ci.contact_plane_is_water && ci.contact_plane_cell_id != 0) {
      const glm::vec3 block = block_offset(sphere_path.check_pos.objcell_id, ci.contact_plane_cell_id);
      const CollisionSphere& s = sphere_path.global_sphere[0];
      const float dist = glm::dot(s.center - block, n) + ci.contact_plane.d;
      if (dist < s.radius - kEps) {
        const float lift = (s.radius - dist) / n.z;
        if (s.radius > std::fabs(lift)) sphere_path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, lift));
      }
    }
  } else if (sliding) {
    out -= ci.sliding_normal * glm::dot(out, ci.sliding_normal);
  }
  return out;
}

// CTransition::validate_placement_transition 0x0050ADC0
TransitionState Transition::validate_placement_transition(TransitionState ts, bool& redo) {
  redo = false;
  ObjCell* cell = sphere_path.check_cell;
  if (cell == nullptr) return TransitionState::Collided;
  if (ts == TransitionState::OK) {
    sphere_path.curr_pos = sphere_path.check_pos;
    sphere_path.curr_cell = cell;
    sphere_path.cache_global_curr_center();
  } else if (ts != TransitionState::Invalid && sphere_path.placement_allows_sliding) {
    collision_info.init();
  }
  return ts;
}

// CTransition::placement_insert 0x0050B1D0
TransitionState Transition::placement_insert() {
  ObjCell* cell = sphere_path.check_cell;
  if (cell == nullptr) return TransitionState::Collided;
  TransitionState ts = insert_into_cell(cell, 3);
  if (ts == TransitionState::OK) ts = check_other_cells(sphere_path.check_cell);
  return ts;
}

// CTransition::validate_placement 0x0050B210: an Adjusted or Slid result
// gets one more placement_insert pass (Collided does not).
TransitionState Transition::validate_placement(TransitionState ts, bool adjust) {
  ObjCell* cell = sphere_path.check_cell;
  if (cell == nullptr) return TransitionState::Collided;
  if (ts == TransitionState::OK) {
    sphere_path.curr_pos = sphere_path.check_pos;
    sphere_path.curr_cell = cell;
    sphere_path.cache_global_curr_center();
  } else if ((ts == TransitionState::Adjusted || ts == TransitionState::Slid) && adjust) {
    return validate_placement(placement_insert(), false);
  }
  return ts;
}

// CTransition::check_walkable 0x0050AFF0
bool Transition::check_walkable(float z_check) {
  if ((object_info.state & object_info_state::OnWalkable) == 0 || sphere_path.check_walkables()) return true;
  const Position backup = sphere_path.check_pos;
  ObjCell* backup_cell = sphere_path.check_cell;
  float h = object_info.step_down_height;
  sphere_path.walkable_allowance = z_check;
  sphere_path.check_walkable = true;
  const float r = sphere_path.global_sphere[0].radius;
  if (sphere_path.num_sphere < 2 && h > r + r) h = r * 0.5f;
  if (h > r + r) h *= 0.5f;
  sphere_path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, -h));
  const TransitionState ts = transitional_insert(1);
  sphere_path.check_walkable = false;
  sphere_path.set_check_pos(backup, backup_cell);
  return ts != TransitionState::OK;
}

// CTransition::step_down 0x0050B2A0
bool Transition::step_down(float step_down_height, float z) {
  SpherePath& path = sphere_path;
  path.neg_poly_hit = false;
  path.step_down = true;
  path.step_down_amt = step_down_height;
  path.walk_interp = 1.0f;
  if (!path.step_up) path.add_offset_to_check_pos(glm::vec3(0.0f, 0.0f, -step_down_height));
  const TransitionState ts = transitional_insert(5);
  path.step_down = false;
  if (ts != TransitionState::OK || !collision_info.contact_plane_valid || collision_info.contact_plane.normal.z < z) {
    return false;
  }
  if ((object_info.state & object_info_state::EdgeSlide) != 0 && !path.step_up && !check_walkable(z)) return false;
  path.backup = path.insert_type;
  path.insert_type = InsertType::Placement;
  const TransitionState again = transitional_insert(1);
  path.insert_type = path.backup;
  return again == TransitionState::OK;
}

// The height and floor the binary steps with: 0.04 m and landing_z in the
// air, the object's own height and floor_z on walkable ground.
std::pair<float, float> Transition::step_height_and_floor(float walkable_height) const noexcept {
  if ((object_info.state & object_info_state::OnWalkable) != 0) {
    return {walkable_height, ObjectInfo::get_walkable_z()};
  }
  return {0.04f, kLandingZ};
}

// The step-down transitional_insert and find_placement_position try: with
// one sphere, no more than half its radius when the height exceeds its
// diameter; then once by h when h is at most the foot sphere's diameter,
// else twice by h/2. `h` is left at the height used (edge_slide takes it).
bool Transition::try_step_down(float& h, float z) {
  const float r = sphere_path.global_sphere[0].radius;
  if (sphere_path.num_sphere < 2 && r + r < h) h = r * 0.5f;
  if (r + r >= h) return step_down(h, z);
  h *= 0.5f;
  return step_down(h, z) || step_down(h, z);
}

// CTransition::step_up 0x0050B610
bool Transition::step_up(const glm::vec3& normal) {
  collision_info.clear_contact_plane();
  sphere_path.step_up = true;
  sphere_path.step_up_normal = normal;
  const auto [h, z] = step_height_and_floor(object_info.step_up_height);
  sphere_path.walkable_allowance = z;
  sphere_path.save_check_pos();
  const bool ok = step_down(h, z);
  sphere_path.step_up = false;
  sphere_path.walkable = nullptr;
  if (ok) return true;
  sphere_path.restore_check_pos();
  return false;
}

// SPHEREPATH::step_up_slide 0x0050C3B0
TransitionState Transition::step_up_slide() {
  collision_info.clear_contact_plane();
  sphere_path.step_up = false;
  return sphere::slide_sphere(sphere_path.global_sphere[0], *this, sphere_path.step_up_normal,
                              sphere_path.global_curr_center[0]);
}

// CTransition::transitional_insert 0x0050B6F0
TransitionState Transition::transitional_insert(int attempts) {
  SpherePath& path = sphere_path;
  CollisionInfo& ci = collision_info;
  if (path.check_cell == nullptr) return TransitionState::OK;
  TransitionState ts = TransitionState::Invalid;
  for (int i = 0; i < attempts; ++i) {
    ts = insert_into_cell(path.check_cell, attempts);
    switch (ts) {
      case TransitionState::OK:
        ts = check_other_cells(path.check_cell);
        if (ts != TransitionState::OK) path.neg_poly_hit = false;
        if (ts == TransitionState::Collided) return ts;
        break;
      case TransitionState::Slid:
        ci.clear_contact_plane();
        path.neg_poly_hit = false;
        break;
      case TransitionState::Adjusted: path.neg_poly_hit = false; break;
      case TransitionState::Collided: path.neg_poly_hit = false; return ts;
      default: break;
    }
    if (ts != TransitionState::OK) continue;

    if (path.collide) {
      // The landing pass: the mover hit something while airborne.
      path.collide = false;
      bool reset = false;
      if (ci.contact_plane_valid && check_walkable(kLandingZ)) {
        path.backup = path.insert_type;
        path.insert_type = InsertType::Placement;
        ts = transitional_insert(attempts);
        path.insert_type = path.backup;
        if (ts != TransitionState::OK) {
          ts = TransitionState::OK;
          reset = true;
        }
      } else {
        reset = true;
      }
      path.walkable = nullptr;
      if (!reset) return ts;
      path.restore_check_pos();
      ci.clear_contact_plane();
      if (ci.last_known_contact_plane_valid) {
        object_info.kill_velocity();
        ci.last_known_contact_plane_valid = false;
      } else {
        ci.set_collision_normal(path.step_up_normal);
      }
      return TransitionState::Collided;
    }

    if (path.neg_poly_hit && !path.step_down && !path.step_up) {
      path.neg_poly_hit = false;
      if (!path.neg_step_up) {
        ts = sphere::slide_sphere(path.global_sphere[0], *this, path.neg_collision_normal, path.global_curr_center[0]);
      } else if (!step_up(path.neg_collision_normal)) {
        ts = step_up_slide();
      }
      continue;
    }

    if (ci.contact_plane_valid) return TransitionState::OK;
    if ((object_info.state & object_info_state::Contact) == 0 || path.step_down || path.check_cell == nullptr ||
        !object_info.step_down) {
      return TransitionState::OK;
    }
    // Grounded but the ground was lost this step: stay glued if it is near.
    auto [h, z] = step_height_and_floor(object_info.step_down_height);
    path.walkable_allowance = z;
    path.save_check_pos();
    if (try_step_down(h, z)) {
      path.walkable = nullptr;
      return TransitionState::OK;
    }
    if (edge_slide(ts, h, z)) return ts;
  }
  return ts;
}

// CTransition::cliff_slide 0x0050A6D0: push the check position back along
// the crease between the steep contact plane and the last walkable one.
TransitionState Transition::cliff_slide(const Plane& contact) {
  const glm::vec3 crease = glm::cross(contact.normal, collision_info.last_known_contact_plane.normal);
  glm::vec3 normal(-crease.y, crease.x, 0.0f);  // cross(+Z, crease)
  if (normalize_check_small(normal)) return TransitionState::OK;
  const glm::vec3 moved = sphere_path.curr_to_check_block_offset() +
                          (sphere_path.global_sphere[0].center - sphere_path.global_curr_center[0]);
  const float along = glm::dot(moved, normal);
  if (along <= 0.0f) {
    sphere_path.add_offset_to_check_pos(normal * along);
    collision_info.set_collision_normal(normal);
  } else {
    sphere_path.add_offset_to_check_pos(normal * -along);
    collision_info.set_collision_normal(-normal);
  }
  return TransitionState::Adjusted;
}

// CTransition::edge_slide 0x0050B3D0: true when `ts` is the result.
bool Transition::edge_slide(TransitionState& ts, float step_down_height, float z) {
  SpherePath& path = sphere_path;
  CollisionInfo& ci = collision_info;
  const std::uint32_t st = object_info.state;
  if ((st & object_info_state::OnWalkable) == 0 || (st & object_info_state::EdgeSlide) == 0) {
    // Not edge-sliding: back to the step's start, without a contact plane.
    path.walkable = nullptr;
    path.restore_check_pos();
    ci.clear_contact_plane();
    path.cell_array_valid = true;
    ts = TransitionState::OK;
    return true;
  }
  if (ci.contact_plane_valid && ci.contact_plane.normal.z < z) {
    path.walkable = nullptr;
    path.restore_check_pos();
    ts = cliff_slide(ci.contact_plane);
    ci.clear_contact_plane();
    return false;
  }
  if (path.walkable != nullptr) {
    path.restore_check_pos();
    ci.clear_contact_plane();
    ts = precipice_slide();
    return ts == TransitionState::Collided;
  }
  if (ci.contact_plane_valid) {
    path.walkable = nullptr;
    path.restore_check_pos();
    path.cell_array_valid = true;
    ci.clear_contact_plane();
    ts = TransitionState::OK;
    return true;
  }
  // No ground: probe from the current centre for the walkable polygon the
  // mover is leaving.
  const glm::vec3 back = path.global_curr_center[0] - path.global_sphere[0].center;
  path.add_offset_to_check_pos(back);
  step_down(step_down_height, z);
  ci.clear_contact_plane();
  path.restore_check_pos();
  if (path.walkable != nullptr) {
    ci.clear_contact_plane();
    const Position walkable_pos = path.walkable_pos;  // SPHEREPATH::get_walkable_pos
    path.cache_localspace_sphere(walkable_pos, path.walkable_scale);
    path.walkable_check_pos = path.localspace_sphere[0];  // SPHEREPATH::set_walkable_check_pos
    ts = precipice_slide();
    return ts == TransitionState::Collided;
  }
  path.walkable = nullptr;
  ts = TransitionState::Collided;
  path.cell_array_valid = true;
  return true;
}

// SPHEREPATH::precipice_slide 0x0050CC80
TransitionState Transition::precipice_slide() {
  SpherePath& path = sphere_path;
  glm::vec3 normal{0.0f};
  if (!path.walkable->find_crossed_edge(path.walkable_check_pos, path.walkable_up, normal)) {
    path.walkable = nullptr;
    return TransitionState::Collided;
  }
  path.walkable = nullptr;
  path.step_up = false;
  normal = path.walkable_pos.frame.localtoglobalvec(normal);
  const glm::vec3 moved =
      path.curr_to_check_block_offset() + (path.global_sphere[0].center - path.global_curr_center[0]);
  if (glm::dot(normal, moved) > 0.0f) normal = -normal;
  return sphere::slide_sphere(path.global_sphere[0], *this, normal, path.global_curr_center[0]);
}

// CTransition::find_placement_pos 0x0050BA50
bool Transition::find_placement_pos() {
  SpherePath& path = sphere_path;
  CollisionInfo& ci = collision_info;
  path.copy_curr_to_check();
  ci.sliding_normal_valid = false;
  ci.clear_contact_plane();
  bool redo = false;
  if (validate_placement_transition(transitional_insert(3), redo) == TransitionState::OK) return true;
  if (!path.placement_allows_sliding) return false;

  float radius = path.local_sphere[0].radius;
  bool fake_sphere = false;
  float search_radius = 4.0f;
  if (radius < 0.125f) {
    fake_sphere = true;
    search_radius = 2.0f;
  } else if (radius < 0.47999999f) {
    radius = 0.47999999f;
  }
  double exact_steps = 4.0 / (1.0 * radius);
  if (fake_sphere) exact_steps *= 0.5;
  if (exact_steps <= 1.0) return false;
  const double steps = std::ceil(exact_steps);
  const float distance_step = static_cast<float>(search_radius / steps);
  const auto num_steps = static_cast<std::uint32_t>(steps);
  // The binary's constant is 3.1415999, not pi (docs/deviations.md).
  const float radians_step = static_cast<float>(distance_step / radius * 3.1415999);
  float distance = 0.0f;
  float total_radians = 0.0f;
  for (std::uint32_t i = 0; i < num_steps; ++i) {
    distance += distance_step;
    total_radians += radians_step;
    const auto samples = static_cast<std::uint32_t>(2 * static_cast<std::uint64_t>(std::ceil(total_radians)));
    const float angle_step = static_cast<float>(360.0 / static_cast<double>(samples));
    core::Frame heading_frame;
    for (std::uint32_t j = 0; j < samples; ++j) {
      path.copy_curr_to_check();
      heading_frame.set_heading(static_cast<float>(j) * angle_step);
      const glm::vec3 offset = heading_frame.forward() * distance;
      path.global_offset = adjust_offset(offset);
      if (glm::length(path.global_offset) < kEps) continue;
      path.add_offset_to_check_pos(path.global_offset);
      ci.sliding_normal_valid = false;
      ci.clear_contact_plane();
      if (validate_placement_transition(transitional_insert(3), redo) == TransitionState::OK) return true;
    }
  }
  return false;
}

// CTransition::find_placement_position 0x0050C170
bool Transition::find_placement_position() {
  SpherePath& path = sphere_path;
  path.copy_curr_to_check();
  path.insert_type = InsertType::InitialPlacement;
  TransitionState ts = TransitionState::Collided;
  if (path.check_cell != nullptr) {
    ts = insert_into_cell(path.check_cell, 3);
    if (ts == TransitionState::OK) ts = check_other_cells(path.check_cell);
  }
  if (validate_placement(ts, true) != TransitionState::OK) return false;
  path.insert_type = InsertType::Placement;
  if (!find_placement_pos()) return false;
  if (!object_info.step_down) return validate_placement(TransitionState::OK, true) == TransitionState::OK;

  // Settle onto the ground below, as a transition-type insert.
  float h = object_info.step_down_height;
  path.walkable_allowance = kLandingZ;
  path.save_check_pos();
  path.backup = path.insert_type;
  path.insert_type = InsertType::Transition;
  if (!try_step_down(h, kLandingZ)) {
    path.restore_check_pos();
    collision_info.clear_contact_plane();
  }
  path.insert_type = path.backup;
  path.walkable = nullptr;
  return validate_placement(TransitionState::OK, true) == TransitionState::OK;
}

// CTransition::calc_num_steps 0x0050A0B0
void Transition::calc_num_steps(glm::vec3& offset, glm::vec3& offset_per_step, std::uint32_t& num_steps) const {
  if (!sphere_path.begin_pos) {
    offset = glm::vec3(0.0f);
    offset_per_step = glm::vec3(0.0f);
    num_steps = 1;
    return;
  }
  offset = get_offset(*sphere_path.begin_pos, sphere_path.end_pos);
  const double radius = sphere_path.local_sphere[0].radius;
  const double dist = std::sqrt(static_cast<double>(glm::dot(offset, offset)));
  if ((object_info.state & object_info_state::IsViewer) != 0) {
    if (dist <= kEps) {
      offset_per_step = glm::vec3(0.0f);
      num_steps = 0;
      return;
    }
    const double steps = dist / radius;
    offset_per_step = offset * static_cast<float>(1.0 / steps);
    num_steps = static_cast<std::uint32_t>(std::floor(steps)) + 1;
    return;
  }
  const double steps = dist / (1.0 * radius);
  if (steps > 1.0) {
    const double n = std::ceil(steps);
    offset_per_step = offset * static_cast<float>(1.0 / n);
    num_steps = static_cast<std::uint32_t>(n);
  } else if (offset != glm::vec3(0.0f)) {
    offset_per_step = offset;
    num_steps = 1;
  } else {
    offset_per_step = glm::vec3(0.0f);
    num_steps = 0;
  }
}

namespace {
// Frame::is_equal 0x00424C30: origins within EPSILON per axis, quaternion
// components closer than EPSILON.
bool frames_equal(const core::Frame& a, const core::Frame& b) noexcept {
  const glm::vec3 d = glm::abs(a.origin - b.origin);
  if (d.x > kEps || d.y > kEps || d.z > kEps) return false;
  const glm::quat& p = a.orientation();
  const glm::quat& q = b.orientation();
  return std::fabs(p.w - q.w) < kEps && std::fabs(p.x - q.x) < kEps && std::fabs(p.y - q.y) < kEps &&
         std::fabs(p.z - q.z) < kEps;
}
}  // namespace

// CTransition::validate_transition 0x0050AA70
TransitionState Transition::validate_transition(TransitionState ts, bool& redo) {
  SpherePath& path = sphere_path;
  CollisionInfo& ci = collision_info;
  redo = false;
  bool moved = true;  // the binary's local "redo": 0 on a rejected or empty step
  const bool unchanged =
      path.check_pos.objcell_id == path.curr_pos.objcell_id && frames_equal(path.check_pos.frame, path.curr_pos.frame);
  if (ts != TransitionState::OK || unchanged) {
    moved = false;
    if (ts != TransitionState::OK) {
      if (ts != TransitionState::Invalid) {
        if (ci.last_known_contact_plane_valid) {
          object_info.kill_velocity();
          const Plane& lk = ci.last_known_contact_plane;
          if (path.global_sphere[0].radius + kEps > std::fabs(glm::dot(path.global_curr_center[0], lk.normal) + lk.d)) {
            ci.set_contact_plane(lk, ci.last_known_contact_plane_is_water);
            ci.contact_plane_cell_id = ci.last_known_contact_plane_cell_id;
            if ((object_info.state & object_info_state::OnWalkable) != 0) moved = true;
          }
        }
        if (!ci.collision_normal_valid) ci.set_collision_normal(glm::vec3(0.0f, 0.0f, 1.0f));
        path.set_check_pos(path.curr_pos, path.curr_cell);
        ObjCell* ignored = nullptr;
        build_cell_array(ignored);
        ts = TransitionState::OK;
      }
    } else {
      path.curr_pos = path.check_pos;
      path.curr_cell = path.check_cell;
      path.cache_global_curr_center();
      path.set_check_pos(path.curr_pos, path.curr_cell);
    }
  } else {
    path.curr_pos = path.check_pos;
    path.curr_cell = path.check_cell;
    path.cache_global_curr_center();
    path.set_check_pos(path.curr_pos, path.curr_cell);
  }
  if (ci.collision_normal_valid) ci.set_sliding_normal(ci.collision_normal);

  // The stationary-fall fail-safe: a Gravity object that does not move for
  // three steps is given a floor under its sphere.
  if ((object_info.state & object_info_state::IsViewer) == 0 && object_info.object != nullptr &&
      (object_info.object->state() & protocol::physics_state::Gravity) != 0) {
    if (moved) {
      ci.frames_stationary_fall = 0;
    } else if (ci.frames_stationary_fall == 0) {
      ci.frames_stationary_fall = 1;
    } else if (ci.frames_stationary_fall == 1) {
      ci.frames_stationary_fall = 2;
    } else {
      ci.frames_stationary_fall = 3;
      const CollisionSphere& s = path.global_sphere[0];
      const Plane floor{glm::vec3(0.0f, 0.0f, 1.0f), s.radius - s.center.z};
      ci.set_contact_plane(floor, false);
      ci.contact_plane_cell_id = path.check_pos.objcell_id;
      if ((object_info.state & object_info_state::Contact) == 0) {
        ci.set_collision_normal(floor.normal);
        ci.collided_with_environment = true;
      }
    }
  }
  ci.last_known_contact_plane_valid = ci.contact_plane_valid;
  if (ci.contact_plane_valid) {
    ci.last_known_contact_plane = ci.contact_plane;
    ci.last_known_contact_plane_cell_id = ci.contact_plane_cell_id;
    ci.last_known_contact_plane_is_water = ci.contact_plane_is_water;
    object_info.state |= object_info_state::Contact;
    if (ObjectInfo::is_valid_walkable(ci.contact_plane.normal)) {
      object_info.state |= object_info_state::OnWalkable;
    } else {
      object_info.state &= ~object_info_state::OnWalkable;
    }
  } else {
    object_info.state &= ~(object_info_state::Contact | object_info_state::OnWalkable);
  }
  return ts;
}

// CTransition::find_transitional_position 0x0050BDF0
bool Transition::find_transitional_position() {
  SpherePath& path = sphere_path;
  CollisionInfo& ci = collision_info;
  if (path.begin_cell == nullptr) return false;
  TransitionState ts = TransitionState::OK;
  glm::vec3 offset(0.0f);
  glm::vec3 step(0.0f);
  std::uint32_t num_steps = 0;
  calc_num_steps(offset, step, num_steps);
  const bool free_rotate = (object_info.state & object_info_state::FreeRotate) != 0;
  const bool viewer = (object_info.state & object_info_state::IsViewer) != 0;
  if (free_rotate) path.curr_pos.frame.set_rotate(path.end_pos.frame.orientation());
  path.copy_curr_to_check();
  if (num_steps == 0) {
    if (!free_rotate) path.curr_pos.frame.set_rotate(path.end_pos.frame.orientation());
    path.set_check_pos(path.curr_pos, path.curr_cell);
    ObjCell* ignored = nullptr;
    build_cell_array(ignored);
    return true;
  }
  bool redo = false;
  std::uint32_t i = 0;
  for (; i < num_steps; ++i) {
    if (viewer && i == num_steps - 1) {
      // The viewer's last step is what is left of the offset.
      const double dist = std::sqrt(static_cast<double>(glm::dot(offset, offset)));
      if (dist > kEps) {
        const double rest = (dist - path.local_sphere[0].radius * static_cast<double>(num_steps - 1)) / dist;
        step = offset * static_cast<float>(rest);
      }
    }
    path.global_offset = adjust_offset(step);
    if (!viewer && glm::dot(path.global_offset, path.global_offset) < kEps * kEps) {
      if (i == 0) return false;
      return ts == TransitionState::OK;
    }
    if (!free_rotate && path.begin_pos) {
      const float t = static_cast<float>(static_cast<double>(i + 1) / static_cast<double>(num_steps));
      path.check_pos.frame.interpolate_rotation(path.begin_pos->frame, path.end_pos.frame, t);
    }
    ci.sliding_normal_valid = false;
    ci.clear_contact_plane();
    if (path.insert_type != InsertType::Transition) {
      ts = validate_placement_transition(transitional_insert(3), redo);
      if (ts == TransitionState::OK) return true;
      if (!path.placement_allows_sliding) return false;
      path.add_offset_to_check_pos(path.global_offset);
    } else {
      path.add_offset_to_check_pos(path.global_offset);
      ts = validate_transition(transitional_insert(3), redo);
      if (ci.frames_stationary_fall != 0) break;
    }
    if (ci.collision_normal_valid && (object_info.state & object_info_state::PathClipped) != 0) break;
  }
  return ts == TransitionState::OK;
}

// CTransition::find_valid_position 0x0050C310
bool Transition::find_valid_position() {
  if (sphere_path.insert_type != InsertType::Transition) return find_placement_position();
  return find_transitional_position();
}

// CTransition::check_collisions 0x0050AA00
bool Transition::check_collisions(PhysicsObj& object) {
  sphere_path.insert_type = InsertType::Placement;
  sphere_path.copy_curr_to_check();
  return object.find_obj_collisions(*this) != TransitionState::OK;
}

// CTransition::init_contact_plane 0x0050E850
void Transition::init_contact_plane(std::uint32_t cell_id, const Plane& plane, bool is_water) noexcept {
  CollisionInfo& ci = collision_info;
  ci.last_known_contact_plane_valid = true;
  ci.last_known_contact_plane = plane;
  ci.last_known_contact_plane_is_water = is_water;
  ci.last_known_contact_plane_cell_id = cell_id;
  ci.contact_plane_valid = true;
  ci.contact_plane = plane;
  ci.contact_plane_is_water = is_water;
  ci.contact_plane_cell_id = cell_id;
}

// CTransition::init_last_known_contact_plane 0x0050E8E0
void Transition::init_last_known_contact_plane(std::uint32_t cell_id, const Plane& plane, bool is_water) noexcept {
  CollisionInfo& ci = collision_info;
  ci.last_known_contact_plane_valid = true;
  ci.last_known_contact_plane = plane;
  ci.last_known_contact_plane_is_water = is_water;
  ci.contact_plane_cell_id = cell_id;
}

}  // namespace dereth::sim
