// The viewer (the follow camera's eye) kept out of walls: SmartBox::update_viewer
// sweeps a 0.3 m sphere from a pivot on the player to where the camera wants
// to stand, through the collision transition, and the camera stands where the
// sphere stops (RE smartbox/SmartBox.c, cphysobj/CPhysicsObj.c AdjustPosition).
//
// The world is collision_env_cell_test's: a flat landblock at z 10 and a house
// whose one room is the EnvCell 0xA9B40100, from (60, 60, 10) to (64, 64, 13),
// its doorway in the west wall (y 61 to 63), the shell's west wall segments
// (x 59.75 to 60) beside it.
#include "dereth/sim/object/viewer.hpp"

#include <catch2/catch.hpp>

#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "cells/house_support.hpp"
#include "cells/landscape_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

constexpr std::uint32_t kLand = 0xA9B40013;  // the land cell holding (48..72, 48..72)
const glm::vec3 kRoomOrigin(60, 60, 10);
const glm::vec3 kPivot(0, 0, 1.5f);  // the camera turns about a point 1.5 m above the feet

struct House {
  explicit House(bool seen_outside = false) {
    context.cells = &landscape;
    const core::Frame frame(kRoomOrigin, glm::quat(1, 0, 0, 0));
    std::vector<Building> buildings;
    buildings.push_back(house_building(frame));
    REQUIRE(landscape.add_block(flat_block(0xA9B4FFFF), std::move(buildings)));
    auto cell = room(frame);
    cell->set_seen_outside(seen_outside);
    REQUIRE(landscape.add_env_cell(std::move(cell)));
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  Landscape landscape;

  std::unique_ptr<PhysicsObj> player(std::uint32_t cell, glm::vec3 origin) {
    auto obj = std::make_unique<PhysicsObj>(context, 0x50000001, LocalId{1});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    parts->step_up = 0.4f;
    parts->step_down = 0.4f;
    obj->set_part_array(std::move(parts));
    obj->set_state(ps::Gravity | ps::EdgeSlide, false);
    obj->store_position(Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    REQUIRE(obj->enter_world(obj->position()));
    REQUIRE(obj->cell() != nullptr);
    return obj;
  }
};

glm::vec3 at(const Viewer& v) {
  return v.position.frame.origin;
}

}  // namespace

TEST_CASE("SmartBox::update_viewer 0x00453CE0 stops the viewer sphere 0.3 m short of the room's wall",
          "[retail][sim]") {
  House h;
  auto player = h.player(kRoom, {62, 62, 10});
  // The camera wants to stand 8 m south of the pivot, through the south wall (y 60).
  const Viewer v = update_viewer(h.landscape, *player, kPivot, {0, -8, 0.5f});
  CHECK(v.placement == ViewerPlacement::Swept);
  REQUIRE(v.cell != nullptr);
  CHECK(v.cell->id() == kRoom);
  CHECK(v.position.objcell_id == kRoom);
  CHECK(at(v).x == Approx(62.0f).margin(0.01));
  CHECK(at(v).y >= 60.0f + kViewerSphereRadius - 0.01f);
  CHECK(at(v).y < 60.0f + kViewerSphereRadius + 0.05f);
  // On the line from the pivot (y 62, z 11.5) towards the wanted point.
  const float along = (62.0f - at(v).y) / 8.0f;
  CHECK(at(v).z == Approx(11.5f + 0.5f * along).margin(0.01));
  SECTION("the ceiling stops it too") {
    const Viewer up = update_viewer(h.landscape, *player, kPivot, {0, 0, 6});
    CHECK(up.placement == ViewerPlacement::Swept);
    CHECK(at(up).z <= 13.0f - kViewerSphereRadius + 0.01f);
    CHECK(at(up).z > 12.5f);
  }
  SECTION("a wanted point inside the room is kept") {
    const Viewer near = update_viewer(h.landscape, *player, kPivot, {0, -1, 0.2f});
    CHECK(near.placement == ViewerPlacement::Swept);
    CHECK(at(near).y == Approx(61.0f).margin(0.001));
    CHECK(at(near).z == Approx(11.7f).margin(0.001));
  }
}

TEST_CASE(
    "SmartBox::update_viewer 0x00453CE0 outdoors: the open air keeps the wanted point, the ground and the house stop "
    "the sphere",
    "[retail][sim]") {
  House h;
  SECTION("nothing in the way") {
    auto player = h.player(kLand, {52, 52, 10});
    const Viewer v = update_viewer(h.landscape, *player, kPivot, {-3, -4, 1});
    CHECK(v.placement == ViewerPlacement::Swept);
    CHECK(at(v).x == Approx(49.0f).margin(0.001));
    CHECK(at(v).y == Approx(48.0f).margin(0.001));
    CHECK(at(v).z == Approx(12.5f).margin(0.001));
  }
  SECTION("the ground: a point wanted below it stays above") {
    auto player = h.player(kLand, {52, 52, 10});
    const Viewer v = update_viewer(h.landscape, *player, kPivot, {0, -3, -4});
    CHECK(at(v).z >= 10.0f + kViewerSphereRadius - 0.01f);
    CHECK(at(v).y > 49.0f);  // stopped on the way down, not at the wanted y
  }
  SECTION("the house's west wall, from outside") {
    auto player = h.player(kLand, {56, 60.5f, 10});
    const Viewer v = update_viewer(h.landscape, *player, kPivot, {8, 0, 0});
    CHECK(v.placement == ViewerPlacement::Swept);
    CHECK(at(v).x <= 59.75f - kViewerSphereRadius + 0.01f);
    CHECK(at(v).x > 59.0f);
  }
}

TEST_CASE("SmartBox::update_viewer 0x00453CE0 leaves the viewer on the player when it is in no cell", "[retail][sim]") {
  House h;
  PhysicsObj lost(h.context, 0x50000002, LocalId{2});
  lost.store_position(Position{kLand, core::Frame(glm::vec3(52, 52, 10), glm::quat(1, 0, 0, 0))});
  REQUIRE(lost.cell() == nullptr);
  const Viewer v = update_viewer(h.landscape, lost, kPivot, {0, -8, 0});
  CHECK(v.placement == ViewerPlacement::OnPlayer);
  CHECK(v.cell == nullptr);
  CHECK(at(v) == glm::vec3(52, 52, 10));
}

TEST_CASE("CPhysicsObj::AdjustPosition 0x00511D80 finds the cell holding a point", "[retail][sim]") {
  ObjCell* cell = nullptr;
  SECTION("a point in the room") {
    House h;
    Position p{kRoom, core::Frame(glm::vec3(62, 62, 11), glm::quat(1, 0, 0, 0))};
    REQUIRE(adjust_position(h.landscape, p, glm::vec3(0.0f), cell, true));
    REQUIRE(cell != nullptr);
    CHECK(cell->id() == kRoom);
  }
  SECTION("a point outside a room that does not see outside: none") {
    House h(false);
    Position p{kRoom, core::Frame(glm::vec3(55, 62, 11), glm::quat(1, 0, 0, 0))};
    CHECK_FALSE(adjust_position(h.landscape, p, glm::vec3(0.0f), cell, true));
    CHECK(cell == nullptr);
  }
  SECTION("a point outside a room that sees outside: the land cell under it") {
    House h(true);
    Position p{kRoom, core::Frame(glm::vec3(55, 62, 11), glm::quat(1, 0, 0, 0))};
    REQUIRE(adjust_position(h.landscape, p, glm::vec3(0.0f), cell, true));
    CHECK(p.objcell_id == kLand);
    REQUIRE(cell != nullptr);
    CHECK(cell->id() == kLand);
  }
  SECTION("outdoors: the land cell, the origin re-homed") {
    House h;
    Position p{0xA9B40001, core::Frame(glm::vec3(52, 52, 11), glm::quat(1, 0, 0, 0))};
    REQUIRE(adjust_position(h.landscape, p, glm::vec3(0.0f), cell, true));
    CHECK(p.objcell_id == kLand);
    CHECK(cell != nullptr);
  }
  SECTION("an invalid cell id: none") {
    House h;
    Position p{0xA9B40050, core::Frame(glm::vec3(52, 52, 11), glm::quat(1, 0, 0, 0))};
    CHECK_FALSE(adjust_position(h.landscape, p, glm::vec3(0.0f), cell, true));
  }
}
