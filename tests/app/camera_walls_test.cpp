// The follow camera keeps out of walls (issue 30): the demo's old walk (kept
// as a test scenario since the demo's walk turned toward the NPCs) runs the
// player through the demo house's room, where the camera's wanted point,
// 4 m behind, lies beyond the room's wall. Retail's viewer sphere
// (SmartBox::update_viewer 0x00453CE0) stops inside the room, so the picture
// shows the room and the player, not the back of one wall texture.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "dereth/app/demo.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/image.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/viewer.hpp"

#include "demo_support.hpp"

using namespace dereth;

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 180;
// The walk through the house's room (tests/app/demo_house_test.cpp has the
// same walk through dereth-sim): in by the north door, out by the south.
constexpr const char* kHouseWalk =
    "account demo password=demo\n"
    "character 0x50000001 Walker\n"
    "player setup=0x02000001 mtable=0x09000001 stable=0x20000001 pes=0x34000004 "
    "pos=0xA9B40025,114,117,14,0,0,0,1\n"
    "at 30.0 chat \"end\"\n"
    "input forward down at=0.5\n"
    "input walk down at=0.5\n"
    "input turn_left down at=3.3\n"
    "input turn_left up at=4.0\n"
    "input walk up at=6.8\n"
    "input forward up at=7.8\n";
constexpr std::uint64_t kLastTick = 900;

// The standard deviation of the pixels' luminance (0..255): a few units for
// one wall texture filling the view, tens for a room with a figure in it.
double spread(const render::Image& image) {
  double sum = 0.0;
  double sum_sq = 0.0;
  const std::size_t n = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
  for (std::size_t i = 0; i < n; ++i) {
    const double l = 0.299 * image.pixels[i * 4] + 0.587 * image.pixels[i * 4 + 1] + 0.114 * image.pixels[i * 4 + 2];
    sum += l;
    sum_sq += l * l;
  }
  const double mean = sum / static_cast<double>(n);
  return std::sqrt(std::max(0.0, sum_sq / static_cast<double>(n) - mean * mean));
}

// The cell of the player's house holding the global point `p`, or null.
const sim::ObjCell* house_cell_holding(app::World& world, const sim::Position& player, const glm::vec3& p) {
  const glm::vec3 block = sim::global_frame(player).origin - player.frame.origin;
  sim::Position at = player;
  at.frame.origin = p - block;
  sim::ObjCell* cell = nullptr;
  if (!sim::adjust_position(*world.context().cells, at, glm::vec3(0.0F), cell, true)) return nullptr;
  if ((at.objcell_id & 0xFFFFU) < 0x100U) return nullptr;  // outdoors
  return cell;
}

}  // namespace

TEST_CASE(
    "The demo's house walk indoors: the follow camera stands in the house (SmartBox::update_viewer 0x00453CE0) "
    "and the picture is the room, not one wall",
    "[app][demo][gl][camera][retail]") {
  app::HeadlessDemoOptions options;
  options.width = kWidth;
  options.height = kHeight;
  options.scenario_text = kHouseWalk;
  auto created = dereth::test::headless_demo_or_skip(options, "the indoor camera");
  if (!created) return;
  app::HeadlessDemo& demo = *created;
  // The everyday follow camera (6 m behind along the player's heading, as in
  // `play`), not the demo's close framing of the NPCs.
  app::CameraFraming everyday;
  everyday.toward = glm::vec3(0.0F);
  everyday.after_teleport = true;
  demo.presenter().rig().set_framing(everyday);
  // A tick with the player indoors, the camera's wanted point beyond the
  // room's wall and the view from that point one wall texture (what dereth
  // drew before): the case at hand.
  const render::Camera& camera = demo.presenter().rig().camera();
  sim::Position where;
  double wall = 0.0;
  bool found = false;
  for (std::uint64_t tick = 220; tick <= kLastTick && !found; tick += 3) {
    REQUIRE(demo.run_to_tick(tick).has_value());
    const sim::PhysicsObj* player = demo.world().box().player();
    if (player == nullptr) continue;
    where = player->position();
    if ((where.objcell_id & 0xFFFFU) < 0x100U || camera.mode != render::CameraMode::Follow ||
        house_cell_holding(demo.world(), where, camera.wanted_eye()) != nullptr) {
      continue;
    }
    render::Camera through = camera;
    through.viewer.reset();
    REQUIRE(demo.presenter().renderer().render(demo.snapshot(), through, kWidth, kHeight).has_value());
    wall = spread(demo.presenter().renderer().read_pixels());
    found = wall < 6.0;  // the measure tells one wall texture
  }
  REQUIRE(found);
  INFO("player cell " << std::hex << where.objcell_id);
  // The eye is: inside one of the house's cells, nearer than the wanted point.
  CHECK(house_cell_holding(demo.world(), where, camera.eye()) != nullptr);
  CHECK(glm::length(camera.eye() - camera.target) < camera.distance - 0.3F);
  // And the picture drawn from it is the room.
  REQUIRE(demo.presenter().renderer().render(demo.snapshot(), camera, kWidth, kHeight).has_value());
  const double seen = spread(demo.presenter().renderer().read_pixels());
  INFO("luminance spread: seen " << seen << ", through the wall " << wall);
  CHECK(seen > 15.0);
}
