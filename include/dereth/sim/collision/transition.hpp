#pragma once
// The collision transition (spec/physics.md section 5): CTransition with its
// OBJECTINFO, SPHEREPATH, COLLISIONINFO and CELLARRAY, the object cells that
// hold shadow objects (CObjCell), and the sphere and cylinder primitives'
// responses (CSphere, CCylSphere). Retail names and addresses are cited at
// each function.
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
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class Landscape;
class ObjCell;
class PhysicsObj;
class Transition;

// TransitionState (acclient.h).
enum class TransitionState : std::uint8_t { Invalid = 0, OK = 1, Collided = 2, Adjusted = 3, Slid = 4 };

// SPHEREPATH::insert_type.
enum class InsertType : std::uint8_t { Transition = 0, Placement = 1, InitialPlacement = 2 };

// PhysicsGlobals::floor_z and the landing allowance (spec 6.5) are kFloorZ
// and kLandingZ in types.hpp, beside the other PhysicsGlobals.

// CSphere: a centre and a radius (the Setup's sphere record).
using CollisionSphere = dat::Sphere;

// CELLARRAY entry and array.
struct CellArrayEntry {
  std::uint32_t cell_id = 0;
  ObjCell* cell = nullptr;
};
struct CellArray {
  std::vector<CellArrayEntry> cells;
  bool added_outside = false;
  bool do_not_load_cells = false;
};

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
  TransitionState validate_walkable(const CollisionSphere& check, const Plane& plane, bool is_water,
                                    float water_depth, Transition& t, std::uint32_t land_cell_id) const;
};

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

// SPHEREPATH.
struct SpherePath {
  std::uint32_t num_sphere = 0;
  std::array<CollisionSphere, 2> local_sphere{};
  glm::vec3 local_low_point{0.0f};
  std::array<CollisionSphere, 2> global_sphere{};
  glm::vec3 global_low_point{0.0f};
  std::array<glm::vec3, 2> global_curr_center{};
  // The obstacle being tested, and the mover's spheres in its frame
  // divided by its scale (SPHEREPATH::cache_localspace_sphere 0x0050C9D0).
  Position localspace_pos;
  std::array<CollisionSphere, 2> localspace_sphere{};
  std::array<glm::vec3, 2> localspace_curr_center{};
  glm::vec3 localspace_z{0.0f, 0.0f, 1.0f};  // world up in the obstacle's frame
  glm::vec3 localspace_low_point{0.0f};

  ObjCell* begin_cell = nullptr;
  std::optional<Position> begin_pos;
  Position end_pos;
  ObjCell* curr_cell = nullptr;
  Position curr_pos;
  ObjCell* check_cell = nullptr;
  Position check_pos;
  glm::vec3 global_offset{0.0f};

  bool step_up = false;
  glm::vec3 step_up_normal{0.0f};
  bool collide = false;
  InsertType insert_type = InsertType::Transition;
  InsertType backup = InsertType::Transition;
  bool step_down = false;
  ObjCell* backup_cell = nullptr;
  Position backup_check_pos;
  bool obstruction_ethereal = false;
  bool hits_interior_cell = false;
  bool building_check = false;
  bool cell_array_valid = false;
  float walkable_allowance = 0.0f;
  float walk_interp = 1.0f;
  float step_down_amt = 0.0f;
  // The walkable polygon a BSP step-down or landing stood the mover on
  // (SPHEREPATH::set_walkable), with the sphere, up and frame it was found in.
  const Polygon* walkable = nullptr;
  CollisionSphere walkable_check_pos;
  glm::vec3 walkable_up{0.0f};
  Position walkable_pos;
  float walkable_scale = 1.0f;
  bool check_walkable = false;
  bool neg_step_up = false;
  glm::vec3 neg_collision_normal{0.0f};
  bool neg_poly_hit = false;
  bool placement_allows_sliding = true;

