// A static object's cells by its parts' bounding boxes (RE
// cphysobj/CPhysicsObj.c find_bbox_cell_list, ccell/CLandCell.c,
// ccell/CEnvCell.c, cphysobj/CBuildingObj.c) and the box helpers they use
// (engine_shared_geometry/BBox.c, geometry/Plane.c, cgeometry/CBSPNode.c).
//
// The house of house_support.hpp stands at (60, 60, 10) in the land cell
// 0xA9B40013 (48..72 x 48..72) of a flat block at z 10; its room's doorway
// (the room's x 0, y 1 to 3) here has portal_side 0 (flags 6), the room on
// the positive side of the doorway's plane (its normal +x), as retail's side
// test reads it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/bbox.hpp"
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

constexpr std::uint32_t kLand = 0xA9B40013;
const glm::vec3 kRoomOrigin(60, 60, 10);

// A part: a 2 x 1 x 2 m box about its origin's foot, its sphere 1.2 m.
PartBounds box_part() {
  PartBounds p;
  p.box = BBox{{-1, -0.5f, 0}, {1, 0.5f, 2}};
  p.sphere = dat::Sphere{glm::vec3(0, 0, 1), 1.2f};
  return p;
}

struct Scene {
  explicit Scene(bool with_house) {
    context.cells = &landscape;
    const core::Frame frame(kRoomOrigin, glm::quat(1, 0, 0, 0));
    std::vector<Building> buildings;
    if (with_house) buildings.push_back(house_building(frame));
    REQUIRE(landscape.add_block(flat_block(0xA9B4FFFF), std::move(buildings)));
    if (with_house) {
      auto structure = room_structure();
      dat::CellPortal door;
      door.flags = 6;  // outside, portal_side 0
      door.other_cell_id = dat::kCellPortalOutside;
      std::vector<CellPortal> portals = {CellPortal::unpack(door, 0xA9B40000, *structure)};
      REQUIRE(landscape.add_env_cell(
          std::make_unique<EnvCell>(kRoom, Position{kRoom, frame}, std::move(structure), std::move(portals))));
    }
  }
  // A static standing at `at` in `cell` with the parts `parts` (their frames
  // block-local, at the object's origin plus their offsets).
  std::unique_ptr<PhysicsObj> place(std::uint32_t cell, glm::vec3 at, std::vector<PartBounds> parts,
                                    std::uint32_t extra_state = 0) {
    auto obj = std::make_unique<PhysicsObj>(context, 0, LocalId::None);
    auto fake = std::make_unique<FakePartArray>(log);
    for (PartBounds& p : parts) p.pos.frame.origin += at;
    fake->bounds_list = std::move(parts);
    obj->set_part_array(std::move(fake));
    obj->set_state(ps::Static | extra_state, false);
    ObjCell* c = landscape.get_cell(cell);
    REQUIRE(c != nullptr);
    obj->add_obj_to_cell(*c, core::Frame(at, glm::quat(1, 0, 0, 0)));
    return obj;
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  Landscape landscape;
};

std::vector<std::uint32_t> cells_of(const PhysicsObj& obj) {
  std::vector<std::uint32_t> ids;
  for (const ShadowObj& s : obj.shadow_objects()) ids.push_back(s.cell_id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

TEST_CASE(
    "BBox::LocalToGlobal 0x005B2120 moves the eight corners into the target's landblock space, "
    "BBox::LocalToLocal 0x005B1E60 into its frame (Position::localtolocal 0x004527F0)",
    "[retail][sim]") {
  const BBox box{{-1, -0.5f, 0}, {1, 0.5f, 2}};
  // A quarter turn about z: x becomes y.
  const Position part{0xA9B40013,
                      core::Frame(glm::vec3(10, 20, 5), glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)))};
  const BBox same = BBox::local_to_global(box, part, Position{0xA9B40001, core::Frame{}});
  CHECK(same.min.x == Approx(9.5f));
  CHECK(same.max.x == Approx(10.5f));
  CHECK(same.min.y == Approx(19.0f));
  CHECK(same.max.y == Approx(21.0f));
  CHECK(same.min.z == Approx(5.0f));
  CHECK(same.max.z == Approx(7.0f));
  // Into the block to the west: 192 m further east.
  const BBox west = BBox::local_to_global(box, part, Position{0xA8B40001, core::Frame{}});
  CHECK(west.min.x == Approx(201.5f));
  // LocalToLocal applies the target's frame.
  const Position room{0xA9B40100, core::Frame(glm::vec3(8, 18, 5), glm::quat(1, 0, 0, 0))};
  const BBox local = BBox::local_to_local(box, part, room);
  CHECK(local.min.x == Approx(1.5f));
  CHECK(local.max.y == Approx(3.0f));
}

TEST_CASE(
    "Plane::intersect_box 0x005AA170: 0 wholly in front, 1 wholly behind, 3 across or touching (Plane::which_side "
    "0x00444720)",
    "[retail][sim]") {
  const dat::Plane plane{glm::vec3(1, 0, 0), -2.0f};  // x = 2
  CHECK(intersect_box(plane, BBox{{3, 0, 0}, {4, 1, 1}}) == 0);
  CHECK(intersect_box(plane, BBox{{0, 0, 0}, {1, 1, 1}}) == 1);
  CHECK(intersect_box(plane, BBox{{1, 0, 0}, {3, 1, 1}}) == 3);
  CHECK(intersect_box(plane, BBox{{2, 0, 0}, {3, 1, 1}}) == 3);        // the min corner on the plane
  CHECK(intersect_box(plane, BBox{{0, 0, 0}, {2.0001f, 1, 1}}) == 3);  // within EPSILON of it
}

TEST_CASE(
    "BSPNODE::box_intersects_cell_bsp 0x0053C880 through CCellStruct::box_intersects_cell 0x00533910: "
    "outside only wholly behind a wall",
    "[retail][sim]") {
  const auto s = room_structure();  // 0..4 x 0..4 x 0..3
  CHECK(s->box_intersects_cell(BBox{{1, 1, 1}, {2, 2, 2}}));
  CHECK(s->box_intersects_cell(BBox{{-1, 1, 1}, {0.5f, 2, 2}}));       // across the west wall
  CHECK_FALSE(s->box_intersects_cell(BBox{{-3, 1, 1}, {-1, 2, 2}}));   // west of it
  CHECK_FALSE(s->box_intersects_cell(BBox{{1, 1, 3.5f}, {2, 2, 4}}));  // over the ceiling
  CHECK(s->box_intersects_cell(BBox{{-3, 1, 1}, {-0.0001f, 2, 2}}));   // within EPSILON of the wall
}

TEST_CASE(
    "CPhysicsObj::find_bbox_cell_list 0x00510FC0: a part's box reaches the room through the building's door "
    "(CLandCell::find_transit_cells 0x00533840, CBuildingObj::find_building_transit_cells 0x006B52A0, "
    "CEnvCell::check_building_transit 0x0052C680) (CPartArray::calc_cross_cells_static 0x00518160, "
    "CSortCell::find_transit_cells 0x00534080, CEnvCell::find_transit_cells 0x0052CAE0)",
    "[retail][sim]") {
  Scene scene(true);
  SECTION("across the doorway's plane: the land cell and the room") {
    auto obj = scene.place(kLand, {59.5f, 62, 10}, {box_part()});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{kLand, kRoom});
    CHECK(obj->is_completely_visible());
  }
  SECTION("its sphere short of the plane: the land cell alone") {
    auto obj = scene.place(kLand, {58.5f, 62, 10}, {box_part()});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{kLand});
  }
  SECTION("its sphere across, its box short of the room's walls (north of the house): the land cell alone") {
    // Box y 64.5..65.5 lies wholly beyond the cell tree's north plane (y 4 of the room).
    auto obj = scene.place(kLand, {59.5f, 65, 10}, {box_part()});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{kLand});
  }
  SECTION("from the room: the room, and through its outside doorway the land cells the box reaches") {
    auto obj = scene.place(kRoom, {60.5f, 62, 10}, {box_part()});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{kLand, kRoom});
  }
}

