#include "dereth/sim/collision/polygon.hpp"

#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

// CPolygon::make_plane 0x005383D0
dat::Plane make_plane(std::span<const glm::vec3> vertices) noexcept {
  const std::size_t n = vertices.size();
  if (n < 3) {
    // Retail: 1/sqrt(0) times 0 and a mean over no (or too few) vertices.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    return dat::Plane{glm::vec3(nan), nan};
  }
  const glm::vec3& v0 = vertices[0];
  double sum_x = 0.0;
  double sum_y = 0.0;
  float sum_z = 0.0f;  // kept in a float local by the binary
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const glm::vec3& vi = vertices[i];
    const glm::vec3& vn = vertices[i + 1];
    // v[i] - v[0]: x and y spilled to floats, z kept on the FPU stack.
    const auto ax = static_cast<float>(static_cast<double>(vi.x) - v0.x);
    const auto ay = static_cast<float>(static_cast<double>(vi.y) - v0.y);
    const double az = static_cast<double>(vi.z) - v0.z;
    // v[i+1] - v[0] on the FPU stack.
    const double bx = static_cast<double>(vn.x) - v0.x;
    const double by = static_cast<double>(vn.y) - v0.y;
    const double bz = static_cast<double>(vn.z) - v0.z;
    const auto cx = static_cast<float>(ay * bz - az * by);
    const auto cy = static_cast<float>(az * bx - bz * ax);
    sum_x += cx;
    sum_y += cy;
    sum_z = static_cast<float>(by * ax - ay * bx + sum_z);
  }
  const double inv = 1.0 / std::sqrt(static_cast<double>(sum_z) * sum_z + sum_y * sum_y + sum_x * sum_x);
  const auto inv_f = static_cast<float>(inv);
  dat::Plane plane;
  plane.normal.x = static_cast<float>(inv * sum_x);
  plane.normal.y = static_cast<float>(static_cast<double>(inv_f) * sum_y);
  plane.normal.z = static_cast<float>(static_cast<double>(inv_f) * sum_z);
  double dot_sum = 0.0;
  for (const glm::vec3& v : vertices) {
    dot_sum = dot_sum + static_cast<double>(plane.normal.z) * v.z + static_cast<double>(plane.normal.y) * v.y +
              static_cast<double>(plane.normal.x) * v.x;
  }
  plane.d = static_cast<float>(-(dot_sum / static_cast<double>(n)));
  return plane;
}

// CPolygon::point_in_poly2D 0x00538060
bool point_in_poly2d(std::span<const glm::vec3> vertices, const glm::vec3& point, Sidedness side) noexcept {
  if (vertices.empty()) return true;  // retail's loop does not run
  const glm::vec3* next = &vertices[0];
  for (std::size_t i = vertices.size(); i-- > 0;) {
    const glm::vec3& a = vertices[i];
    const double dy = static_cast<double>(next->y) - a.y;
    const double dx = static_cast<double>(a.x) - next->x;
    const double value = -(dy * a.x) - dx * a.y + dx * point.y + dy * point.x;
    if (side != Sidedness::Positive) {
      if (value < 0.0) return false;
    } else if (value > 0.0) {
      return false;
    }
    next = &a;
  }
  return true;
}

// Plane::set_height 0x0052F050
bool set_height(const dat::Plane& plane, glm::vec3& point) noexcept {
  if (std::fabs(static_cast<double>(plane.normal.z)) <= static_cast<double>(kPhysicsEpsilon)) return false;
  const double num = static_cast<double>(point.y) * plane.normal.y + static_cast<double>(point.x) * plane.normal.x +
                     static_cast<double>(plane.d);
  point.z = static_cast<float>(-(num / static_cast<double>(plane.normal.z)));
  return true;
}

// ---- CPolygon (collision) ---------------------------------------------------------

