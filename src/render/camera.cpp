#include "dereth/render/camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec4.hpp>

namespace dereth::render {

namespace {

constexpr glm::vec3 kWorldUp{0.0F, 0.0F, 1.0F};

}  // namespace

Camera Camera::follow_behind(const core::Frame& frame, float distance, float pitch) {
  Camera c;
  c.mode = CameraMode::Follow;
  c.yaw = glm::radians(frame.get_heading());
  c.pitch = std::clamp(pitch, kMinPitch, kMaxPitch);
  c.distance = std::clamp(distance, kMinDistance, kMaxDistance);
  c.track(frame);
  return c;
}

Camera Camera::look_at(const glm::vec3& eye, const glm::vec3& at) {
  Camera c;
  c.mode = CameraMode::Free;
  c.position = eye;
  const glm::vec3 d = at - eye;
  const float horizontal = std::sqrt(d.x * d.x + d.y * d.y);
  if (horizontal > 1e-6F || std::abs(d.z) > 1e-6F) {
    c.yaw = horizontal > 1e-6F ? std::atan2(d.x, d.y) : 0.0F;
    c.pitch = std::clamp(std::atan2(-d.z, horizontal), kMinPitch, kMaxPitch);
  }
  c.target = at;
  return c;
}

void Camera::track(const core::Frame& frame) noexcept {
  target = frame.origin + glm::vec3(0.0F, 0.0F, target_height);
}

void Camera::orbit(float dx_pixels, float dy_pixels) noexcept {
  yaw += dx_pixels * kOrbitRadiansPerPixel;
  constexpr float kTwoPi = 6.28318530717958647692F;
  yaw = std::fmod(yaw, kTwoPi);
  if (yaw < 0.0F) yaw += kTwoPi;
  pitch = std::clamp(pitch + dy_pixels * kOrbitRadiansPerPixel, kMinPitch, kMaxPitch);
}

void Camera::zoom(float wheel_steps) noexcept {
  if (mode == CameraMode::Follow) {
    distance = std::clamp(distance * std::pow(kZoomPerWheelStep, wheel_steps), kMinDistance, kMaxDistance);
  } else {
    position += forward() * wheel_steps;
  }
}

void Camera::move(float forward_m, float right_m, float up_m) noexcept {
  const glm::vec3 ahead{std::sin(yaw), std::cos(yaw), 0.0F};
  const glm::vec3 right{std::cos(yaw), -std::sin(yaw), 0.0F};
  const glm::vec3 delta = ahead * forward_m + right * right_m + kWorldUp * up_m;
  if (mode == CameraMode::Free) {
    position += delta;
  } else {
    target += delta;
  }
}

glm::vec3 Camera::forward() const noexcept {
  const float cp = std::cos(pitch);
  return {std::sin(yaw) * cp, std::cos(yaw) * cp, -std::sin(pitch)};
}

glm::vec3 Camera::eye() const noexcept {
  if (mode == CameraMode::Follow && viewer) return *viewer;
  return wanted_eye();
}

glm::vec3 Camera::wanted_eye() const noexcept {
  return mode == CameraMode::Follow ? target - forward() * distance : position;
}

glm::vec3 Camera::center() const noexcept {
  return mode == CameraMode::Follow ? target : position + forward();
}

glm::mat4 Camera::view(const glm::vec3& origin) const noexcept {
  const glm::vec3 e = eye() - origin;
  return glm::lookAt(e, e + forward(), kWorldUp);
}

glm::mat4 Camera::projection(float aspect) const noexcept {
  const float a = aspect > 0.0F && std::isfinite(aspect) ? aspect : 1.0F;
  return glm::perspective(glm::radians(fov_y_degrees), a, near_plane, far_plane);
}

glm::mat4 Camera::view_projection(int width, int height, const glm::vec3& origin) const noexcept {
  const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0F;
  return projection(aspect) * view(origin);
}

std::optional<glm::vec2> Camera::project(const glm::vec3& world, int width, int height) const noexcept {
  const glm::vec3 origin = center();
  const glm::vec4 clip = view_projection(width, height, origin) * glm::vec4(world - origin, 1.0F);
  if (clip.w <= 0.0F) return std::nullopt;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  if (ndc.z < -1.0F || ndc.z > 1.0F) return std::nullopt;
  return glm::vec2((ndc.x * 0.5F + 0.5F) * static_cast<float>(width),
                   (0.5F - ndc.y * 0.5F) * static_cast<float>(height));
}

Frustum Frustum::from_matrix(const glm::mat4& m) noexcept {
  // Gribb and Hartmann: each plane is the fourth row of the matrix plus or minus another.
  const auto row = [&m](int r) { return glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]); };
  const glm::vec4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  Frustum f;
  f.planes = {r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2, r3 - r2};
  for (glm::vec4& p : f.planes) {
    const float length = glm::length(glm::vec3(p));
    if (length > 0.0F && std::isfinite(length)) p /= length;
  }
  return f;
}

bool Frustum::sphere_outside(const glm::vec3& center, float radius) const noexcept {
  for (const glm::vec4& p : planes) {
    if (glm::dot(glm::vec3(p), center) + p.w < -radius) return true;
  }
  return false;
}

bool Frustum::box_outside(const glm::vec3& lo, const glm::vec3& hi) const noexcept {
  for (const glm::vec4& p : planes) {
    const glm::vec3 far_corner(p.x > 0.0F ? hi.x : lo.x, p.y > 0.0F ? hi.y : lo.y, p.z > 0.0F ? hi.z : lo.z);
    if (glm::dot(glm::vec3(p), far_corner) + p.w < 0.0F) return true;
  }
  return false;
}

}  // namespace dereth::render