TEST_CASE(
    "CLandCell::add_all_outside_cells 0x00533360 over parts: the block of cells every part's box reaches, "
    "an Always2D part's by its sphere about its origin, with CLandCell::add_cell_block 0x005331D0 "
    "(CPhysicsPart::Always2D 0x0050D8A0)",
    "[retail][sim]") {
  Scene scene(false);
  SECTION("two parts, one reaching east, one north: the 2 x 2 block, the diagonal too") {
    PartBounds east = box_part();
    east.pos.frame.origin = glm::vec3(10, 0, 0);  // at x 69.5
    PartBounds north = box_part();
    north.pos.frame.origin = glm::vec3(0, 11, 0);  // box y 71.5..72.5
    east.box.max.x = 3;                            // box x 68.5..72.5
    auto obj = scene.place(kLand, {59.5f, 61, 10}, {east, north});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{0xA9B40013u, 0xA9B40014u, 0xA9B4001Bu, 0xA9B4001Cu});
  }
  SECTION("an Always2D part: its sphere's radius about its origin, not its box") {
    PartBounds flat = box_part();
    flat.always_2d = true;
    flat.sphere = dat::Sphere{glm::vec3(0.0f), 3.0f};  // x 68..74 about (71, 60)
    flat.box = BBox{};                                 // a box reaching nowhere
    auto obj = scene.place(kLand, {71, 60, 10}, {flat});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{0xA9B40013u, 0xA9B4001Bu});
  }
  SECTION("an Always2D part without a sphere (retail reads it unchecked): left out, the others' block kept") {
    PartBounds flat = box_part();
    flat.always_2d = true;
    flat.sphere.reset();
    flat.pos.frame.origin = glm::vec3(20, 0, 0);  // would reach x 91.5 had it a sphere
    PartBounds east = box_part();
    east.pos.frame.origin = glm::vec3(10, 0, 0);  // box x 68.5..70.5
    auto obj = scene.place(kLand, {59.5f, 61, 10}, {east, flat});
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{0xA9B40013u});
  }
  SECTION("reaching a block not loaded: its cells kept without a cell, none loaded") {
    PartBounds p = box_part();
    auto obj = scene.place(0xA9B40039u, {191.5f, 12, 10}, {p});  // box x 190.5..192.5
    CHECK(cells_of(*obj) == std::vector<std::uint32_t>{0xA9B40039u, 0xAAB40001u});
    CHECK(scene.landscape.block_count() == 1);
    CHECK_FALSE(obj->is_completely_visible());  // CPhysicsObj::is_completely_visible 0x005112C0
  }
}

