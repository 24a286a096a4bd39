// PhysicsObj, the cells part: CPhysicsObj as an obstacle, its shadows in
// the cells it crosses and the cell searches for them (spec/physics.md
// sections 5.7 and 5.8; RE cphysobj/CPhysicsObj.c). physics_obj.hpp lists
// the other parts.
#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/reach.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

namespace ps = protocol::physics_state;

}  // namespace

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
    if (beyond_reach(part_array_->spheres(), cyl, scale_, position_, t.sphere_path)) {
      // Every test below would return OK. The cylinder test's one lasting
      // effect, the obstacle's position as the path's local space, stays.
      if (!cyl.empty()) t.sphere_path.localspace_pos = position_;
    } else if (!cyl.empty()) {
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

float PhysicsObj::compute_sphere_reach() const noexcept {
  if (!part_array_ || !part_array_->cyl_spheres().empty()) return -1.0f;
  return shapes_reach(part_array_->spheres(), {}, scale_);
}

// CPhysicsObj::add_shadows_to_cells 0x00514AE0
void PhysicsObj::add_shadows_to_cells(const CellArray& cells) {
  if ((state_ & ps::ParticleEmitter) != 0) {
    add_particle_shadow_to_cell();  // acclient.c 321996-321998
  } else {
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

// CPhysicsObj::add_particle_shadow_to_cell 0x00514A70. Retail reads the
// cell unguarded; an emitter outside a cell gets no shadow here.
void PhysicsObj::add_particle_shadow_to_cell() {
  if (cell_ == nullptr) return;
  shadow_objects_.assign(1, ShadowObj{this, nullptr, cell_->id()});
  cell_->add_shadow_object(shadow_objects_[0]);
}

// CPhysicsObj::ethereal_check_for_collisions 0x00510A40
bool PhysicsObj::ethereal_check_for_collisions() {
  for (const ShadowObj& shadow : shadow_objects_) {
    if (shadow.cell != nullptr && shadow.cell->check_collisions(*this)) return true;
  }
  return false;
}

// CPhysicsObj::check_collision 0x00512ED0: this object's transition from
// where it stands to where it stands (get_object_info, its spheres or the
// dummy one, its cell), tested against `object` alone.
bool PhysicsObj::check_collision(PhysicsObj& object) {
  if ((state_ & ps::Static) != 0 || context_->cells == nullptr) return false;
  std::unique_ptr<Transition> t = make_transition(&position_, position_, false);
  return t->check_collisions(object);
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
