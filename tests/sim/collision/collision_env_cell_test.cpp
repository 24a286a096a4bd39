// EnvCells and buildings in the landscape: CCellStruct's cell BSP, the
// cell list through building doors and cell portals, an EnvCell's physics
// BSP as its environment, a building's shell in the land cell at its origin
// (spec/physics.md 5.4 and 5.7; RE ccell/CEnvCell.c, ccell/CObjCell.c,
// ccell/CLandCell.c, ccell/CSortCell.c, cphysobj/CBuildingObj.c).
//
// The world: a flat landblock at z 10 and a house whose one room is the
// EnvCell 0xA9B40100, 4 x 4 x 3 m, from (60, 60, 10) to (64, 64, 13), with a
// 2 m wide, 2.5 m high doorway in its west wall (y 61 to 63). The house's
// shell is the west wall's two solid segments beside the door, 0.25 m thick
// (x 59.75 to 60). Walkers are 0.5 m spheres centred 0.5 m above their
// origin with 0.4 m step heights.
#include <catch2/catch.hpp>

#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "cells/house_support.hpp"
#include "cells/landscape_support.hpp"
#include "collision/collision_support.hpp"
#include "fakes.hpp"
#include "support/bsp_box.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
using dereth::test::append_box;
using dereth::test::quad;
namespace ps = protocol::physics_state;

