#pragma once
// The CPolygon and Plane geometry the terrain needs, over a plain vertex list
// (RE cgeometry/CPolygon.c, ccell/CLandBlock.c). Retail keeps vertex
// pointers in the polygon; these take the vertices in polygon order. The
// arithmetic follows the binary's float and double steps, so planes agree
// with retail's to the bit where the x87 did not keep extra precision.

#include <cstdint>
#include <span>

#include <glm/vec3.hpp>

#include "dereth/dat/types.hpp"

namespace dereth::sim {

// Retail enum Sidedness.
enum class Sidedness : std::uint32_t { Positive = 0, Negative = 1, InPlane = 2, Crossing = 3 };

// CPolygon::make_plane 0x005383D0: the normal is the sum of the fan's cross
// products (v[i] - v[0]) x (v[i+1] - v[0]), normalised; d is minus the mean of
// N . v over the vertices. A counter-clockwise polygon (seen from +z) faces
// up. Fewer than three vertices (or collinear ones) give NaN, as in retail.
[[nodiscard]] dat::Plane make_plane(std::span<const glm::vec3> vertices) noexcept;

// CPolygon::point_in_poly2D 0x00538060: whether the point's (x, y) lies
// inside the polygon's projection. Edges are walked from the last vertex
// back to the first; for each edge (a = v[i], b = the vertex after it) the
// value (b.y - a.y)(p.x - a.x) + (a.x - b.x)(p.y - a.y) must not be positive
// (Positive) or not negative (any other side). A point on an edge is inside;
// a NaN point is inside too (no compare fails).
[[nodiscard]] bool point_in_poly2d(std::span<const glm::vec3> vertices, const glm::vec3& point,
                                   Sidedness side) noexcept;

// Plane::set_height 0x0052F050: puts the point on the plane vertically,
// z = -(N.x x + N.y y + d) / N.z; false (point untouched) when |N.z| is at
// most EPSILON.
bool set_height(const dat::Plane& plane, glm::vec3& point) noexcept;

}  // namespace dereth::sim