TEST_CASE(
    "CPhysicsObj::calc_cross_cells_static 0x00515160: cylinders as spheres at their low points with their "
    "radii (CObjCell::find_cell_list 0x0052B9F0), a physics-BSP object by its boxes though it has cylinders",
    "[retail][sim]") {
  Scene scene(false);
  const auto with_cylinder = [&](glm::vec3 at, std::uint32_t state) {
    auto obj = std::make_unique<PhysicsObj>(scene.context, 0, LocalId::None);
    auto fake = std::make_unique<FakePartArray>(scene.log);
    // A cylinder whose low point is 1 m east of the origin, radius 0.5, 10 m tall.
    fake->cyl_list = {dat::CylSphere{glm::vec3(1, 0, 0), 0.5f, 10.0f}};
    PartBounds p = box_part();
    p.pos.frame.origin = at;
    fake->bounds_list = {p};
    obj->set_part_array(std::move(fake));
    obj->set_state(ps::Static | state, false);
    obj->add_obj_to_cell(*scene.landscape.get_cell(kLand), core::Frame(at, glm::quat(1, 0, 0, 0)));
    return obj;
  };
  // At x 70: the low point at 71, 0.5 m: 71.5 short of 72 (the box, to 71, too).
  CHECK(cells_of(*with_cylinder({70, 60, 10}, 0)) == std::vector<std::uint32_t>{kLand});
  // At x 70.6: the low point's sphere reaches x 72.1, the next cell east; the box (to 71.6) would not.
  CHECK(cells_of(*with_cylinder({70.6f, 60, 10}, 0)) == std::vector<std::uint32_t>{kLand, 0xA9B4001Bu});
  // The same with a physics BSP: by its box alone.
  CHECK(cells_of(*with_cylinder({70.6f, 60, 10}, ps::HasPhysicsBsp)) == std::vector<std::uint32_t>{kLand});
}

TEST_CASE(
    "CPhysicsObj::SetPositionInternal 0x00515330: a mover with a physics BSP takes its cells from its parts' "
    "boxes (CPhysicsObj::calc_cross_cells 0x00515230), not from the transition's cell array",
    "[retail][sim]") {
  Scene scene(false);
  const auto mover = [&](std::uint32_t state) {
    auto obj = std::make_unique<PhysicsObj>(scene.context, 0x50000001u, LocalId{1});
    auto fake = std::make_unique<FakePartArray>(scene.log);
    fake->sphere_list = {dat::Sphere{glm::vec3(0, 0, 0.5f), 0.5f}};
    fake->sphere_count = 1;
    PartBounds p = box_part();  // x 70.5..72.5 about (71.5, 30)
    p.pos.frame.origin = glm::vec3(71.5f, 30, 10);
    fake->bounds_list = {p};
    obj->set_part_array(std::move(fake));
    obj->set_state(state, false);
    REQUIRE(obj->enter_world(Position{0xA9B40012u, core::Frame({71.5f, 30, 10}, glm::quat(1, 0, 0, 0))}));
    REQUIRE(obj->cell() != nullptr);
    return obj;
  };
  // The sphere (to x 72.0) stays in its cell; the box reaches the next east.
  CHECK(cells_of(*mover(ps::HasPhysicsBsp)) == std::vector<std::uint32_t>{0xA9B40012u, 0xA9B4001Au});
  CHECK(cells_of(*mover(0)) == std::vector<std::uint32_t>{0xA9B40012u});
}
