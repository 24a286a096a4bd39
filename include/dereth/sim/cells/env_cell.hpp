#pragma once
// CEnvCell, an indoor cell (spec/physics.md 5.4; RE ccell/CEnvCell.c): its
// structure's physics BSP as its environment, its cell BSP deciding what
// lies inside it, its portals leading to neighbouring cells or outdoors.
#include <cstdint>
#include <memory>
#include <vector>

#include "dereth/dat/env_cell.hpp"
#include "dereth/sim/cells/cell_portal.hpp"
#include "dereth/sim/cells/cell_struct_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Landscape;

// CEnvCell.
class EnvCell final : public ObjCell {
 public:
  EnvCell(std::uint32_t id, const Position& pos, std::shared_ptr<const CellStructPhysics> structure,
          std::vector<CellPortal> portals);

  [[nodiscard]] const Position& pos() const noexcept { return pos_; }
  [[nodiscard]] const CellStructPhysics& structure() const noexcept { return *structure_; }
  [[nodiscard]] const std::vector<CellPortal>& portals() const noexcept { return portals_; }
  // CEnvCell::static_object_ids / static_object_frames: what the cell's
  // record places in it (made into objects when it loads, by the world).
  [[nodiscard]] const std::vector<dat::Stab>& static_objects() const noexcept { return static_objects_; }
  void set_static_objects(std::vector<dat::Stab> stabs) { static_objects_ = std::move(stabs); }
  // CEnvCell::stab_list: the cells seen from this one (CEnvCell::UnPack:
  // block_mask | each visible cell of the record), grabbed with it
  // (Landscape::grab_visible_cells).
  [[nodiscard]] const std::vector<std::uint32_t>& stab_list() const noexcept { return stab_list_; }
  void set_stab_list(std::vector<std::uint32_t> cells) { stab_list_ = std::move(cells); }
  // CEnvCell::seen_outside (the record's flag 1): the landscape is seen,
  // and kept, from this cell.
  [[nodiscard]] bool seen_outside() const noexcept { return seen_outside_; }
  void set_seen_outside(bool seen) noexcept { seen_outside_ = seen; }

  // CEnvCell::find_env_collisions 0x0052C130: the entry restrictions, then
  // the structure's physics BSP in the cell's frame (placement_insert for
  // INITIAL_PLACEMENT).
  TransitionState find_env_collisions(Transition& t) override;
  // CEnvCell::handle_move_restriction 0x0052C1C0: nothing (the collision
  // normal is left as it was).
  bool handle_move_restriction(Transition& t) override;
  // CEnvCell::point_in_cell 0x0052C300: a point of the cell's landblock
  // inside its cell BSP (never, for a cell without portals).
  [[nodiscard]] bool point_in_cell(const glm::vec3& block_local) const override;
  // CEnvCell::find_transit_cells 0x0052C820: the neighbours through the
  // portals the spheres reach, and the outside cells when a sphere is at an
  // outside portal.
  void find_transit_cells(Landscape& scape, const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                          CellArray& out, SpherePath* path) override;
  // CEnvCell::check_building_transit 0x0052C5D0: this cell, when a sphere
  // reaches into it through the building portal `portal_id`.
  void check_building_transit(int portal_id, std::uint32_t num_sphere, const CollisionSphere* spheres, CellArray& out,
                              SpherePath* path);
  // CEnvCell::find_transit_cells 0x0052CAE0 (over parts): through each
  // portal, the neighbour a part's box reaches into (by its sphere near the
  // portal's plane, its box off the portal's side, then the box in the
  // neighbour's cell BSP; a neighbour not loaded goes in by id), and the
  // outside cells when a part reaches an outside portal.
  void find_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) override;
  // CEnvCell::check_building_transit 0x0052C680 (over parts): this cell and
  // its own transit cells, when a part's box reaches into it through the
  // building portal `portal_id`.
  void check_building_transit(Landscape& scape, int portal_id, std::span<const PartBounds> parts, CellArray& out);
  // CEnvCell::grab_visible_cells 0x0052E220: this cell and each of its stab
  // list enter the visible cells (Landscape::add_visible_cell), then, seen
  // from outside, the landscape's (LScape::grab_visible_cells).
  void grab_visible_cells(Landscape& scape) override;
  // CEnvCell::release_cells 0x0052E280: this cell and each of its stab list
  // leave the visible cells for the released ones (freed at the next
  // Landscape::flush_cells unless grabbed again first), then, seen from
  // outside, the landscape's leave (LScape::release_visible_cells).
  void release_cells(Landscape& scape) override;

 private:
  // The sphere in this cell's frame.
  [[nodiscard]] dat::Sphere to_local(const CollisionSphere& s) const noexcept;

  Position pos_;
  std::shared_ptr<const CellStructPhysics> structure_;
  std::vector<CellPortal> portals_;
  std::vector<dat::Stab> static_objects_;
  std::vector<std::uint32_t> stab_list_;
  bool seen_outside_ = false;
};

}  // namespace dereth::sim
