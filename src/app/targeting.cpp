#include "dereth/app/targeting.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/vec4.hpp>

#include "dereth/render/camera.hpp"

namespace dereth::app {

std::optional<std::uint32_t> pick_object(const PickRay& ray, std::span<const PickSphere> spheres) noexcept {
  std::optional<std::uint32_t> best;
  float best_t = 0.0F;
  for (const auto& s : spheres) {
    if (!(s.radius > 0.0F) || !std::isfinite(s.radius) || !std::isfinite(s.centre.x) || !std::isfinite(s.centre.y) ||
        !std::isfinite(s.centre.z)) {
      continue;
    }
    // |o + t d - c|^2 = r^2 with |d| = 1: t^2 + 2 b t + cc = 0.
    const glm::vec3 oc = ray.origin - s.centre;
    const float b = glm::dot(oc, ray.direction);
    const float cc = glm::dot(oc, oc) - s.radius * s.radius;
    float t = 0.0F;
    if (cc > 0.0F) {  // outside: it must lie ahead and be met
      const float disc = b * b - cc;
      if (b > 0.0F || disc < 0.0F) continue;
      t = -b - std::sqrt(disc);
    }
    if (!best || t < best_t) {
      best = s.guid;
      best_t = t;
    }
  }
  return best;
}

PickRay camera_ray(const render::Camera& camera, float x, float y, int width, int height) noexcept {
  const int w = std::max(width, 1);
  const int h = std::max(height, 1);
  const glm::vec3 origin = camera.eye();
  // Relative to the eye, for precision far from the world origin.
  const glm::mat4 inv = glm::inverse(camera.view_projection(w, h, origin));
  const float nx = 2.0F * x / static_cast<float>(w) - 1.0F;
  const float ny = 1.0F - 2.0F * y / static_cast<float>(h);
  glm::vec4 far = inv * glm::vec4(nx, ny, 1.0F, 1.0F);
  glm::vec4 near = inv * glm::vec4(nx, ny, -1.0F, 1.0F);
  far /= far.w;
  near /= near.w;
  glm::vec3 d = glm::vec3(far) - glm::vec3(near);
  const float len = glm::length(d);
  PickRay ray;
  ray.origin = origin + glm::vec3(near);
  ray.direction = len > 0.0F ? d / len : camera.forward();
  return ray;
}

std::optional<std::uint32_t> cycle_target(std::span<const TargetCandidate> candidates, glm::vec3 from,
                                          std::uint32_t current, int step) {
  if (candidates.empty()) return std::nullopt;
  struct Ranked {
    float distance;
    std::uint32_t guid;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(candidates.size());
  for (const auto& c : candidates) {
    const glm::vec3 d = c.position - from;
    ranked.push_back({glm::dot(d, d), c.guid});
  }
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.guid < b.guid;
  });
  if (step == 0) return ranked.front().guid;
  const auto at = std::find_if(ranked.begin(), ranked.end(), [&](const Ranked& r) { return r.guid == current; });
  if (current == 0 || at == ranked.end()) return step > 0 ? ranked.front().guid : ranked.back().guid;
  const auto n = static_cast<std::ptrdiff_t>(ranked.size());
  const std::ptrdiff_t i = ((at - ranked.begin()) + (step > 0 ? 1 : -1) + n) % n;
  return ranked[static_cast<std::size_t>(i)].guid;
}

}  // namespace dereth::app
