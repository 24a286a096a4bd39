// CBuildingObj's collision half (spec/physics.md 5.7; RE
// cphysobj/CBuildingObj.c, cgeometry/CBldPortal.c).
#include "dereth/sim/cells/building.hpp"

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"

namespace dereth::sim {

// CBuildingObj::find_building_collisions 0x006B5300
TransitionState Building::find_building_collisions(Transition& t) const {
  if (!physics) return TransitionState::OK;
  t.sphere_path.building_check = true;
  const TransitionState result = find_part_collisions(physics.get(), pos, scale, t);
  t.sphere_path.building_check = false;
  if (result != TransitionState::OK && (t.object_info.state & object_info_state::Contact) == 0) {
    t.collision_info.collided_with_environment = true;
  }
  return result;
}

// CBuildingObj::find_building_transit_cells 0x006B5230
void Building::find_building_transit_cells(Landscape& scape, std::uint32_t num_sphere, const CollisionSphere* spheres,
                                           CellArray& out, SpherePath* path) const {
  for (const BuildingPortal& portal : portals) {
    if (auto* env = dynamic_cast<EnvCell*>(scape.cell_for(out, portal.other_cell_id)); env != nullptr) {
      env->check_building_transit(portal.other_portal_id, num_sphere, spheres, out, path);
    }
  }
}

// CBuildingObj::find_building_transit_cells 0x006B52A0
void Building::find_building_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) const {
  for (const BuildingPortal& portal : portals) {
    // CBldPortal::GetOtherCell 0x0053BC30
    if (auto* env = dynamic_cast<EnvCell*>(scape.cell_for(out, portal.other_cell_id)); env != nullptr) {
      env->check_building_transit(scape, portal.other_portal_id, parts, out);
    }
  }
}

}  // namespace dereth::sim
