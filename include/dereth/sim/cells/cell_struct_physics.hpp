#pragma once
// CCellStruct's collision half (spec/physics.md 5.4; RE ccell/CCellStruct.c):
// the physics and cell BSPs an Environment's cell structure gives every
// EnvCell built on it.
#include <optional>
#include <string>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/sim/collision/bsp.hpp"

namespace dereth::sim {

// CCellStruct's collision half, shared by every EnvCell built on it.
struct CellStructPhysics {
  std::optional<BspTree> physics;  // physics_bsp (absent: nothing solid)
  BspTree cells;                   // cell_bsp
  std::vector<Polygon> polygons;   // the drawing polygons portals name

  // The CellStruct `cs` of the Environment `context` names; its trees and
  // polygons checked (bsp.hpp).
  [[nodiscard]] static core::Result<CellStructPhysics> build(const dat::CellStruct& cs, const std::string& context);
  // CCellStruct::point_in_cell 0x005338F0 (a point in the cell's frame)
  [[nodiscard]] bool point_in_cell(const glm::vec3& local) const { return cells.point_inside_cell_bsp(local); }
  // CCellStruct::sphere_intersects_cell 0x00533900: 0 outside, 1 across a
  // wall, 2 inside (BSPNODE::sphere_intersects_cell_bsp 0x0053C260).
  [[nodiscard]] int sphere_intersects_cell(const dat::Sphere& local) const;
  // CCellStruct::box_intersects_cell 0x00533910 (a box in the cell's frame;
  // BSPNODE::box_intersects_cell_bsp 0x0053C880).
  [[nodiscard]] bool box_intersects_cell(const BBox& local) const { return cells.box_intersects_cell_bsp(local); }
};

}  // namespace dereth::sim
