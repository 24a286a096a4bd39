#include "dereth/sim/polygon.hpp"

#include <cmath>
#include <limits>

#include "dereth/sim/types.hpp"

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

}  // namespace dereth::sim