namespace {

constexpr float kEps = kPhysicsEpsilon;

// One edge of the walk: edge = v - prev, disp = p - prev and the signed
// distance-like value disp . (N x edge) (>= 0: inside this edge).
struct EdgeTest {
  glm::vec3 edge;
  glm::vec3 disp;
  glm::vec3 inward;  // N x edge
  float side;
};

EdgeTest edge_test(const glm::vec3& prev, const glm::vec3& v, const glm::vec3& p, const glm::vec3& n) noexcept {
  EdgeTest e;
  e.edge = v - prev;
  e.disp = p - prev;
  e.inward = glm::cross(n, e.edge);
  e.side = glm::dot(e.disp, e.inward);
  return e;
}

// The compare the decompilation lost after an outside edge: the contact
// circle (radius^2 `r2`) does not reach the edge's line. NaN misses.
bool beyond_edge(const EdgeTest& e, float r2) noexcept {
  return !(glm::dot(e.inward, e.inward) * r2 >= e.side * e.side);
}

// Whether a segment of the edge, or its start vertex, lies within the
// circle: the common tail of the edge walks (true: hit).
bool within_edge(const EdgeTest& e) noexcept {
  const float along = glm::dot(e.disp, e.edge);
  return along >= 0.0f && along <= glm::dot(e.edge, e.edge);
}

// The walk CPolygon::polygon_hits_sphere and check_walkable share: a point
// on the plane against a circle of radius^2 `r2`.
bool circle_hits_polygon(const Polygon& poly, const glm::vec3& p, float r2) noexcept {
  bool hit = true;
  const std::size_t n = poly.vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const EdgeTest e = edge_test(poly.vertices[i == 0 ? n - 1 : i - 1], poly.vertices[i], p, poly.plane.normal);
    if (!(e.side >= 0.0f)) {
      if (beyond_edge(e, r2)) return false;
      if (within_edge(e)) return true;
      hit = false;
    }
    if (glm::dot(e.disp, e.disp) <= r2) return true;
  }
  return hit;
}

}  // namespace

Polygon Polygon::from_vertices(std::vector<glm::vec3> vertices) {
  Polygon p;
  p.plane = make_plane(vertices);
  p.vertices = std::move(vertices);
  return p;
}

float Polygon::dist(const glm::vec3& p) const noexcept {
  return glm::dot(plane.normal, p) + plane.d;
}

// CPolygon::polygon_hits_sphere 0x005387C0
bool Polygon::polygon_hits_sphere(const dat::Sphere& object, glm::vec3& contact_pt) const noexcept {
  const float d = dist(object.center);
  const float rad = object.radius - kEps;
  if (rad < std::fabs(d)) return false;
  contact_pt = object.center - plane.normal * d;
  return circle_hits_polygon(*this, contact_pt, rad * rad - d * d);
}

// CPolygon::polygon_hits_sphere_slow_but_sure 0x00538A10
bool Polygon::polygon_hits_sphere_slow_but_sure(const dat::Sphere& object, glm::vec3& contact_pt) const noexcept {
  const float d = dist(object.center);
  const float rad = object.radius - kEps;
  if (!(rad >= std::fabs(d))) return false;
  const float r2 = rad * rad - d * d;
  contact_pt = object.center - plane.normal * d;
  if (point_in_polygon(contact_pt)) return true;
  const std::size_t n = vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const EdgeTest e = edge_test(vertices[i == 0 ? n - 1 : i - 1], vertices[i], contact_pt, plane.normal);
    if (e.side < 0.0f) {
      if (beyond_edge(e, r2)) return false;
      if (within_edge(e)) return true;
    }
    if (glm::dot(e.disp, e.disp) <= r2) return true;
  }
  return false;
}

// CPolygon::pos_hits_sphere 0x005394F0
bool Polygon::pos_hits_sphere(const dat::Sphere& object, const glm::vec3& movement, glm::vec3& contact_pt,
                              const Polygon*& struck) const noexcept {
  const bool hit = polygon_hits_sphere_slow_but_sure(object, contact_pt);
  if (hit) struck = this;
  if (glm::dot(plane.normal, movement) >= 0.0f) return false;
  return hit;
}

// CPolygon::hits_sphere 0x00539540
bool Polygon::hits_sphere(const dat::Sphere& object) const noexcept {
  glm::vec3 contact{0.0f};
  return polygon_hits_sphere_slow_but_sure(object, contact);
}

// CPolygon::walkable_hits_sphere 0x00539560 (the binary then runs both hit
// tests once more when they disagree, and discards the answers)
bool Polygon::walkable_hits_sphere(const SpherePath& path, const dat::Sphere& object,
                                   const glm::vec3& up) const noexcept {
  if (!(glm::dot(plane.normal, up) > path.walkable_allowance)) return false;
  glm::vec3 contact{0.0f};
  return polygon_hits_sphere_slow_but_sure(object, contact);
}