namespace {

constexpr std::uint32_t kLand = 0xA9B40013;  // the land cell holding (48..72, 48..72)
const glm::vec3 kRoomOrigin(60, 60, 10);

struct House {
  House() {
    context.cells = &landscape;
    const core::Frame frame(kRoomOrigin, glm::quat(1, 0, 0, 0));
    std::vector<Building> buildings;
    buildings.push_back(house_building(frame));
    REQUIRE(landscape.add_block(flat_block(0xA9B4FFFF), std::move(buildings)));
    REQUIRE(landscape.add_env_cell(room(frame)));
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  Landscape landscape;

  std::unique_ptr<PhysicsObj> walker(std::uint32_t guid, std::uint32_t cell, glm::vec3 origin) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    parts->step_up = 0.4f;
    parts->step_down = 0.4f;
    obj->set_part_array(std::move(parts));
    obj->set_state(ps::Gravity | ps::EdgeSlide, false);
    obj->store_position(Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    REQUIRE(obj->enter_world(obj->position()));
    return obj;
  }
};

}  // namespace

TEST_CASE(
    "BSPNODE::sphere_intersects_cell_bsp 0x0053C260 through CCellStruct::sphere_intersects_cell 0x00533900: inside, "
    "across a wall, outside (CCellStruct::point_in_cell 0x005338F0)",
    "[retail][sim]") {
  const auto s = room_structure();
  // The room's tree ends in a leaf, whose zero plane every sphere straddles:
  // inside reads 1 there, as the binary's walk does.
  CHECK(s->sphere_intersects_cell(dat::Sphere{glm::vec3(2, 2, 1.5f), 0.5f}) == 1);
  SECTION("a chain whose last plane has no positive child: inside is 2") {
    BspNode a;
    a.plane = dat::Plane{glm::vec3(1, 0, 0), 0.0f};
    a.pos = 1;
    BspNode b;
    b.plane = dat::Plane{glm::vec3(-1, 0, 0), 4.0f};
    auto open = BspTree::make({a, b}, {}, false, "two planes");
    REQUIRE(open);
    CHECK(open->sphere_intersects_cell_bsp(dat::Sphere{glm::vec3(2, 0, 0), 0.5f}) == 2);
    CHECK(open->sphere_intersects_cell_bsp(dat::Sphere{glm::vec3(3.8f, 0, 0), 0.5f}) == 1);
    CHECK(open->sphere_intersects_cell_bsp(dat::Sphere{glm::vec3(4.6f, 0, 0), 0.5f}) == 0);
  }
  CHECK(s->sphere_intersects_cell(dat::Sphere{glm::vec3(0.2f, 2, 1.5f), 0.5f}) == 1);
  CHECK(s->sphere_intersects_cell(dat::Sphere{glm::vec3(-0.505f, 2, 1.5f), 0.5f}) == 1);  // within the 0.01 margin
  CHECK(s->sphere_intersects_cell(dat::Sphere{glm::vec3(-0.52f, 2, 1.5f), 0.5f}) == 0);
  CHECK(s->sphere_intersects_cell(dat::Sphere{glm::vec3(2, 2, 3.6f), 0.5f}) == 0);
  CHECK(s->point_in_cell({2, 2, 1}));
  CHECK_FALSE(s->point_in_cell({4.1f, 2, 1}));
}

TEST_CASE("CCellPortal::UnPack 0x0053BAB0 reads the side from flag 2 and the outside from flag 4", "[retail][sim]") {
  const auto s = room_structure();
  dat::CellPortal p;
  p.flags = 0;
  p.polygon_index = 0;
  p.other_cell_id = 0x0102;
  p.other_portal_id = 3;
  CellPortal a = CellPortal::unpack(p, 0xA9B40000, *s);
  CHECK(a.portal_side);
  CHECK(a.other_cell_id == 0xA9B40102);
  CHECK(a.other_portal_id == 3);
  CHECK(a.portal == &s->polygons[0]);
  p.flags = 2 | 4;
  p.polygon_index = 9;  // past the polygons: no plane
  CellPortal b = CellPortal::unpack(p, 0xA9B40000, *s);
  CHECK_FALSE(b.portal_side);
  CHECK(b.other_cell_id == CellPortal::kOutside);
  CHECK(b.portal == nullptr);
}

TEST_CASE("CEnvCell::point_in_cell 0x0052C300 tests the cell's own frame, and a cell without portals holds nothing",
          "[retail][sim]") {
  auto cell = room(core::Frame(kRoomOrigin, glm::quat(1, 0, 0, 0)));
  CHECK(cell->point_in_cell({62, 62, 11}));
  CHECK_FALSE(cell->point_in_cell({59, 62, 11}));
  EnvCell sealed(kRoom + 1, cell->pos(), room_structure(), {});
  CHECK_FALSE(sealed.point_in_cell({62, 62, 11}));
}

TEST_CASE(
    "CObjCell::find_cell_list 0x0052B4E0 reaches the room through the building's door only near it "
    "(CLandCell::find_transit_cells 0x00533800, CSortCell::find_transit_cells 0x00534060, "
    "CBuildingObj::find_building_transit_cells 0x006B5230, CEnvCell::check_building_transit 0x0052C5D0)",
    "[retail][sim]") {
  House h;
  const auto list = [&](glm::vec3 centre, std::uint32_t cell, SpherePath& path) {
    CellArray out;
    ObjCell* curr = nullptr;
    const CollisionSphere s{centre, 0.5f};
    h.landscape.find_cell_list(Position{cell, core::Frame(centre, glm::quat(1, 0, 0, 0))}, 1, &s, out, curr, &path);
    return std::make_pair(out, curr);
  };
  SECTION("3 m west of the wall: land cells only") {
    SpherePath path;
    auto [out, curr] = list({57, 62, 10.5f}, kLand, path);
    CHECK(std::none_of(out.cells.begin(), out.cells.end(), [](auto& e) { return e.cell_id == kRoom; }));
    CHECK(curr == h.landscape.get_cell(kLand));
    CHECK_FALSE(path.hits_interior_cell);
  }
  SECTION("its sphere reaching through the doorway's plane: the room joins, the centre still outside") {
    SpherePath path;
    auto [out, curr] = list({59.7f, 62, 10.5f}, kLand, path);
    CHECK(std::any_of(out.cells.begin(), out.cells.end(), [](auto& e) { return e.cell_id == kRoom; }));
    CHECK(curr == h.landscape.get_cell(kLand));
    CHECK(path.hits_interior_cell);
  }
  SECTION("the centre inside: the room is the current cell, found before the land cell") {
    SpherePath path;
    auto [out, curr] = list({60.2f, 62, 10.5f}, kLand, path);
    REQUIRE(curr != nullptr);
    CHECK(curr->id() == kRoom);
  }
  SECTION("from the room at its doorway: the outside cells through the outside portal") {
    SpherePath path;
    auto [out, curr] = list({60.3f, 62, 10.5f}, kRoom, path);
    CHECK(out.cells.front().cell_id == kRoom);
    CHECK(std::any_of(out.cells.begin(), out.cells.end(), [](auto& e) { return e.cell_id == kLand; }));
    CHECK(path.hits_interior_cell);
  }
  SECTION("from the room's middle: the room alone") {
    SpherePath path;
    auto [out, curr] = list({62, 62, 10.5f}, kRoom, path);
    CHECK(out.cells.size() == 1);
    CHECK(curr->id() == kRoom);
  }
}

TEST_CASE(
    "CEnvCell::find_transit_cells 0x0052C820 passes over a portal without a polygon (retail reads its plane "
    "unchecked)",
    "[retail][sim]") {
  House h;
  auto structure = room_structure();
  dat::CellPortal door;
  door.flags = 4;  // leads outside
  door.polygon_index = 0;
  door.other_cell_id = dat::kCellPortalOutside;
  CellPortal open = CellPortal::unpack(door, 0xA9B40000, *structure);
  REQUIRE(open.portal != nullptr);
  open.portal = nullptr;  // as a polygon index the structure lacks leaves it
  const core::Frame frame(kRoomOrigin, glm::quat(1, 0, 0, 0));
  REQUIRE(h.landscape.add_env_cell(
      std::make_unique<EnvCell>(kRoom, Position{kRoom, frame}, structure, std::vector<CellPortal>{open})));
  CellArray out;
  ObjCell* curr = nullptr;
  const CollisionSphere s{glm::vec3(60.3f, 62, 10.5f), 0.5f};
  h.landscape.find_cell_list(Position{kRoom, core::Frame(s.center, glm::quat(1, 0, 0, 0))}, 1, &s, out, curr);
  // At the doorway, yet no outside cell: the portal has no plane to cross.
  REQUIRE(out.cells.size() == 1);
  CHECK(out.cells.front().cell_id == kRoom);
}

TEST_CASE(
    "CEnvCell::find_env_collisions 0x0052C130: a walker goes through the doorway into the room, stands on its floor "
    "and stops at its far wall (CEnvCell::find_transit_cells 0x0052C820, CObjCell::find_cell_list 0x0052B4E0, "
    "BSPTREE::find_collisions 0x0053A440)",
    "[retail][sim]") {
  House h;
  auto w = h.walker(1, kLand, {57, 62, 10});
  REQUIRE(origin(*w).z == Approx(10.0f).margin(1e-4));
  walk(*w, 12, {0.25f, 0, 0});  // to x 60: the centre at the doorway's plane
  walk(*w, 4, {0.25f, 0, 0});   // x 61: inside
  CHECK(w->position().objcell_id == kRoom);
  CHECK(origin(*w).x == Approx(61.0f).margin(1e-4));
  CHECK(origin(*w).z == Approx(10.0f).margin(1e-4));
  CHECK((w->transient_state() & transient_state::OnWalkable) != 0);
  walk(*w, 16, {0.25f, 0, 0});  // on toward x 65
  CHECK(w->position().objcell_id == kRoom);
  CHECK(origin(*w).x == Approx(63.5f).margin(1e-4));  // the east wall at 64
  walk(*w, 16, {-0.25f, 0, 0});                       // and back out
  CHECK(w->position().objcell_id == kLand);
  CHECK(origin(*w).x == Approx(59.5f).margin(1e-4));
}

TEST_CASE(
    "CBuildingObj::find_building_collisions 0x006B5300 through CLandCell::find_collisions 0x00532D60: the shell beside "
    "the door stops a walker (CSortCell::find_collisions 0x005340A0, CLandBlock::init_buildings 0x0052FD80)",
    "[retail][sim]") {
  House h;
  auto w = h.walker(1, kLand, {57, 60.5f, 10});
  walk(*w, 16, {0.25f, 0, 0});
  CHECK(w->position().objcell_id == kLand);
  CHECK(origin(*w).x == Approx(59.25f).margin(1e-4));  // the shell's west face at 59.75
  CHECK(origin(*w).z == Approx(10.0f).margin(1e-4));
}

TEST_CASE("CLandBlock::init_buildings 0x0052FD80 puts a building in the land cell holding its origin only",
          "[retail][sim]") {
  House h;
  auto* home = dynamic_cast<LandCell*>(h.landscape.get_cell(kLand));
  REQUIRE(home != nullptr);
  REQUIRE(home->building() != nullptr);
  CHECK(home->building()->pos.objcell_id == kLand);
  auto* other = dynamic_cast<LandCell*>(h.landscape.get_cell(0xA9B40014));
  REQUIRE(other != nullptr);
  CHECK(other->building() == nullptr);
}
