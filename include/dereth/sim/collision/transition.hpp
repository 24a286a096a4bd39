#pragma once
// The collision transition (spec/physics.md section 5): CTransition. Its
// parts have their own headers: OBJECTINFO (object_info.hpp), SPHEREPATH
// (sphere_path.hpp), COLLISIONINFO (collision_info.hpp) and CELLARRAY
// (cell_array.hpp); the cells it walks are CObjCell (obj_cell.hpp) and the
// primitives it tests CSphere (sphere.hpp) and CCylSphere (cyl_sphere.hpp),
// which this header includes because a transition names them all. Retail
// names and addresses are cited at each function.
//
// Ported: the sweep and placement (find_transitional_position,
// find_placement_position / find_placement_pos and the insert, validate,
// step and slide machinery they use, edge_slide with precipice_slide), the
// object tests of a cell (CObjCell::find_obj_collisions,
// CPhysicsObj::FindObjCollisions) for sphere, cylinder and physics BSP
// obstacles (bsp.hpp), terrain contact through
// OBJECTINFO::validate_walkable, and the commit
// (CPhysicsObj::SetPositionInternal). The sweep (find_transitional_position)
// is what the object loop commits through when the world has cells. Not
// yet: EnvCell and building BSPs in the world, handle_all_collisions
// (docs/deviations.md D5, D6, N3).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/collision/cell_array.hpp"
#include "dereth/sim/collision/collision_info.hpp"
#include "dereth/sim/collision/cyl_sphere.hpp"
#include "dereth/sim/collision/obj_cell.hpp"
#include "dereth/sim/collision/object_info.hpp"
#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/sphere_path.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class Landscape;
class ObjCell;
class PhysicsObj;

// CTransition.
class Transition {
 public:
  explicit Transition(CellSource& cells) noexcept : cells_(&cells) { init(); }

  ObjectInfo object_info;
  SpherePath sphere_path;
  CollisionInfo collision_info;
  CellArray cell_array;

  [[nodiscard]] CellSource& cells() noexcept { return *cells_; }

  // CTransition::init 0x00509DD0
  void init() noexcept;
  // CTransition::init_object (inlined OBJECTINFO::init)
  void init_object(PhysicsObj& object, std::uint32_t object_state) { object_info.init(object, object_state); }
  // CTransition::init_sphere 0x00509E50
  void init_sphere(std::uint32_t count, const CollisionSphere* spheres, float scale) noexcept {
    sphere_path.init_sphere(count, spheres, scale);
  }
  // CTransition::init_path 0x00509E60
  void init_path(ObjCell* begin, const Position* begin_position, const Position& end) noexcept {
    sphere_path.init_path(begin, begin_position, end);
  }

  // CTransition::insert_into_cell 0x00509E70
  TransitionState insert_into_cell(ObjCell* cell, int attempts);
  // CTransition::build_cell_array 0x00509EE0
  void build_cell_array(ObjCell*& new_cell);
  // CTransition::check_other_cells 0x0050AE50
  TransitionState check_other_cells(ObjCell* curr);
  // CTransition::adjust_offset 0x0050A370
  [[nodiscard]] glm::vec3 adjust_offset(const glm::vec3& offset);
  // CTransition::validate_placement_transition 0x0050ADC0
  TransitionState validate_placement_transition(TransitionState ts, bool& redo);
  // CTransition::placement_insert 0x0050B1D0
  TransitionState placement_insert();
  // CTransition::validate_placement 0x0050B210
  TransitionState validate_placement(TransitionState ts, bool adjust);
  // CTransition::check_walkable 0x0050AFF0: true when there is ground
  // below (or nothing to check).
  bool check_walkable(float z_check);
  // CTransition::step_down 0x0050B2A0
  bool step_down(float step_down_height, float z);
  // CTransition::step_up 0x0050B610
  bool step_up(const glm::vec3& normal);
  [[nodiscard]] std::pair<float, float> step_height_and_floor(float walkable_height) const noexcept;
  bool try_step_down(float& h, float z);
  // SPHEREPATH::step_up_slide 0x0050C3B0
  TransitionState step_up_slide();
  // SPHEREPATH::precipice_slide 0x0050CC80: slide along the edge of the
  // recorded walkable polygon the mover is about to leave.
  TransitionState precipice_slide();
  // CTransition::cliff_slide 0x0050A6D0
  TransitionState cliff_slide(const Plane& contact);
  // CTransition::edge_slide 0x0050B3D0: true when `ts` is the result.
  bool edge_slide(TransitionState& ts, float step_down_height, float z);
  // CTransition::transitional_insert 0x0050B6F0
  TransitionState transitional_insert(int attempts);
  // CTransition::find_placement_pos 0x0050BA50
  bool find_placement_pos();
  // CTransition::find_placement_position 0x0050C170
  bool find_placement_position();
  // CTransition::calc_num_steps 0x0050A0B0: sub-steps of at most one
  // sphere radius (the viewer's rule differs).
  void calc_num_steps(glm::vec3& offset, glm::vec3& offset_per_step, std::uint32_t& num_steps) const;
  // CTransition::validate_transition 0x0050AA70: accept or reject one step,
  // the stationary-fall fail-safe, and the contact bits for the next.
  TransitionState validate_transition(TransitionState ts, bool& redo);
  // CTransition::find_transitional_position 0x0050BDF0: the sweep.
  bool find_transitional_position();
  // CTransition::find_valid_position 0x0050C310
  bool find_valid_position();
  // CTransition::check_collisions 0x0050AA00: the mover's spheres where they
  // stand (a placement-type insert), tested against `object` alone; true
  // when it does not answer OK.
  bool check_collisions(PhysicsObj& object);
  // CTransition::init_contact_plane 0x0050E850
  void init_contact_plane(std::uint32_t cell_id, const Plane& plane, bool is_water) noexcept;
  // CTransition::init_last_known_contact_plane 0x0050E8E0 (it writes the
  // contact plane's cell id, not the last-known one's, as the binary does)
  void init_last_known_contact_plane(std::uint32_t cell_id, const Plane& plane, bool is_water) noexcept;
  // CTransition::init_sliding_normal 0x0050FF20
  void init_sliding_normal(const glm::vec3& normal) noexcept { collision_info.set_sliding_normal(normal); }

 private:
  CellSource* cells_;
};

// AC1Legacy::Vector3::normalize_check_small: true (and `v` untouched) when
// its length is below EPSILON, else `v` is normalised.
bool normalize_check_small(glm::vec3& v) noexcept;

// Plane::Plane 0x00536A20: the plane through `point` with `normal`.
[[nodiscard]] Plane plane_through(const glm::vec3& normal, const glm::vec3& point) noexcept;

}  // namespace dereth::sim
