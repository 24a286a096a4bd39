#pragma once
// Retail's point-light term, on the CPU (tests) and mirrored in the fragment
// shader (renderer.cpp).

#include <glm/vec3.hpp>

namespace dereth::render {

// static_light_factor (retail global, 1.3): a light reaches falloff * 1.3.
inline constexpr float kStaticLightFactor = 1.3F;

struct PointLight {
  glm::vec3 position{0.0F};
  glm::vec3 color{1.0F};  // 0..1
  float intensity = 0.0F;
  float falloff = 0.0F;
};

// calc_point_light 0x0059C8B0: the light's contribution at a vertex.
//   d = light - vertex, dist = |d|, range = falloff * 1.3; nothing unless dist < range.
//   w = (0.5 * dist + normal . d) / 1.5; nothing unless w > 0.
//   k = (dist^2 <= 1 ? w / dist : w / (dist^2 * dist)) * (1 - dist / range) * intensity
//   each channel: min(k * color, color).
[[nodiscard]] glm::vec3 calc_point_light(const glm::vec3& vertex, const glm::vec3& normal,
                                         const PointLight& light) noexcept;

}  // namespace dereth::render
