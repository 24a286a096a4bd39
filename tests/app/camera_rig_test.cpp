// The follow camera's rig: the demo's framing for the first view, and a
// fresh place behind the player after a teleport.
#include <catch2/catch.hpp>

#include <cmath>

#include "dereth/app/demo.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"

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

TEST_CASE("CameraRig asks where the follow camera may stand (SmartBox::update_viewer 0x00453CE0) and stands there",
          "[app][camera][retail]") {
  // A wall 2 m behind the pivot (the viewer stops 0.3 m short of it), open
  // ground (the wanted point), or nothing to ask (no player in the world).
  struct Placer final : app::ViewerPlacer {
    enum class Answer { Wall, Open, Nothing } answer = Answer::Wall;
    glm::vec3 asked_pivot{0.0F};
    glm::vec3 asked_wanted{0.0F};
    int asked = 0;
    std::optional<glm::vec3> place_viewer(const glm::vec3& pivot, const glm::vec3& wanted) override {
      asked_pivot = pivot;
      asked_wanted = wanted;
      ++asked;
      if (answer == Answer::Wall) return pivot + glm::normalize(wanted - pivot) * 1.7F;
      if (answer == Answer::Open) return wanted;
      return std::nullopt;
    }
  };
  app::CameraRig rig;
  Placer placer;
  rig.update(with_player({10.0F, 20.0F, 5.0F}, 180.0F), &placer);  // facing south: the camera north of it
  REQUIRE(placer.asked == 1);
  const auto& c = rig.camera();
  CHECK(placer.asked_pivot == c.target);
  CHECK(glm::length(placer.asked_wanted - c.target) == Approx(c.distance));
  REQUIRE(c.viewer.has_value());
  CHECK(glm::length(c.eye() - c.target) == Approx(1.7F));
  CHECK(c.eye().y > 20.0F);
  CHECK(glm::length(c.wanted_eye() - c.target) == Approx(c.distance));

  // Each update asks afresh: the player walks out of the wall's way.
  placer.answer = Placer::Answer::Open;
  rig.update(with_player({10.0F, 18.0F, 5.0F}, 180.0F), &placer);
  CHECK(placer.asked == 2);
  CHECK(glm::length(rig.camera().eye() - rig.camera().target) == Approx(rig.camera().distance));

  // Nothing to ask (no player in the world yet): the wanted point.
  placer.answer = Placer::Answer::Nothing;
  rig.update(with_player({10.0F, 18.0F, 5.0F}, 180.0F), &placer);
  CHECK(placer.asked == 3);
  CHECK_FALSE(rig.camera().viewer.has_value());
  CHECK(rig.camera().eye() == rig.camera().wanted_eye());

  // The free camera flies where it is told; the viewer is the follow camera's.
  placer.answer = Placer::Answer::Wall;
  rig.camera().mode = render::CameraMode::Free;
  rig.camera().position = {0.0F, 0.0F, 50.0F};
  rig.update(with_player({10.0F, 18.0F, 5.0F}, 180.0F), &placer);
  CHECK(placer.asked == 3);
  CHECK(rig.camera().eye() == glm::vec3(0.0F, 0.0F, 50.0F));
}

TEST_CASE("A frame loop lends its presenter its world as the viewer placer, and takes it back when it ends",
          "[app][camera]") {
  struct NoInbox final : net::MessageInbox {
    std::vector<net::SessionMessage> drain(double /*now*/) override { return {}; }
    [[nodiscard]] bool finished() const override { return false; }
  };
  struct Blank final : app::Presenter {
    core::Result<void> present(const sim::RenderSnapshot& /*s*/, const app::FrameInfo& /*i*/) override { return {}; }
    core::Result<void> screenshot(const std::filesystem::path& /*p*/) override { return {}; }
  };
  core::ManualClock clock;
  app::World world(clock, nullptr);
  NoInbox inbox;
  Blank presenter;
  {
    app::FrameLoop loop(world, inbox, &clock, &presenter, nullptr, app::LoopOptions{});
    REQUIRE(presenter.viewer_placer == &world);
    // No player in the world yet: nothing to ask, the camera keeps its wanted point.
    CHECK_FALSE(presenter.viewer_placer->place_viewer(glm::vec3(0.0F), glm::vec3(0.0F, -4.0F, 0.0F)).has_value());
  }
  CHECK(presenter.viewer_placer == nullptr);  // the world may be gone: the presenter must not ask it
}
