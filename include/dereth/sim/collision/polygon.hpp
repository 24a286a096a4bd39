#pragma once
// The CPolygon and Plane geometry the terrain needs, over a plain vertex list
// (RE cgeometry/CPolygon.c, ccell/CLandBlock.c). Retail keeps vertex
// pointers in the polygon; these take the vertices in polygon order. The
// arithmetic follows the binary's float and double steps, so planes agree
// with retail's to the bit where the x87 did not keep extra precision.

#include <cstdint>
#include <span>
#include <vector>

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

struct SpherePath;

// CPolygon as the collision code sees it: the vertices in order (a physics
// polygon's vertex ids resolved against its GfxObj or CellStruct) and the
// plane CPolygon::make_plane gives them. Used by the BSP obstacles
// (bsp.hpp). Every edge test walks the edges from the last vertex to the
// first, edge = v[i] - v[i-1], and a point p is inside an edge when
// (p - v[i-1]) . (N x edge) >= 0: a polygon counter-clockwise seen from its
// normal contains the points inside all its edges.
//
// Two compares lost in the decompilation (x87 flags with no expression) are
// read as: an edge outside which the projected centre lies farther than the
// contact circle's radius misses (|N x edge|^2 * r'^2 < dot^2, NaN missing
// too), and CPolygon::adjust_sphere_to_poly aims at the side of the plane the
// current centre is on (docs/deviations.md).
struct Polygon {
  std::vector<glm::vec3> vertices;
  dat::Plane plane;

  // The vertices with make_plane's plane.
  [[nodiscard]] static Polygon from_vertices(std::vector<glm::vec3> vertices);
  // N . p + d
  [[nodiscard]] float dist(const glm::vec3& p) const noexcept;

  // CPolygon::polygon_hits_sphere 0x005387C0: whether the sphere (less
  // EPSILON) touches the polygon; `contact_pt` is its centre projected on
  // the plane.
  bool polygon_hits_sphere(const dat::Sphere& object, glm::vec3& contact_pt) const noexcept;
  // CPolygon::polygon_hits_sphere_slow_but_sure 0x00538A10: the same
  // answer, first trying whether the projected centre is inside every edge.
  bool polygon_hits_sphere_slow_but_sure(const dat::Sphere& object, glm::vec3& contact_pt) const noexcept;
  // CPolygon::pos_hits_sphere 0x005394F0: `struck` is set to this polygon
  // whenever the sphere touches it, but the hit counts only when the
  // movement goes into its front (movement . N < 0).
  bool pos_hits_sphere(const dat::Sphere& object, const glm::vec3& movement, glm::vec3& contact_pt,
                       const Polygon*& struck) const noexcept;
  // CPolygon::hits_sphere 0x00539540
  [[nodiscard]] bool hits_sphere(const dat::Sphere& object) const noexcept;
  // CPolygon::walkable_hits_sphere 0x00539560: a polygon facing `up` more
  // than the path's walkable allowance that the sphere touches.
  [[nodiscard]] bool walkable_hits_sphere(const SpherePath& path, const dat::Sphere& object,
                                          const glm::vec3& up) const noexcept;
  // CPolygon::check_walkable 0x00538E60: whether the sphere's centre,
  // dropped along `up` onto the plane, lies on the polygon or within the
  // radius of it.
  [[nodiscard]] bool check_walkable(const dat::Sphere& sphere, const glm::vec3& up) const noexcept;
  // CPolygon::check_small_walkable 0x005390B0: the same within half the radius.
  [[nodiscard]] bool check_small_walkable(const dat::Sphere& sphere, const glm::vec3& up) const noexcept;
  // CPolygon::find_crossed_edge 0x00539300: the inward normal (N x edge,
  // normalised) of the first edge the dropped centre lies outside of.
  bool find_crossed_edge(const dat::Sphere& sphere, const glm::vec3& up, glm::vec3& normal) const noexcept;
  // CPolygon::adjust_sphere_to_plane 0x00538210: moves the sphere back
  // along `movement` until it rests on the plane, shrinking the path's
  // walk_interp; false (nothing moved) when the movement is parallel or the
  // new interpolation would not be in [-0.5, walk_interp).
  bool adjust_sphere_to_plane(SpherePath& path, dat::Sphere& valid_pos, const glm::vec3& movement) const noexcept;
  // CPolygon::adjust_sphere_to_poly 0x00538170: the time along `movement`
  // from `curr_pos` at which the sphere touches the plane (1 when it already
  // does at curr, 0 when the movement is parallel).
  [[nodiscard]] double adjust_sphere_to_poly(const dat::Sphere& check_pos, const glm::vec3& curr_pos,
                                             const glm::vec3& movement) const noexcept;
  // CPolygon::adjust_to_placement_poly 0x00538CE0: pushes both spheres out
  // along N so the struck one sits `radius` from the plane.
  void adjust_to_placement_poly(dat::Sphere& struck_sphere, dat::Sphere& other_sphere, float radius, bool center_solid,
                                bool solid_check) const noexcept;
  // CPolygon::point_in_polygon 0x00538D90
  [[nodiscard]] bool point_in_polygon(const glm::vec3& point) const noexcept;
};

// Plane::set_height 0x0052F050: puts the point on the plane vertically,
// z = -(N.x x + N.y y + d) / N.z; false (point untouched) when |N.z| is at
// most EPSILON.
bool set_height(const dat::Plane& plane, glm::vec3& point) noexcept;

}  // namespace dereth::sim
