// CObjCell's shadow list and object test, CSphere's collision responses and
// CPhysicsObj's obstacle side (spec/physics.md sections 5.7 and 5.8; RE
// ccell/CObjCell.c, cgeometry/CSphere.c, cphysobj/CPhysicsObj.c).
#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/collision/transition.hpp"

namespace dereth::sim {

namespace {

namespace ps = protocol::physics_state;
constexpr float kEps = core::kEpsilon;

}  // namespace

// ---- CObjCell ---------------------------------------------------------------------

// CObjCell::add_shadow_object 0x0052B280
void ObjCell::add_shadow_object(ShadowObj& object) {
  shadows_.push_back(&object);
  object.cell = this;
}

// CObjCell::remove_shadow_object 0x0052B2D0
void ObjCell::remove_shadow_object(ShadowObj& object) {
  const auto it = std::find(shadows_.begin(), shadows_.end(), &object);
  if (it == shadows_.end()) return;
  object.cell = nullptr;
  *it = shadows_.back();
  shadows_.pop_back();
}

std::vector<PhysicsObj*> ObjCell::objects() const {
  std::vector<PhysicsObj*> standing;
  for (const ShadowObj* s : shadows_) {
    PhysicsObj* obj = s->physobj;
    if (obj == nullptr || obj->cell() != this) continue;
    if (std::find(standing.begin(), standing.end(), obj) == standing.end()) standing.push_back(obj);
  }
  return standing;
}

// CObjCell::release_objects 0x0052B490
void ObjCell::release_objects() {
  // The cell's objects, found before their shadows leave.
  const std::vector<PhysicsObj*> standing = objects();
  while (!shadows_.empty()) remove_shadow_object(*shadows_.back());
  // CObjectMaint::ReleaseObjCell 0x00507BB0: neither static nor parented.
  for (PhysicsObj* obj : standing) {
    if ((obj->state() & protocol::physics_state::Static) == 0 && obj->parent() == nullptr) obj->leave_visibility();
  }
}

// CObjCell::find_obj_collisions 0x0052B750: every shadow object that is not
// parented and is not the mover; none at all for INITIAL_PLACEMENT.
TransitionState ObjCell::find_obj_collisions(Transition& t) {
  TransitionState result = TransitionState::OK;
  if (t.sphere_path.insert_type == InsertType::InitialPlacement) return result;
  // The list may not change under the test (a hit only records objects).
  for (std::size_t i = 0; i < shadows_.size(); ++i) {
    PhysicsObj* obj = shadows_[i]->physobj;
    if (obj == nullptr || obj->parent() != nullptr || obj == t.object_info.object) continue;
    result = obj->find_obj_collisions(t);
    if (result != TransitionState::OK) break;
  }
  return result;
}

// CObjCell::check_entry_restrictions 0x0052B6D0
TransitionState ObjCell::check_entry_restrictions(Transition& t) {
  PhysicsObj* mover = t.object_info.object;
  if (mover == nullptr) return TransitionState::Collided;
  if (!mover->weenie()) return TransitionState::OK;
  const bool bypass = mover->weenie_can_bypass_move_restrictions();
  if ((t.object_info.state & object_info_state::IsPlayer) == 0 || restriction_obj_ == 0 || bypass) {
    return TransitionState::OK;
  }
  // CPhysicsObj::GetObjectA 0x0050F490
  const PhysicsObj* house = PhysicsObj::get_object(mover->context(), restriction_obj_);
  if (house == nullptr || !house->weenie()) return TransitionState::Collided;
  if (!house->weenie_can_move_into(mover)) {
    handle_move_restriction(t);
    return TransitionState::Collided;
  }
  return TransitionState::OK;
}

// The cell's find_collisions: a plain object cell has no environment of its
// own (CLandCell and CEnvCell add terrain and the cell BSP).
TransitionState ObjCell::find_collisions(Transition& t) {
  const TransitionState env = find_env_collisions(t);
  if (env != TransitionState::OK) return env;
  return find_obj_collisions(t);
}

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
  double root = std::sqrt(b * b - (static_cast<double>(glm::dot(disp, disp)) - static_cast<double>(reach) * reach) * mm) -
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

// ---- CPhysicsObj as an obstacle -------------------------------------------------------

// CPhysicsObj::FindObjCollisions 0x0050F050
TransitionState PhysicsObj::find_obj_collisions(Transition& t) {
  if ((state_ & ps::Ethereal) != 0 && (state_ & ps::IgnoreCollisions) != 0) return TransitionState::OK;
  const bool creature_weenie = weenie_ && weenie_->is_creature;
  if (weenie_ && (t.object_info.state & object_info_state::IsViewer) != 0 && creature_weenie) {
    return TransitionState::OK;
  }
  bool ethereal = false;
  if ((state_ & ps::Ethereal) != 0 || (t.object_info.ethereal && (state_ & ps::Static) == 0)) {
    ethereal = true;
    if (t.sphere_path.step_down) return TransitionState::OK;
  }
  t.sphere_path.obstruction_ethereal = ethereal;

  // Players pass through players unless one side is impenetrable or a PK
  // (lite) meets a PK (lite).
  const std::uint32_t mover = t.object_info.state;
  bool exempt = weenie_ && weenie_->is_player && (mover & object_info_state::IsPlayer) != 0 &&
                (mover & object_info_state::IsImpenetrable) == 0 && !weenie_->is_impenetrable &&
                !((mover & object_info_state::IsPk) != 0 && weenie_->is_pk) &&
                !((mover & object_info_state::IsPkLite) != 0 && weenie_->is_pklite);
  const bool is_creature = (state_ & ps::Missile) != 0 || creature_weenie;

  TransitionState result = TransitionState::OK;
  if ((state_ & ps::HasPhysicsBsp) != 0) {
    // The parts' physics BSPs stand in for the spheres and cylinders.
    if (part_array_ && !exempt && !t.object_info.missile_ignore(*this)) result = part_array_->find_obj_collisions(t);
  } else if (part_array_ && !exempt && !t.object_info.missile_ignore(*this)) {
    const auto cyl = part_array_->cyl_spheres();
    if (!cyl.empty()) {
      for (const dat::CylSphere& c : cyl) {
        result = cylsphere::intersects_sphere(c, position_, scale_, t);
        if (result != TransitionState::OK) break;
      }
    } else {
      for (const dat::Sphere& s : part_array_->spheres()) {
        result = sphere::intersects_sphere(s, position_, scale_, t, is_creature);
        if (result != TransitionState::OK) break;
      }
    }
  }
  if (result != TransitionState::OK && !t.sphere_path.step_down) {
    if ((state_ & ps::Static) != 0) {
      if ((t.object_info.state & object_info_state::Contact) == 0) t.collision_info.collided_with_environment = true;
    } else if (ethereal || (is_creature && (t.object_info.state & object_info_state::IgnoreCreatures) != 0)) {
      result = TransitionState::OK;
      t.collision_info.collision_normal_valid = false;
      t.collision_info.add_object(this, TransitionState::OK);
    } else {
      t.collision_info.add_object(this, result);
    }
  }
  t.sphere_path.obstruction_ethereal = false;
  return result;
}

// CPhysicsObj::add_shadows_to_cells 0x00514AE0
void PhysicsObj::add_shadows_to_cells(const CellArray& cells) {
  if ((state_ & ps::ParticleEmitter) == 0) {
    // CPhysicsObj::add_particle_shadow_to_cell is not needed: emitters
    // never collide.
    shadow_objects_.assign(cells.cells.size(), ShadowObj{});
    for (std::size_t i = 0; i < cells.cells.size(); ++i) {
      shadow_objects_[i].physobj = this;
      shadow_objects_[i].cell_id = cells.cells[i].cell_id;
    }
    for (std::size_t i = 0; i < cells.cells.size(); ++i) {
      if (ObjCell* c = cells.cells[i].cell; c != nullptr) {
        c->add_shadow_object(shadow_objects_[i]);
      } else {
        shadow_objects_[i].cell = nullptr;
      }
    }
  }
  for (const ChildAttachment& child : children_) {
    if (child.object != nullptr) child.object->add_shadows_to_cells(cells);
  }
}

// CPhysicsObj::remove_shadows_from_cells 0x00511230
void PhysicsObj::remove_shadows_from_cells() {
  for (ShadowObj& s : shadow_objects_) {
    if (s.cell != nullptr) s.cell->remove_shadow_object(s);
  }
  shadow_objects_.clear();
  for (const ChildAttachment& child : children_) {
    if (child.object != nullptr) child.object->remove_shadows_from_cells();
  }
}

// CPhysicsObj::CacheHasPhysicsBSP 0x0050F570
bool PhysicsObj::cache_has_physics_bsp() {
  if (part_array_ && part_array_->has_physics_bsp()) {
    state_ |= ps::HasPhysicsBsp;
    return true;
  }
  state_ &= ~ps::HasPhysicsBsp;
  return false;
}

// CPhysicsObj::add_obj_to_cell 0x005159E0
void PhysicsObj::add_obj_to_cell(ObjCell& cell, const core::Frame& frame) {
  cell_ = &cell;  // enter_cell
  in_cell_ = true;
  position_.objcell_id = cell.id();
  set_frame(frame);
  calc_cross_cells_static();
}

// CPhysicsObj::calc_cross_cells_static 0x00515160
void PhysicsObj::calc_cross_cells_static() {
  if (cell_ == nullptr) return;
  CellArray cells;
  cells.do_not_load_cells = true;
  const auto cyl = part_array_ ? part_array_->cyl_spheres() : std::span<const dat::CylSphere>{};
  if ((state_ & ps::HasPhysicsBsp) == 0 && !cyl.empty()) {
    find_cylsphere_cell_list(cyl, cells);
  } else {
    find_bbox_cell_list(cells);
  }
  remove_shadows_from_cells();
  add_shadows_to_cells(cells);
}

// CObjCell::find_cell_list 0x0052B9F0: each cylinder a sphere at its low
// point (in the object's frame, unscaled) with its radius, at most 10.
void PhysicsObj::find_cylsphere_cell_list(std::span<const dat::CylSphere> cyl, CellArray& cells) {
  std::array<CollisionSphere, 10> spheres{};
  const std::size_t n = std::min(cyl.size(), spheres.size());
  for (std::size_t i = 0; i < n; ++i) {
    spheres[i].center = localtoglobal(position_, position_, cyl[i].origin);
    spheres[i].radius = cyl[i].radius;
  }
  if (context_->cells == nullptr) return;
  ObjCell* curr = nullptr;
  context_->cells->find_cell_list(position_, static_cast<std::uint32_t>(n), spheres.data(), cells, curr);
}

// CPhysicsObj::calc_cross_cells 0x00515230
void PhysicsObj::calc_cross_cells() {
  CellArray cells;  // do_not_load_cells clear: cells load as they are asked for
  const auto cyl = part_array_ ? part_array_->cyl_spheres() : std::span<const dat::CylSphere>{};
  if ((state_ & ps::HasPhysicsBsp) != 0) {
    find_bbox_cell_list(cells);
  } else if (!cyl.empty()) {
    find_cylsphere_cell_list(cyl, cells);
  } else if (context_->cells != nullptr) {
    // CObjCell::find_cell_list 0x0052B990: the Setup's sorting sphere (a
    // zero one without a part array) in the world.
    const dat::Sphere sorting = part_array_ ? part_array_->sorting_sphere() : dat::Sphere{};
    CollisionSphere sphere;
    sphere.center = localtoglobal(position_, position_, sorting.center);
    sphere.radius = sorting.radius;
    ObjCell* curr = nullptr;
    context_->cells->find_cell_list(position_, 1, &sphere, cells, curr);
  }
  remove_shadows_from_cells();
  add_shadows_to_cells(cells);
}

// CPhysicsObj::recalc_cross_cells 0x00515A30 (an object with no cell id
// stops here: retail's examination objects' particle shadow is not modelled)
void PhysicsObj::recalc_cross_cells() {
  if (!part_array_ || position_.objcell_id == 0) return;
  calc_cross_cells();
  for (const ChildAttachment& child : children_) child.object->recalc_cross_cells();
}

// CPhysicsObj::find_bbox_cell_list 0x00510FC0
void PhysicsObj::find_bbox_cell_list(CellArray& cells) {
  cells.cells.clear();
  cells.added_outside = false;
  if (cell_ == nullptr) return;
  add_cell(cells, cell_->id(), cell_);
  if (!part_array_ || context_->cells == nullptr) return;
  Landscape* scape = context_->cells->landscape();
  if (scape == nullptr) return;
  std::vector<PartBounds> parts;
  part_array_->part_bounds(position_.objcell_id, parts);
  for (std::size_t i = 0; i < cells.cells.size(); ++i) {
    // CPartArray::calc_cross_cells_static 0x00518160: the cell's transit
    // cells over the parts.
    if (ObjCell* c = cells.cells[i].cell; c != nullptr) c->find_transit_cells(*scape, parts, cells);
  }
}

// CPhysicsObj::is_completely_visible 0x005112C0
bool PhysicsObj::is_completely_visible() const noexcept {
  if (cell_ == nullptr || shadow_objects_.empty()) return false;
  return std::all_of(shadow_objects_.begin(), shadow_objects_.end(),
                     [](const ShadowObj& s) { return s.cell != nullptr; });
}

}  // namespace dereth::sim
