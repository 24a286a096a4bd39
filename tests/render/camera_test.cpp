#include "dereth/render/camera.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/trigonometric.hpp>

using dereth::core::Frame;
using dereth::render::Camera;
using dereth::render::CameraMode;

namespace {

Frame facing(glm::vec3 origin, float heading_degrees) {
  Frame f;
  f.origin = origin;
  f.set_heading(heading_degrees);
  return f;
}

}  // namespace

TEST_CASE("Camera: follow_behind a northward frame sits south of the target at head height", "[render][camera]") {
  const Frame player = facing({100.0F, 200.0F, 10.0F}, 0.0F);
  const Camera cam = Camera::follow_behind(player, 10.0F, 0.0F);
  CHECK(cam.mode == CameraMode::Follow);
  CHECK(cam.target.x == Approx(100.0F));
  CHECK(cam.target.y == Approx(200.0F));
  CHECK(cam.target.z == Approx(10.0F + cam.target_height));
  const glm::vec3 eye = cam.eye();
  CHECK(eye.x == Approx(100.0F).margin(1e-3));
  CHECK(eye.y == Approx(190.0F).margin(1e-3));
  CHECK(eye.z == Approx(11.5F).margin(1e-3));
  const glm::vec3 f = cam.forward();
  CHECK(f.y == Approx(1.0F));
}

TEST_CASE("Camera: follow_behind an eastward frame looks east", "[render][camera]") {
  const Camera cam = Camera::follow_behind(facing({0, 0, 0}, 90.0F), 10.0F, 0.0F);
  CHECK(cam.forward().x == Approx(1.0F).margin(1e-5));
  CHECK(cam.forward().y == Approx(0.0F).margin(1e-5));
  CHECK(cam.eye().x == Approx(-10.0F).margin(1e-3));
}

TEST_CASE("Camera::project puts the target at the centre, east to the right, up towards the top", "[render][camera]") {
  const Camera cam = Camera::follow_behind(facing({100.0F, 200.0F, 10.0F}, 0.0F), 10.0F, 0.0F);
  constexpr int W = 640;
  constexpr int H = 480;
  const auto centre = cam.project(cam.target, W, H);
  REQUIRE(centre.has_value());
  CHECK(centre->x == Approx(320.0F).margin(1e-2));
  CHECK(centre->y == Approx(240.0F).margin(1e-2));
  const auto east = cam.project(cam.target + glm::vec3(1, 0, 0), W, H);
  REQUIRE(east.has_value());
  CHECK(east->x > 330.0F);
  CHECK(east->y == Approx(240.0F).margin(1e-2));
  const auto up = cam.project(cam.target + glm::vec3(0, 0, 1), W, H);
  REQUIRE(up.has_value());
  CHECK(up->y < 230.0F);
  // A point 1 m right at 10 m with a 60 degree vertical field of view:
  // x = 320 + (1 / (10 * tan 30)) * 240 (half height, aspect applied to x).
  const float expected = 320.0F + 240.0F / (10.0F * std::tan(glm::radians(30.0F)));
  CHECK(east->x == Approx(expected).margin(0.05));
  // Behind the eye: nothing.
  CHECK_FALSE(cam.project(cam.eye() - glm::vec3(0, 5, 0), W, H).has_value());
}

TEST_CASE("Camera: projection far from the world origin keeps precision", "[render][camera]") {
  // Landblock 0xFE near the edge of the world: x about 48900 m.
  const Camera cam = Camera::follow_behind(facing({48900.25F, 48800.5F, 60.0F}, 0.0F), 4.0F, 0.0F);
  const auto p = cam.project(cam.target + glm::vec3(0.01F, 0.0F, 0.0F), 1280, 720);
  REQUIRE(p.has_value());
  CHECK(p->x > 640.5F);  // a centimetre still moves the point by about a pixel
}

TEST_CASE("Camera: orbit turns and tilts with clamps, zoom scales the distance with clamps", "[render][camera]") {
  Camera cam;
  cam.yaw = 0.0F;
  cam.pitch = 0.0F;
  cam.distance = 10.0F;
  cam.orbit(100.0F, 0.0F);
  CHECK(cam.yaw == Approx(100.0F * Camera::kOrbitRadiansPerPixel));
  cam.orbit(-200.0F, 0.0F);  // wraps into [0, 2 pi)
  CHECK(cam.yaw == Approx(2.0F * 3.14159265F - 100.0F * Camera::kOrbitRadiansPerPixel).margin(1e-4));
  cam.orbit(0.0F, 10000.0F);
  CHECK(cam.pitch == Camera::kMaxPitch);
  cam.orbit(0.0F, -100000.0F);
  CHECK(cam.pitch == Camera::kMinPitch);
  cam.zoom(1.0F);
  CHECK(cam.distance == Approx(9.0F));
  cam.zoom(-2.0F);
  CHECK(cam.distance == Approx(9.0F / 0.81F));
  cam.zoom(1000.0F);
  CHECK(cam.distance == Camera::kMinDistance);
  cam.zoom(-1000.0F);
  CHECK(cam.distance == Camera::kMaxDistance);
}

