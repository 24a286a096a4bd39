#pragma once
// Plane: a normal and a distance (the contact plane), and retail's comparison.

#include <glm/vec3.hpp>

namespace dereth::sim {

// Plane: a normal and a distance (the contact plane).
struct Plane {
  glm::vec3 normal{0.0f, 0.0f, 0.0f};
  float d = 0.0f;
};

// Plane::operator== 0x006B3DD0: normal components within 0.00019999999
// inclusive, the distance strictly within.
[[nodiscard]] bool plane_equal(const Plane& a, const Plane& b) noexcept;

}  // namespace dereth::sim
