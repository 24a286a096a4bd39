// The follow camera's rig: the demo's framing for the first view, and a
// fresh place behind the player after a teleport.
#include <cmath>

#include <catch2/catch.hpp>

#include "dereth/app/demo.hpp"
#include "dereth/app/presenters.hpp"

namespace {

using namespace dereth;

sim::RenderSnapshot with_player(glm::vec3 origin, float heading_degrees) {
  sim::RenderSnapshot s;
  sim::ObjectSnapshot o;
  o.is_player = true;
  o.root.origin = origin;
  o.root.set_heading(heading_degrees);
  s.objects.push_back(o);
  return s;
}

}  // namespace

TEST_CASE("CameraRig places the follow camera behind the player along its heading", "[app][camera]") {
  app::CameraRig rig;
  rig.update(with_player({10.0F, 20.0F, 5.0F}, 180.0F));  // facing south
  const auto& c = rig.camera();
  CHECK(c.mode == render::CameraMode::Follow);
  CHECK(std::abs(std::sin(c.yaw)) < 1e-4F);
  CHECK(std::cos(c.yaw) == Approx(-1.0F).margin(1e-4));
  CHECK(c.eye().y > 20.0F);  // behind: north of a player facing south
}

TEST_CASE("CameraRig's framing aims the first view, and a teleport puts the camera behind the player again",
          "[app][camera]") {
  app::CameraRig rig;
  app::CameraFraming framing;  // a framing for the first view only
  framing.toward = glm::vec3(-0.3F, -1.0F, 0.0F);
  framing.distance = 4.0F;
  framing.fov_y_degrees = 32.0F;
  framing.target_height = 2.2F;
  rig.set_framing(framing);
  // Facing east: the framing, not the player's heading, aims the first view.
  const glm::vec3 start{70.0F, 128.0F, 19.70833F};
  rig.update(with_player(start, 90.0F));
  const auto& c = rig.camera();
  CHECK(c.yaw == Approx(std::atan2(framing.toward.x, framing.toward.y)).margin(1e-5));
  CHECK(c.distance == Approx(framing.distance));
  CHECK(c.fov_y_degrees == Approx(framing.fov_y_degrees));
  CHECK(c.target.z == Approx(start.z + framing.target_height));
  CHECK(std::abs(std::remainder(c.yaw - 3.14159265F / 2.0F, 2.0F * 3.14159265F)) > 0.2F);

  // Walking a few metres keeps the framing's direction.
  rig.update(with_player(start + glm::vec3(0.0F, -3.0F, 0.0F), 90.0F));
  CHECK(rig.camera().yaw == Approx(std::atan2(framing.toward.x, framing.toward.y)).margin(1e-5));

  // A teleport (a jump of tens of metres): behind the player, along its heading.
  rig.update(with_player({114.0F, 117.0F, 14.0F}, 180.0F));
  CHECK(std::abs(std::sin(rig.camera().yaw)) < 1e-4F);
  CHECK(rig.camera().target.z == Approx(14.0F + 1.5F));
  CHECK(rig.camera().eye().y > 117.0F);
}

TEST_CASE("CameraRig with the demo's framing: along the player's heading, close and level, after teleports too",
          "[app][camera][demo]") {
  app::CameraRig rig;
  const app::CameraFraming framing = app::demo_camera_framing();
  REQUIRE(framing.after_teleport);
  rig.set_framing(framing);
  const glm::vec3 start{70.0F, 128.0F, 19.70833F};
  rig.update(with_player(start, 196.7F));
  CHECK(std::remainder(rig.camera().yaw - glm::radians(196.7F), 2.0F * 3.14159265F) == Approx(0.0F).margin(1e-4));
  CHECK(rig.camera().distance == Approx(framing.distance));
  CHECK(rig.camera().target.z == Approx(start.z + framing.target_height));
  // The recall's teleport: the framing again, along the new heading.
  rig.update(with_player({86.0F, 142.0F, 18.5F}, 217.4F));
  CHECK(std::remainder(rig.camera().yaw - glm::radians(217.4F), 2.0F * 3.14159265F) == Approx(0.0F).margin(1e-4));
  CHECK(rig.camera().distance == Approx(framing.distance));
  CHECK(rig.camera().fov_y_degrees == Approx(framing.fov_y_degrees));
  CHECK(rig.camera().target.z == Approx(18.5F + framing.target_height));
}