TEST_CASE("Camera: a free camera looks at a point and moves along its heading", "[render][camera]") {
  Camera cam = Camera::look_at({0.0F, 0.0F, 10.0F}, {0.0F, 10.0F, 0.0F});
  CHECK(cam.mode == CameraMode::Free);
  CHECK(cam.yaw == Approx(0.0F).margin(1e-6));
  CHECK(cam.pitch == Approx(glm::radians(45.0F)));
  const auto p = cam.project({0.0F, 10.0F, 0.0F}, 100, 100);
  REQUIRE(p.has_value());
  CHECK(p->x == Approx(50.0F).margin(1e-2));
  CHECK(p->y == Approx(50.0F).margin(1e-2));
  cam.move(1.0F, 0.0F, 0.0F);  // forward along the horizontal heading (north)
  CHECK(cam.position.x == Approx(0.0F).margin(1e-6));
  CHECK(cam.position.y == Approx(1.0F));
  CHECK(cam.position.z == Approx(10.0F));
  cam.move(0.0F, 2.0F, 0.5F);  // right is east when looking north
  CHECK(cam.position.x == Approx(2.0F));
  CHECK(cam.position.z == Approx(10.5F));
  const glm::vec3 before = cam.position;
  cam.zoom(2.0F);  // free mode: two metres along the view
  CHECK(glm::length(cam.position - before) == Approx(2.0F));
}

TEST_CASE("Camera: the projection maps the near and far planes to clip depth -1 and 1", "[render][camera]") {
  Camera cam;
  cam.near_plane = 0.5F;
  cam.far_plane = 100.0F;
  const glm::mat4 p = cam.projection(1.0F);
  const glm::vec4 n = p * glm::vec4(0.0F, 0.0F, -0.5F, 1.0F);
  const glm::vec4 f = p * glm::vec4(0.0F, 0.0F, -100.0F, 1.0F);
  CHECK(n.z / n.w == Approx(-1.0F));
  CHECK(f.z / f.w == Approx(1.0F));
}

TEST_CASE("Frustum: planes of a view-projection keep what is inside and drop what is wholly outside",
          "[render][cull]") {
  const Camera cam = Camera::look_at(glm::vec3(0.0F, -10.0F, 0.0F), glm::vec3(0.0F));  // looking north along +y
  const glm::mat4 vp = cam.view_projection(100, 100);
  const dereth::render::Frustum f = dereth::render::Frustum::from_matrix(vp);
  for (const glm::vec4& p : f.planes) CHECK(glm::length(glm::vec3(p)) == Approx(1.0F));
  CHECK_FALSE(f.sphere_outside(glm::vec3(0.0F), 0.5F));                         // looked at
  CHECK(f.sphere_outside(glm::vec3(0.0F, -20.0F, 0.0F), 1.0F));                 // behind the eye
  CHECK_FALSE(f.sphere_outside(glm::vec3(0.0F, -20.0F, 0.0F), 10.5F));          // reaching past the eye
  CHECK(f.sphere_outside(glm::vec3(50.0F, 0.0F, 0.0F), 1.0F));                  // far to the right
  CHECK(f.sphere_outside(glm::vec3(0.0F, 0.0F, 50.0F), 1.0F));                  // far above
  CHECK(f.sphere_outside(glm::vec3(0.0F, cam.far_plane + 20.0F, 0.0F), 1.0F));  // beyond the far plane
  // A point just inside each side edge is kept; a sphere touching the view from outside is kept.
  const float edge = 10.0F * std::tan(glm::radians(cam.fov_y_degrees) * 0.5F);
  CHECK_FALSE(f.sphere_outside(glm::vec3(edge * 0.95F, 0.0F, 0.0F), 0.0F));
  CHECK(f.sphere_outside(glm::vec3(edge * 1.2F, 0.0F, 0.0F), 0.0F));
  CHECK_FALSE(f.sphere_outside(glm::vec3(edge * 1.2F, 0.0F, 0.0F), edge * 0.3F));
  CHECK_FALSE(f.box_outside(glm::vec3(-1.0F), glm::vec3(1.0F)));
  CHECK(f.box_outside(glm::vec3(-1.0F, -30.0F, -1.0F), glm::vec3(1.0F, -20.0F, 1.0F)));
  CHECK_FALSE(f.box_outside(glm::vec3(-1.0F, -30.0F, -1.0F), glm::vec3(1.0F, 5.0F, 1.0F)));  // spans the eye
  CHECK(f.box_outside(glm::vec3(40.0F, 0.0F, -1.0F), glm::vec3(60.0F, 5.0F, 1.0F)));
}

TEST_CASE("Camera: a follow camera's viewer (short of a wall) is its eye, looking the same way", "[render][camera]") {
  Camera cam = Camera::follow_behind(facing({100.0F, 200.0F, 10.0F}, 0.0F), 10.0F, 0.0F);
  const glm::vec3 wanted = cam.eye();
  cam.viewer = cam.target - cam.forward() * 2.0F;
  CHECK(cam.wanted_eye() == wanted);
  CHECK(cam.eye().y == Approx(198.0F).margin(1e-3));
  CHECK(cam.forward().y == Approx(1.0F));
  // The view matrix puts the target 2 m ahead of the eye.
  const glm::vec4 ahead = cam.view() * glm::vec4(cam.target, 1.0F);
  CHECK(ahead.z == Approx(-2.0F).margin(1e-3));
  // A free camera ignores it.
  cam.mode = CameraMode::Free;
  cam.position = {0.0F, 0.0F, 5.0F};
  CHECK(cam.eye() == glm::vec3(0.0F, 0.0F, 5.0F));
}