  // SPHEREPATH::init 0x0050C330
  void init() noexcept;
  // SPHEREPATH::init_sphere 0x0050C670: at most 2 spheres, times scale.
  void init_sphere(std::uint32_t count, const CollisionSphere* spheres, float scale) noexcept;
  // SPHEREPATH::init_path 0x0050CE20
  void init_path(ObjCell* begin, const Position* begin_position, const Position& end) noexcept;
  // SPHEREPATH::cache_global_curr_center 0x0050C740
  void cache_global_curr_center() noexcept;
  // SPHEREPATH::cache_global_sphere 0x0050C810
  void cache_global_sphere(const glm::vec3* offset) noexcept;
  // SPHEREPATH::add_offset_to_check_pos 0x00536A60
  void add_offset_to_check_pos(const glm::vec3& offset) noexcept;
  // SPHEREPATH::save_check_pos 0x0050A880
  void save_check_pos() noexcept;
  // SPHEREPATH::restore_check_pos 0x0050B100
  void restore_check_pos() noexcept;
  // SPHEREPATH::set_check_pos 0x0050A8B0
  void set_check_pos(const Position& p, ObjCell* cell) noexcept;
  // SPHEREPATH::adjust_check_pos 0x0050CC00
  void adjust_check_pos(std::uint32_t cell_id) noexcept;
  // SPHEREPATH::set_collide 0x005378A0
  void set_collide(const glm::vec3& normal) noexcept;
  // SPHEREPATH::is_walkable_allowable 0x005368D0
  [[nodiscard]] bool is_walkable_allowable(float z) const noexcept { return z > walkable_allowance; }
  // SPHEREPATH::check_walkables 0x0050C3E0: true without a recorded
  // walkable polygon; else halves the recorded sphere's radius (kept, as the
  // binary writes it back) and asks CPolygon::check_walkable.
  [[nodiscard]] bool check_walkables() noexcept;
  // SPHEREPATH::cache_localspace_sphere 0x0050C9D0: the spheres at the
  // check and current positions in p's frame, divided by `scale`.
  void cache_localspace_sphere(const Position& p, float scale) noexcept;
  // SPHEREPATH::set_walkable 0x00539FC0
  void set_walkable(const CollisionSphere& sphere, const Polygon* poly, const glm::vec3& zaxis,
                    const Position& local_pos, float scale) noexcept;
  // SPHEREPATH::set_neg_poly_hit 0x005398E0: the normal is stored negated.
  void set_neg_poly_hit(bool step_up_hit, const glm::vec3& collision_normal) noexcept;
  // The curr -> check landblock offset (SPHEREPATH::get_curr_pos_check_pos_block_offset 0x00509FD0).
  [[nodiscard]] glm::vec3 curr_to_check_block_offset() const noexcept;
  void copy_curr_to_check() noexcept;  // check = curr, cell too, spheres cached
};

// Where a transition finds the cells a sphere set overlaps
// (CObjCell::find_cell_list) and a cell by id. The world's landscape
// implements it; tests build their own.
class CellSource {
 public:
  CellSource() = default;
  CellSource(const CellSource&) = delete;
  CellSource& operator=(const CellSource&) = delete;
  virtual ~CellSource() = default;
  [[nodiscard]] virtual ObjCell* get_cell(std::uint32_t cell_id) = 0;
  // CObjCell::find_cell_list 0x0052B4E0: every cell the spheres at `p`
  // overlap into `out`, and the one holding sphere 0's centre in `curr`
  // (null when none); `path` (optional) learns whether an indoor cell was
  // met (hits_interior_cell).
  virtual void find_cell_list(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                              CellArray& out, ObjCell*& curr, SpherePath* path = nullptr) = 0;
  // The landscape whose cells take part in a static object's box search
  // (CPhysicsObj::find_bbox_cell_list); none here: only the object's own cell.
  [[nodiscard]] virtual Landscape* landscape() noexcept { return nullptr; }
};

