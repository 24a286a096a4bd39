#pragma once
// Target selection for the window (docs/controls.md): a click picks the
// object whose bounding sphere the pointer's ray meets first; Tab (and
// retail's selection keys) step through the creatures by distance. Pure
// math over global metres (the render snapshot's coordinates), testable
// without a window.

#include <cstdint>
#include <optional>
#include <span>

#include <glm/vec3.hpp>

namespace dereth::render {
class Camera;
}

namespace dereth::app {

struct PickRay {
  glm::vec3 origin{0.0F};
  glm::vec3 direction{0.0F, 1.0F, 0.0F};  // unit length
};

// An object's bounding sphere in global metres.
struct PickSphere {
  std::uint32_t guid = 0;
  glm::vec3 centre{0.0F};
  float radius = 0.0F;
};

// The object whose sphere the ray meets nearest its origin (a ray starting
// inside a sphere meets it at distance 0); ties keep the first given.
// Spheres behind the origin, with a radius not above 0 or not finite, miss.
[[nodiscard]] std::optional<std::uint32_t> pick_object(const PickRay& ray,
                                                       std::span<const PickSphere> spheres) noexcept;

// The ray from the camera's eye through pixel (x, y) of a width x height
// view (x right, y down from the top-left corner).
[[nodiscard]] PickRay camera_ray(const render::Camera& camera, float x, float y, int width, int height) noexcept;

// A selectable creature and where it stands.
struct TargetCandidate {
  std::uint32_t guid = 0;
  glm::vec3 position{0.0F};
};

// Steps through the candidates ordered by distance from `from` (nearest
// first; equal distances by guid): `step` +1 gives the one after `current`,
// -1 the one before, wrapping; with `current` 0 or not among them, the
// nearest (+1) or the farthest (-1). Step 0 gives the nearest. None when
// there are no candidates.
[[nodiscard]] std::optional<std::uint32_t> cycle_target(std::span<const TargetCandidate> candidates, glm::vec3 from,
                                                        std::uint32_t current, int step);

}  // namespace dereth::app