namespace {

// CPolygon::check_walkable and check_small_walkable: the centre dropped
// along `up` onto the plane, against a circle of radius^2 `r2`.
bool check_walkable_within(const Polygon& poly, const dat::Sphere& sphere, const glm::vec3& up, float r2) noexcept {
  const float angle = glm::dot(poly.plane.normal, up);
  if (std::fabs(angle) < kEps) return false;
  const glm::vec3 center = sphere.center - up * (poly.dist(sphere.center) / angle);
  return circle_hits_polygon(poly, center, r2);
}

}  // namespace

// CPolygon::check_walkable 0x00538E60
bool Polygon::check_walkable(const dat::Sphere& sphere, const glm::vec3& up) const noexcept {
  return check_walkable_within(*this, sphere, up, sphere.radius * sphere.radius);
}

// CPolygon::check_small_walkable 0x005390B0
bool Polygon::check_small_walkable(const dat::Sphere& sphere, const glm::vec3& up) const noexcept {
  return check_walkable_within(*this, sphere, up, sphere.radius * sphere.radius * 0.25f);
}

// CPolygon::find_crossed_edge 0x00539300
bool Polygon::find_crossed_edge(const dat::Sphere& sphere, const glm::vec3& up, glm::vec3& normal) const noexcept {
  const float angle = glm::dot(plane.normal, up);
  if (!(std::fabs(angle) >= kEps)) return false;
  const glm::vec3 center = sphere.center - up * (dist(sphere.center) / angle);
  const std::size_t n = vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const EdgeTest e = edge_test(vertices[i == 0 ? n - 1 : i - 1], vertices[i], center, plane.normal);
    if (!(e.side >= 0.0f)) {
      normal = e.inward * (1.0f / glm::length(e.inward));
      return true;
    }
  }
  return false;
}

// CPolygon::adjust_sphere_to_plane 0x00538210
bool Polygon::adjust_sphere_to_plane(SpherePath& path, dat::Sphere& valid_pos,
                                     const glm::vec3& movement) const noexcept {
  const float d = dist(valid_pos.center);
  const float dp_move = glm::dot(plane.normal, movement);
  float gap = 0.0f;
  if (dp_move <= kEps) {
    if (dp_move >= -kEps) return false;
    gap = d - valid_pos.radius;
  } else {
    gap = -valid_pos.radius - d;
  }
  // The time and the new interpolation stay doubles on the FPU; the lower
  // bound is compared after the store to a float, as the binary does.
  const double time = static_cast<double>(gap) / dp_move;
  const double interp = (1.0 - time) * path.walk_interp;
  const auto interp_f = static_cast<float>(interp);
  if (interp >= path.walk_interp || interp_f < -0.5f) return false;
  valid_pos.center.x = static_cast<float>(valid_pos.center.x - time * movement.x);
  valid_pos.center.y -= static_cast<float>(time * movement.y);
  valid_pos.center.z -= static_cast<float>(time * movement.z);
  path.walk_interp = interp_f;
  return true;
}

// CPolygon::adjust_sphere_to_poly 0x00538170
double Polygon::adjust_sphere_to_poly(const dat::Sphere& check_pos, const glm::vec3& curr_pos,
                                      const glm::vec3& movement) const noexcept {
  const float curr_dist = dist(curr_pos);
  if (!(check_pos.radius <= std::fabs(curr_dist))) return 1.0;
  const double dp_move = glm::dot(plane.normal, movement);
  if (!(std::fabs(dp_move) >= static_cast<double>(kEps))) return 0.0;
  // The side compare is lost in the decompilation: the target is the
  // radius on the side the current centre is on.
  double target = check_pos.radius;
  if (curr_dist <= 0.0f) target = -target;
  return (target - curr_dist) / dp_move;
}

// CPolygon::adjust_to_placement_poly 0x00538CE0
void Polygon::adjust_to_placement_poly(dat::Sphere& struck_sphere, dat::Sphere& other_sphere, float radius,
                                       bool center_solid, bool solid_check) const noexcept {
  const float d = dist(struck_sphere.center);
  float push = 0.0f;
  if (solid_check) {
    float target = radius;
    if (center_solid) target = -target;
    if (d <= 0.0f) target = -target;
    push = target - d;
  } else {
    push = radius - d;
  }
  const glm::vec3 offset = plane.normal * push;
  struck_sphere.center += offset;
  other_sphere.center += offset;
}

// CPolygon::point_in_polygon 0x00538D90
bool Polygon::point_in_polygon(const glm::vec3& point) const noexcept {
  const std::size_t n = vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (edge_test(vertices[i == 0 ? n - 1 : i - 1], vertices[i], point, plane.normal).side < 0.0f) return false;
  }
  return true;
}

}  // namespace dereth::sim