// CObjCell: a cell's shadow objects and its collision test.
class ObjCell {
 public:
  explicit ObjCell(std::uint32_t id) noexcept : id_(id) {}
  ObjCell(const ObjCell&) = delete;
  ObjCell& operator=(const ObjCell&) = delete;
  virtual ~ObjCell() = default;

  [[nodiscard]] std::uint32_t id() const noexcept { return id_; }
  [[nodiscard]] const std::vector<ShadowObj*>& shadow_objects() const noexcept { return shadows_; }
  // CObjCell::object_list: the objects whose cell this is, found through
  // their shadows here, each once, in shadow order.
  [[nodiscard]] std::vector<PhysicsObj*> objects() const;

  // CObjCell::add_shadow_object 0x0052B280
  void add_shadow_object(ShadowObj& object);
  // CObjCell::remove_shadow_object 0x0052B2D0: swap with the last.
  void remove_shadow_object(ShadowObj& object);
  // CObjCell::release_objects 0x0052B490 (the cell is going away): every
  // shadow leaves the cell (the objects keep the cell's id, cell null, and
  // get it back when the cell loads again), then each object standing in
  // the cell that is neither static nor parented leaves visibility
  // (CObjectMaint::ReleaseObjCell 0x00507BB0, CPhysicsObj::leave_visibility).
  void release_objects();
  // CObjCell::find_obj_collisions 0x0052B750
  TransitionState find_obj_collisions(Transition& t);
  // CObjCell::check_entry_restrictions 0x0052B6D0: a transition without an
  // object cannot enter; a player-flagged mover with a weenie that cannot
  // bypass restrictions enters a cell with a restriction object only when
  // that object's weenie lets it (weenie_can_move_into), else the cell's
  // handle_move_restriction runs and the mover collides. A restriction
  // object not in the object table, or without a weenie, refuses.
  TransitionState check_entry_restrictions(Transition& t);
  // The cell's handle_move_restriction (vtable slot): what a refused entry
  // does to the transition; the plain object cell does nothing (as
  // CEnvCell::handle_move_restriction 0x0052C1C0). The result is unused.
  virtual bool handle_move_restriction(Transition& /*t*/) { return true; }
  // CObjCell::restriction_obj: the house object whose weenie decides who
  // enters (0: none; CObjCell::CObjCell clears it). EnvCells take it from
  // their DAT record, land cells from their LandBlockInfo's table
  // (Landscape::init_restrictions).
  [[nodiscard]] std::uint32_t restriction_obj() const noexcept { return restriction_obj_; }
  void set_restriction_obj(std::uint32_t id) noexcept { restriction_obj_ = id; }
  // The cell's find_collisions (vtable slot): environment, then objects.
  virtual TransitionState find_collisions(Transition& t);
  // The environment test (terrain for a land cell; none here).
  virtual TransitionState find_env_collisions(Transition& /*t*/) { return TransitionState::OK; }
  // The cell's point_in_cell (vtable slot): whether a point in the cell's
  // landblock-local space lies in it.
  [[nodiscard]] virtual bool point_in_cell(const glm::vec3& /*block_local*/) const { return false; }
  // The cell's find_transit_cells (vtable slot; CObjCell's adds nothing):
  // the cells the spheres at `p` reach from this one (landscape.hpp).
  virtual void find_transit_cells(Landscape& /*scape*/, const Position& /*p*/, std::uint32_t /*num_sphere*/,
                                  const CollisionSphere* /*spheres*/, CellArray& /*out*/, SpherePath* /*path*/) {}
  // The cell's find_transit_cells over parts (vtable slot; CObjCell's
  // 0x0052B080 aborts, here it adds nothing): the cells a static object's parts'
  // boxes reach from this one (landscape.hpp, env_cell.hpp).
  virtual void find_transit_cells(Landscape& /*scape*/, std::span<const PartBounds> /*parts*/,
                                  CellArray& /*out*/) {}
  // The cell's grab_visible_cells and release_cells (vtable slots, which
  // CellManager::ChangePosition calls on the player's cell): the cells seen
  // from this one enter, or leave, the landscape's visible cells (a land
  // cell: LScape's; an EnvCell: its own and its stab list's). Nothing here.
  virtual void grab_visible_cells(Landscape& /*scape*/) {}
  virtual void release_cells(Landscape& /*scape*/) {}

