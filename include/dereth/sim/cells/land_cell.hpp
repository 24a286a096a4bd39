#pragma once
// CLandCell (RE ccell/CLandCell.c, CSortCell): one 24 m outdoor cell of a
// loaded landblock over its LandBlockStruct terrain, with the building
// standing in it.
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>

#include "dereth/sim/cells/building.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/collision/transition.hpp"

namespace dereth::sim {

class Landscape;

// CLandCell: one 24 m outdoor cell of a loaded landblock.
class LandCell final : public ObjCell {
 public:
  LandCell(const LandBlockStruct& block, std::size_t cell_index);

  // CLandCell::find_env_collisions 0x00532F20: the terrain under the foot
  // sphere's low point, through OBJECTINFO::validate_walkable.
  TransitionState find_env_collisions(Transition& t) override;
  // CLandCell::find_collisions 0x00532D60: the terrain, then the building
  // (CSortCell::find_collisions 0x005340A0), then the shadow objects.
  TransitionState find_collisions(Transition& t) override;
  // CLandCell::find_transit_cells 0x00533800: the outside cells the spheres
  // reach, and the building's EnvCells behind its portals
  // (CSortCell::find_transit_cells 0x00534060).
  void find_transit_cells(Landscape& scape, const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                          CellArray& out, SpherePath* path) override;
  // CLandCell::find_transit_cells 0x00533840 (over parts): the outside cells
  // the parts' boxes reach (add_all_outside_cells), and the building's
  // EnvCells they reach through its portals (CSortCell::find_transit_cells
  // 0x00534080).
  void find_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) override;
  // CSortCell::add_building 0x00534020 (the building stays the block's).
  void set_building(const Building* building) noexcept { building_ = building; }
  [[nodiscard]] const Building* building() const noexcept { return building_; }
  // CLandCell::handle_move_restriction 0x00533070: the collision normal
  // points from this cell towards the mover's current position, along one
  // axis: -y or +y when it is more than half a cell (12 m) south or north
  // of the cell's centre, else -x when more than 12 m west, else +x.
  bool handle_move_restriction(Transition& t) override;
  // CLandCell::pos: the cell's centre at z 0 in its landblock
  // (CLandBlockStruct::ConstructPolygons 0x00531D10).
  [[nodiscard]] Position pos() const noexcept;
  // CLandCell::point_in_cell 0x00532D40
  [[nodiscard]] bool point_in_cell(const glm::vec3& block_local) const override;
  // CObjCell::get_water_depth 0x0052B8A0
  [[nodiscard]] float get_water_depth(const glm::vec3& point) const noexcept;
  [[nodiscard]] WaterType water_type() const noexcept { return block_->cell_water_type(index_); }
  // CLandCell::grab_visible_cells 0x00532D90: LScape::grab_visible_cells.
  void grab_visible_cells(Landscape& scape) override;
  // CLandCell::release_cells 0x00532DA0: LScape::release_visible_cells.
  void release_cells(Landscape& scape) override;

 private:
  const LandBlockStruct* block_;
  std::size_t index_;
  const Building* building_ = nullptr;
};

}  // namespace dereth::sim
