// BBox, Plane's box test and Position::localtolocal (RE
// engine_shared_geometry/BBox.c, geometry/Plane.c, ENGINE/render_base
// Plane::which_side, smartbox/SmartBox.c).
#include "dereth/sim/collision/bbox.hpp"

#include <array>

#include <glm/geometric.hpp>

#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

// The corner order BBox::LocalToGlobal and Plane::intersect_box visit: min,
// then max, then the six mixed ones.
std::array<glm::vec3, 8> corners(const BBox& b) noexcept {
  return {glm::vec3(b.min.x, b.min.y, b.min.z), glm::vec3(b.max.x, b.max.y, b.max.z),
          glm::vec3(b.max.x, b.max.y, b.min.z), glm::vec3(b.max.x, b.min.y, b.max.z),
          glm::vec3(b.min.x, b.max.y, b.max.z), glm::vec3(b.min.x, b.max.y, b.min.z),
          glm::vec3(b.max.x, b.min.y, b.min.z), glm::vec3(b.min.x, b.min.y, b.max.z)};
}

template <typename Move>
BBox moved(const BBox& from, Move move) noexcept {
  const auto c = corners(from);
  BBox out;
  out.min = out.max = move(c[0]);
  for (std::size_t i = 1; i < c.size(); ++i) out.adjust(move(c[i]));
  return out;
}

}  // namespace

// BBox::AdjustBBox 0x00534150
void BBox::adjust(const glm::vec3& v) noexcept {
  if (v.x < min.x) min.x = v.x;
  if (v.y < min.y) min.y = v.y;
  if (v.z < min.z) min.z = v.z;
  if (v.x > max.x) max.x = v.x;
  if (v.y > max.y) max.y = v.y;
  if (v.z > max.z) max.z = v.z;
}

// BBox::LocalToGlobal 0x005B2120
BBox BBox::local_to_global(const BBox& from, const Position& from_pos, const Position& to_pos) noexcept {
  return moved(from, [&](const glm::vec3& v) { return localtoglobal(to_pos, from_pos, v); });
}

// BBox::LocalToLocal 0x005B1E60
BBox BBox::local_to_local(const BBox& from, const Position& from_pos, const Position& to_pos) noexcept {
  return moved(from, [&](const glm::vec3& v) { return localtolocal(to_pos, from_pos, v); });
}

// Position::localtolocal 0x004527F0
glm::vec3 localtolocal(const Position& to, const Position& p, const glm::vec3& v) noexcept {
  return to.frame.globaltolocal(localtoglobal(to, p, v));
}

// Plane::which_side 0x00444720
int which_side(const dat::Plane& plane, const glm::vec3& v, float epsilon) noexcept {
  const float d = glm::dot(plane.normal, v) + plane.d;
  if (d > epsilon) return 0;
  return d >= -epsilon ? 2 : 1;
}

// Plane::intersect_box 0x005AA170
int intersect_box(const dat::Plane& plane, const BBox& box) noexcept {
  const auto c = corners(box);
  const float first = glm::dot(plane.normal, c[0]) + plane.d;
  int side = 0;
  if (first <= kPhysicsEpsilon) {
    if (first >= -kPhysicsEpsilon) return 3;
    side = 1;
  }
  for (std::size_t i = 1; i < c.size(); ++i) {
    if (which_side(plane, c[i], kPhysicsEpsilon) != side) return 3;
  }
  return side;
}

}  // namespace dereth::sim