 private:
  std::uint32_t id_;
  std::uint32_t restriction_obj_ = 0;
  std::vector<ShadowObj*> shadows_;
};

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

// CSphere's collision responses, in the transition's block-local space.
namespace sphere {
// CSphere::collides_with_sphere 0x005369E0: |disp|^2 <= radsum^2.
[[nodiscard]] bool collides_with_sphere(const glm::vec3& disp, float radsum) noexcept;
// CSphere::find_time_of_collision 0x005368F0: -1 when none.
[[nodiscard]] double find_time_of_collision(const glm::vec3& movement, const glm::vec3& disp, float radsum) noexcept;
// CSphere::intersects_sphere 0x00537A80: obstacle `obstacle` (already in the
// check position's space) against the mover's spheres.
TransitionState intersects_sphere(const CollisionSphere& obstacle, Transition& t, bool is_creature);
// CSphere::intersects_sphere 0x00537FD0: an object sphere posed at `p`
// with `scale`.
TransitionState intersects_sphere(const CollisionSphere& local, const Position& p, float scale, Transition& t,
                                  bool is_creature);
// CSphere::slide_sphere 0x00537440 (the five-argument form).
TransitionState slide_sphere(const CollisionSphere& check, Transition& t, glm::vec3 normal,
                             const glm::vec3& curr_center);
}  // namespace sphere

// CCylSphere: a vertical cylinder standing on its low point (the Setup's
// record; `origin` is retail's low_pt).
using CollisionCylinder = dat::CylSphere;

// CCylSphere's collision responses, in the transition's block-local space:
// `cyl` is the obstacle already posed there (z up), `check` the mover's
// sphere tested, `disp` its centre less the cylinder's low point and
// `radsum` the two radii less EPSILON.
namespace cylsphere {
// CCylSphere::collides_with_sphere 0x0053A880: within radsum across and
// within the cylinder's height widened by the sphere's radius.
[[nodiscard]] bool collides_with_sphere(const CollisionCylinder& cyl, const CollisionSphere& check,
                                        const glm::vec3& disp, float radsum) noexcept;
// CCylSphere::normal_of_collision 0x0053AB50: the side normal (xy of the
// current centre) or the top/bottom one; false when a side hit came from
// above or below the cylinder and may have met its top or bottom instead.
bool normal_of_collision(const CollisionCylinder& cyl, const SpherePath& path, const CollisionSphere& check,
                         const glm::vec3& disp, float radsum, int sphere_num, glm::vec3& normal) noexcept;
// CCylSphere::step_sphere_down 0x0053A9B0
TransitionState step_sphere_down(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum);
// CCylSphere::collide_with_point 0x0053ACB0
TransitionState collide_with_point(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                   const glm::vec3& disp, float radsum, int sphere_num);
// CCylSphere::slide_sphere 0x0053B2A0
TransitionState slide_sphere(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                             const glm::vec3& disp, float radsum, int sphere_num);
// CCylSphere::step_sphere_up 0x0053B310
TransitionState step_sphere_up(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                               const glm::vec3& disp, float radsum);
// CCylSphere::land_on_cylinder 0x0053B3D0
TransitionState land_on_cylinder(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum);
// CCylSphere::intersects_sphere 0x0053B440: the obstacle cylinder against
// the mover's spheres (no creature exemption, unlike CSphere's).
TransitionState intersects_sphere(const CollisionCylinder& cyl, Transition& t);
// CCylSphere::intersects_sphere 0x0053B8F0: an object cylinder posed at `p`
// with `scale`.
TransitionState intersects_sphere(const CollisionCylinder& local, const Position& p, float scale, Transition& t);
}  // namespace cylsphere

}  // namespace dereth::sim
