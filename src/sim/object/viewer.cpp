#include "dereth/sim/object/viewer.hpp"

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

namespace {

bool is_indoor(std::uint32_t cell_id) noexcept {
  return (cell_id & 0xFFFFu) >= 0x100u;
}

}  // namespace

// CPhysicsObj::AdjustPosition 0x00511D80
bool adjust_position(CellSource& cells, Position& p, const glm::vec3& low_point, ObjCell*& new_cell,
                     bool search_cells) {
  new_cell = nullptr;
  if (!is_valid_cell(p.objcell_id)) return false;
  if (!is_indoor(p.objcell_id)) {
    adjust_to_outside(p.objcell_id, p.frame.origin);
    if (p.objcell_id == 0) return false;
    new_cell = cells.get_cell(p.objcell_id);
    return true;  // as the binary: found or not, the id is a land cell's
  }
  auto* env = dynamic_cast<EnvCell*>(cells.get_cell(p.objcell_id));
  if (env == nullptr) return false;
  const glm::vec3 point = p.frame.localtoglobal(low_point);
  // CEnvCell::find_visible_child_cell 0x0052DC50: this cell, then (searching)
  // each cell of its stab list that is loaded.
  ObjCell* found = env->point_in_cell(point) ? env : nullptr;
  if (found == nullptr && search_cells) {
    for (const std::uint32_t id : env->stab_list()) {
      ObjCell* other = cells.get_cell(id);
      if (other != nullptr && other->point_in_cell(point)) {
        found = other;
        break;
      }
    }
  }
  if (found != nullptr) {
    p.objcell_id = found->id();
    new_cell = found;
    return true;
  }
  if (!env->seen_outside()) return false;
  // Position::adjust_to_outside 0x00504A40: the outdoor cell under the origin.
  adjust_to_outside(p.objcell_id, p.frame.origin);
  if (p.objcell_id == 0) return false;
  new_cell = cells.get_cell(p.objcell_id);
  return true;
}

// SmartBox::update_viewer 0x00453CE0
Viewer update_viewer(CellSource& cells, PhysicsObj& player, const glm::vec3& pivot_offset,
                     const glm::vec3& sought_offset) {
  Viewer viewer;
  viewer.position = player.position();
  if (player.cell() == nullptr) return viewer;  // the binary re-enters visibility first; no cell, no sweep
  // The pivot: the player's frame moved by the pivot offset.
  core::Frame start_frame = player.position().frame;
  start_frame.origin += pivot_offset;
  ObjCell* start_cell = player.cell();
  if (is_indoor(player.position().objcell_id)) {
    Position start{player.position().objcell_id, start_frame};
    ObjCell* found = nullptr;
    if (adjust_position(cells, start, glm::vec3(0.0f), found, true) && found != nullptr) start_cell = found;
  }
  const Position begin{start_cell->id(), start_frame};
  Position end = begin;
  end.frame.origin += sought_offset;

  const CollisionSphere sphere{glm::vec3(0.0f), kViewerSphereRadius};
  Transition t(cells);
  t.init_object(player, kViewerObjectInfo);
  t.init_sphere(1, &sphere, 1.0f);
  t.init_path(start_cell, &begin, end);
  if (t.find_valid_position()) {
    viewer.position = t.sphere_path.curr_pos;
    viewer.cell = t.sphere_path.curr_cell;
    viewer.placement = ViewerPlacement::Swept;
    return viewer;
  }
  Position wanted = end;
  ObjCell* wanted_cell = nullptr;
  if (adjust_position(cells, wanted, glm::vec3(0.0f), wanted_cell, true)) {
    viewer.position = wanted;
    viewer.cell = wanted_cell;
    viewer.placement = ViewerPlacement::Adjusted;
  }
  return viewer;
}

}  // namespace dereth::sim
