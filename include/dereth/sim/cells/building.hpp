#pragma once
// CBuildingObj (spec/physics.md 5.7; RE cphysobj/CBuildingObj.c): a
// building's physics BSP standing in the land cell at its origin, and its
// portals leading into the EnvCells behind its doors.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dereth/sim/cells/building_portal.hpp"
#include "dereth/sim/collision/bsp.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Landscape;

// CBuildingObj: the building's first part (its model's physics BSP) at the
// building's position, and its door portals.
struct Building {
  std::shared_ptr<const GfxObjPhysics> physics;  // null: no solid
  Position pos;                                  // the part's position
  float scale = 1.0f;                            // the part's gfxobj scale z
  std::vector<BuildingPortal> portals;

  // CBuildingObj::find_building_collisions 0x006B5300
  TransitionState find_building_collisions(Transition& t) const;
  // CBuildingObj::find_building_transit_cells 0x006B5230
  void find_building_transit_cells(Landscape& scape, std::uint32_t num_sphere, const CollisionSphere* spheres,
                                   CellArray& out, SpherePath* path) const;
  // CBuildingObj::find_building_transit_cells 0x006B52A0 (over parts)
  void find_building_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) const;
};

}  // namespace dereth::sim
