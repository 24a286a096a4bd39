#pragma once
// The camera: pure math, no GL, testable anywhere. A Follow camera orbits a
// target (its eye the app's viewer where a wall stands between), a Free one
// flies. Axes, angles, the two modes and the origin-relative matrices:
// docs/render.md "The camera".

#include <array>
#include <optional>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "dereth/core/frame.hpp"

namespace dereth::render {

enum class CameraMode : unsigned char { Follow, Free };

class Camera {
 public:
  // Follow-mode limits.
  static constexpr float kMinDistance = 1.0F;
  static constexpr float kMaxDistance = 80.0F;
  static constexpr float kMinPitch = -1.2F;  // about 69 degrees looking up
  static constexpr float kMaxPitch = 1.5F;   // about 86 degrees looking down
  static constexpr float kOrbitRadiansPerPixel = 0.005F;
  static constexpr float kZoomPerWheelStep = 0.9F;  // distance multiplier per wheel step forward

  CameraMode mode = CameraMode::Follow;
  glm::vec3 target{0.0F};      // Follow: the point orbited
  glm::vec3 position{0.0F};    // Free: the eye
  float yaw = 0.0F;            // compass radians the camera looks along
  float pitch = 0.3F;          // radians below the horizon
  float distance = 8.0F;       // Follow: eye-to-target distance
  float target_height = 1.5F;  // Follow: metres above the followed frame's origin
  float fov_y_degrees = 60.0F;
  float near_plane = 0.1F;
  float far_plane = 1500.0F;
  // Follow: where the eye stands instead of wanted_eye() (retail's
  // SmartBox::viewer, short of a wall). The camera rig sets it afresh each
  // time it tracks; none: the wanted point.
  std::optional<glm::vec3> viewer;

  // A follow camera behind `frame` (looking along its heading) at `distance`.
  [[nodiscard]] static Camera follow_behind(const core::Frame& frame, float distance = 8.0F, float pitch = 0.3F);
  // A free camera at `eye` looking at `at`.
  [[nodiscard]] static Camera look_at(const glm::vec3& eye, const glm::vec3& at);

  // Follow mode: the target becomes frame.origin + (0, 0, target_height).
  void track(const core::Frame& frame) noexcept;
  // Mouse motion in pixels: right turns the view right (yaw grows), down
  // looks further down (pitch grows). Pitch is clamped.
  void orbit(float dx_pixels, float dy_pixels) noexcept;
  // Wheel steps: positive zooms in. Follow: distance is clamped; Free: moves
  // the eye along the view direction by one metre per step.
  void zoom(float wheel_steps) noexcept;
  // Free mode: moves the eye (metres) along the horizontal forward, right and
  // world up. Follow mode: moves the target the same way.
  void move(float forward, float right, float up) noexcept;

  // The unit direction the camera looks along.
  [[nodiscard]] glm::vec3 forward() const noexcept;
  [[nodiscard]] glm::vec3 eye() const noexcept;
  // Follow: `distance` back from the target along the view (the eye when
  // nothing is in the way); Free: the eye.
  [[nodiscard]] glm::vec3 wanted_eye() const noexcept;
  // The point looked at: the target (Follow) or eye + forward (Free).
  [[nodiscard]] glm::vec3 center() const noexcept;

  // View matrix with world positions taken relative to `origin`.
  [[nodiscard]] glm::mat4 view(const glm::vec3& origin = glm::vec3(0.0F)) const noexcept;
  [[nodiscard]] glm::mat4 projection(float aspect) const noexcept;
  [[nodiscard]] glm::mat4 view_projection(int width, int height,
                                          const glm::vec3& origin = glm::vec3(0.0F)) const noexcept;

  // Where a world point lands in a width x height image: pixel coordinates,
  // x right and y down from the top-left corner (pixel centres at +0.5).
  // Nothing when the point is behind the eye or outside the depth range.
  [[nodiscard]] std::optional<glm::vec2> project(const glm::vec3& world, int width, int height) const noexcept;
};

// The six planes of a view-projection matrix's clip volume (left, right,
// bottom, top, near, far), each normalised with its normal pointing in, in
// the space the matrix takes points from. The renderer culls what lies
// wholly outside (docs/render.md "Frustum culling"). Conservative: a sphere
// or box near a corner may be kept though it is outside; nothing inside is
// ever dropped.
struct Frustum {
  std::array<glm::vec4, 6> planes{};

  [[nodiscard]] static Frustum from_matrix(const glm::mat4& view_projection) noexcept;
  // True when the sphere lies wholly outside one plane.
  [[nodiscard]] bool sphere_outside(const glm::vec3& center, float radius) const noexcept;
  // True when the axis-aligned box lies wholly outside one plane.
  [[nodiscard]] bool box_outside(const glm::vec3& lo, const glm::vec3& hi) const noexcept;
};

}  // namespace dereth::render
