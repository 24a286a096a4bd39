#include "dereth/render/lighting.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace dereth::render {

// calc_point_light 0x0059C8B0
glm::vec3 calc_point_light(const glm::vec3& vertex, const glm::vec3& normal, const PointLight& light) noexcept {
  const glm::vec3 d = light.position - vertex;
  const float dist2 = glm::dot(d, d);
  const float dist = std::sqrt(dist2);
  const float range = light.falloff * kStaticLightFactor;
  if (!(dist < range)) return glm::vec3(0.0F);
  // ((0.75 + 0.75 - 1.0) * dist + n.d) * (1 / (0.75 + 0.75))
  const float w = (0.5F * dist + glm::dot(normal, d)) * (1.0F / 1.5F);
  if (!(w > 0.0F)) return glm::vec3(0.0F);
  const float k = (dist2 <= 1.0F ? w / dist : w / (dist2 * dist)) * ((1.0F - dist / range) * light.intensity);
  return {std::min(k * light.color.r, light.color.r), std::min(k * light.color.g, light.color.g),
          std::min(k * light.color.b, light.color.b)};
}

}  // namespace dereth::render
