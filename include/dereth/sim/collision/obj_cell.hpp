#pragma once
// CObjCell (RE ccell/CObjCell.c): a cell's shadow objects, entry
// restrictions and collision test, the base the land cells and EnvCells
// extend; and CellSource, where a transition finds the cells a sphere set
// overlaps (obj_cell.cpp).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/collision/cell_array.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/sphere_path.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Landscape;
class PhysicsObj;
class Transition;

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
  // CObjCell::check_collisions 0x0052B7B0: whether `object` collides with
  // any unparented other object shadowed here (CPhysicsObj::check_collision).
  bool check_collisions(PhysicsObj& object);
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
  virtual void find_transit_cells(Landscape& /*scape*/, std::span<const PartBounds> /*parts*/, CellArray& /*out*/) {}
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
  // Each shadow's physobj as it was added, in step with shadows_ (the same
  // order, the same swaps): the object search reads the objects without
  // touching the shadows (a shadow's physobj does not change while it is in
  // a cell).
  std::vector<PhysicsObj*> shadow_physobjs_;
};

}  // namespace dereth::sim
