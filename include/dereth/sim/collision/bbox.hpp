#pragma once
// BBox and what a part gives a static object's cell search (RE
// engine_shared_geometry/BBox.c, geometry/Plane.c, cphysobj/CPhysicsPart.c):
// the axis-aligned box of a GfxObj's vertices moved between positions, the
// side of a plane it lies on, and the per-part bounds
// CPhysicsObj::find_bbox_cell_list hands the cells.
#include <optional>

#include <glm/vec3.hpp>

#include "dereth/dat/types.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

// BBox: m_vMin, m_vMax.
struct BBox {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};

  // BBox::AdjustBBox 0x00534150: widened to hold `v`.
  void adjust(const glm::vec3& v) noexcept;
  // BBox::LocalToGlobal 0x005B2120: the box of `from` (in from_pos's frame)
  // in to_pos's landblock space (to_pos's frame is not applied): its eight
  // corners moved, min corner first.
  [[nodiscard]] static BBox local_to_global(const BBox& from, const Position& from_pos,
                                            const Position& to_pos) noexcept;
  // BBox::LocalToLocal 0x005B1E60: likewise, in to_pos's frame.
  [[nodiscard]] static BBox local_to_local(const BBox& from, const Position& from_pos, const Position& to_pos) noexcept;
  bool operator==(const BBox&) const = default;
};

// Position::localtolocal 0x004527F0: the point `v` of p's frame in `to`'s frame.
[[nodiscard]] glm::vec3 localtolocal(const Position& to, const Position& p, const glm::vec3& v) noexcept;

// Plane::which_side 0x00444720: 0 in front (beyond epsilon), 1 behind, 2 on it.
[[nodiscard]] int which_side(const dat::Plane& plane, const glm::vec3& v, float epsilon) noexcept;
// Plane::intersect_box 0x005AA170: 0 when every corner is in front, 1 when
// every corner is behind, else 3 (a corner on the plane or the box across it).
[[nodiscard]] int intersect_box(const dat::Plane& plane, const BBox& box) noexcept;

// What CPhysicsPart gives CPartArray::calc_cross_cells_static 0x00518160
// (the cells' find_transit_cells over parts).
struct PartBounds {
  Position pos;  // CPhysicsPart::pos: the owner's cell, the part's block-local frame
  // CPhysicsPart::GetBoundingBox 0x0050D600: the GfxObj's gfx_bound_box
  // (CGfxObj::init_end 0x00534200: its vertices' box; zero without any),
  // unscaled.
  BBox box;
  // The GfxObj's physics_sphere, else its drawing_sphere (the trees' root
  // spheres, unscaled); none without either.
  std::optional<dat::Sphere> sphere;
  // CPhysicsPart::Always2D 0x0050D8A0: the part's degrade table's first
  // level has a degrade mode other than 1.
  bool always_2d = false;
};

}  // namespace dereth::sim
