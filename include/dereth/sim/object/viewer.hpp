#pragma once
// The viewer: where the follow camera may stand. Retail does not put the
// camera at the point its camera manager wants; SmartBox::update_viewer
// sweeps a small sphere from a pivot on the player to that point through the
// collision transition (spec/physics.md 5.1: OBJECTINFO 0x5C, one sphere),
// and the camera stands where the sphere stops, so it never looks from
// inside a wall, a floor or a building. The renderer cannot ask the world,
// so the app asks here and hands the camera the answer.
#include <cstdint>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class PhysicsObj;

// SmartBox's viewer_sphere: 0.3 m about the viewer's origin (set in
// SmartBox::SmartBox, acclient.c 145537..145543).
inline constexpr float kViewerSphereRadius = 0.3f;
// The viewer's transition: IsViewer | PathClipped | FreeRotate | PerfectClip
// (SmartBox::update_viewer's init_object).
inline constexpr std::uint32_t kViewerObjectInfo = object_info_state::IsViewer | object_info_state::PathClipped |
                                                   object_info_state::FreeRotate | object_info_state::PerfectClip;

// How update_viewer placed the viewer: where the sweep stopped; at the
// wanted point itself, when the sweep failed but the point is in a cell
// (CPhysicsObj::AdjustPosition); or on the player, when neither worked (or
// the player is in no cell).
enum class ViewerPlacement : std::uint8_t { Swept, Adjusted, OnPlayer };

struct Viewer {
  Position position;        // SmartBox::viewer
  ObjCell* cell = nullptr;  // SmartBox::viewer_cell: null when on the player
  ViewerPlacement placement = ViewerPlacement::OnPlayer;
};

// CPhysicsObj::AdjustPosition 0x00511D80: the cell holding `p` (its point
// `low_point`, in p's frame), with p's cell id changed to it. Indoors: the
// EnvCell named, else (search_cells) the first of its stab list, else (a
// cell that sees outside) the outdoor cell under it; outdoors: the land cell
// (LandDefs::adjust_to_outside, which re-homes the origin). False, and
// `new_cell` null, when there is none (an invalid cell id included).
bool adjust_position(CellSource& cells, Position& p, const glm::vec3& low_point, ObjCell*& new_cell, bool search_cells);

// SmartBox::update_viewer 0x00453CE0: the viewer for a camera pivoting at
// `pivot_offset` from the player's origin and wanting to stand at
// `sought_offset` from the pivot (both in world axes; retail takes them from
// its CameraManager, in the player's and the pivot's frames). Indoors the
// pivot's own cell is looked up (AdjustPosition), outdoors the player's cell
// is used; the viewer sphere is swept from the pivot to the wanted point and
// the viewer stands where it stopped.
[[nodiscard]] Viewer update_viewer(CellSource& cells, PhysicsObj& player, const glm::vec3& pivot_offset,
                                   const glm::vec3& sought_offset);

}  // namespace dereth::sim
