// A landblock's static objects from DAT bytes: DatLandscapeLoader makes each
// LandBlockInfo stab a static object as the block loads
// (CLandBlock::init_static_objs), a GfxObj rock with its physics BSP and a
// Setup tree with its cylinder, and a walker is stopped by each
// (docs/sim.md, "Static objects").
//
// Two landblocks, 0xA8B4 (west) and 0xA9B4 (east), flat at z 10. In 0xA9B4:
// the rock, a 2 x 2 x 2 m box, at (40, 60, 10), (3, 60, 10) and
// (0.5, 36, 10); the tree, a cylinder of radius 0.5 m and height 3 m, at
// (40, 68, 10).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

#include "cells/dat_cells_support.hpp"

using namespace dereth;
using dereth::sim::test::make_dat;
using dereth::sim::test::walk;
using dereth::sim::test::walker;

namespace {

constexpr dat::Did kRock = 0x01000300;
constexpr dat::Did kTrunk = 0x01000301;
constexpr dat::Did kTree = 0x02000300;
constexpr std::uint32_t kWest = 0xA8B40000;
constexpr std::uint32_t kEast = 0xA9B40000;
constexpr std::uint32_t kFarEast = 0xAAB40000;
constexpr dat::Did kEnvironment = 0x0D000300;
constexpr std::uint32_t kRoom = kEast | 0x0100u;

// A GfxObj whose physics BSP is the solid box lo..hi (demo::add_solid_box).
dat::GfxObj rock_gfx(glm::vec3 lo, glm::vec3 hi) {
  dat::GfxObj g;
  g.id = kRock;
  g.flags = dat::GfxObj::kHasPhysics;
  demo::add_solid_box(g, lo, hi);
  return g;
}

// The tree: one part without a physics BSP, a cylinder at its foot.
dat::Setup tree_setup() {
  dat::Setup s;
  s.id = kTree;
  s.parts = {kTrunk};
  s.cyl_spheres = {dat::CylSphere{glm::vec3(0.0f), 0.5f, 3.0f}};
  s.height = 3.0f;
  s.radius = 0.5f;
  // A lantern hung 2 m up (the light tests below).
  s.lights = {dat::SetupLight{0, dat::Frame{{0, 0, 2}, glm::quat(1, 0, 0, 0)}, 0xFFFF8000u, 1.5f, 6.0f, 0.0f}};
  return s;
}

dat::LandBlock flat_block(std::uint32_t block) {
  dat::LandBlock b;
  b.id = block | 0xFFFFu;
  for (auto& h : b.height) h = 5;  // z 10
  return b;
}

struct Dats {
  Dats() {
    dat::GfxObj trunk;
    trunk.id = kTrunk;
    const std::vector<dat::DatRecord> portal_records = {
        {0x13000000, dereth::sim::test::linear_region()},
        {kRock, dat::write_gfx_obj(rock_gfx({-1, -1, 0}, {1, 1, 2}))},
        {kTrunk, dat::write_gfx_obj(trunk)},
        {kTree, dat::write_setup(tree_setup())},
        {kEnvironment, dat::write_environment(dereth::sim::test::floor_room_environment(kEnvironment))},
    };
    portal = make_dat(portal_records, dat::DatKind::Portal, "portal");

    dat::LandBlockInfo info;
    info.id = kEast | 0xFFFEu;
    const glm::quat identity(1, 0, 0, 0);
    info.objects = {
        dat::Stab{kRock, dat::Frame{{40, 60, 10}, identity}}, dat::Stab{kTree, dat::Frame{{40, 68, 10}, identity}},
        dat::Stab{kRock, dat::Frame{{3, 60, 10}, identity}}, dat::Stab{kRock, dat::Frame{{0.5f, 36, 10}, identity}},
        dat::Stab{0x01000999, dat::Frame{{50, 50, 10}, identity}}};  // absent: not made
    dat::EnvCell room;
    room.id = kRoom;
    room.flags = dat::env_cell_flags::kHasStaticObjs;
    room.environment_id = static_cast<std::uint16_t>(kEnvironment & 0xFFFFu);
    room.position = dat::Frame{{100, 100, 0}, identity};
    room.static_objects = {dat::Stab{kRock, dat::Frame{{110, 110, 0}, identity}},
                           dat::Stab{kTree, dat::Frame{{105, 105, 0}, identity}}};
    const std::vector<dat::DatRecord> cell_records = {
        {kRoom, dat::write_env_cell(room)},
        {kWest | 0xFFFFu, dat::write_land_block(flat_block(kWest))},
        {kEast | 0xFFFFu, dat::write_land_block(flat_block(kEast))},
        {kEast | 0xFFFEu, dat::write_land_block_info(info)},
        {kFarEast | 0xFFFFu, dat::write_land_block(flat_block(kFarEast))},  // bare: no stabs
    };
    cell = make_dat(cell_records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

// The object's shadow in the cell of that id (null: none).
const sim::ShadowObj* shadow_in(const sim::PhysicsObj& obj, std::uint32_t cell_id) {
  for (const sim::ShadowObj& s : obj.shadow_objects()) {
    if (s.cell_id == cell_id) return &s;
  }
  return nullptr;
}

}  // namespace

TEST_CASE(
    "DatLandscapeLoader makes a landblock's stabs static objects as it loads (CLandBlock::init_static_objs 0x00530A40, "
    "CPhysicsObj::add_obj_to_cell 0x005159E0, CPhysicsObj::calc_cross_cells_static 0x00515160, "
    "CPhysicsObj::CacheHasPhysicsBSP 0x0050F570, CSetup::makeSimpleSetup 0x00520090)",
    "[sim][retail]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  CHECK(world.static_objects().empty());  // nothing loaded yet
  sim::CellSource& cells = *world.context().cells;
  // CLandBlock::init_static_objs 0x00530A40, as the grid loads the block
  dereth::sim::test::load_grid(world, kEast | 0x0Bu);
  REQUIRE(cells.get_cell(kEast | 0x0Bu) != nullptr);
  const auto& statics = world.static_objects();
  REQUIRE(statics.size() == 4);  // the absent GfxObj makes none
  namespace ps = protocol::physics_state;
  const sim::PhysicsObj& rock = *statics[0];
  const sim::PhysicsObj& tree = *statics[1];
  // CPhysicsObj::CacheHasPhysicsBSP 0x0050F570: the rock's part has one.
  CHECK((rock.state() & ps::Static) != 0);
  CHECK((rock.state() & ps::HasPhysicsBsp) != 0);
  CHECK((tree.state() & ps::Static) != 0);
  CHECK((tree.state() & ps::HasPhysicsBsp) == 0);
  CHECK(rock.id() == 0);
  // CPhysicsObj::add_obj_to_cell 0x005159E0: where the stab stands.
  CHECK(rock.position().objcell_id == (kEast | 0x0Bu));
  CHECK(rock.position().frame.origin == glm::vec3(40, 60, 10));
  CHECK(tree.position().objcell_id == (kEast | 0x0Bu));
  REQUIRE(rock.part_array() != nullptr);
  CHECK(rock.part_array()->num_parts() == 1);  // CSetup::makeSimpleSetup 0x00520090
  // CPhysicsObj::calc_cross_cells_static 0x00515160: in its own cell.
  REQUIRE(!rock.shadow_objects().empty());
  CHECK(rock.shadow_objects().front().cell_id == (kEast | 0x0Bu));
  // The rock at the block's west edge reaches no cell of the unloaded west
  // block (none is loaded for it).
  const sim::PhysicsObj& edge = *statics[2];
  for (const sim::ShadowObj& s : edge.shadow_objects()) {
    CHECK((s.cell_id & 0xFFFF0000u) == kEast);
  }
  CHECK(world.box().objects().object_count() == 0);  // not server objects
}

TEST_CASE(
    "A walker is stopped by a static rock's physics BSP and a static tree's cylinder (CPhysicsObj::FindObjCollisions "
    "0x0050F050)",
    "[retail][sim]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));

  SECTION("the rock (a GfxObj with a physics BSP): stopped at its west face, x 39") {
    auto w = walker(world, 1, kEast | 0x0Bu, {36, 60, 10});
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().objcell_id == (kEast | 0x0Bu));
    CHECK(w->position().frame.origin.x == Approx(38.5f).margin(1e-3));
    CHECK(w->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("the tree (a Setup with a cylinder): stopped at its trunk, x 39.5") {
    auto w = walker(world, 2, kEast | 0x0Bu, {36, 68, 10});
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().objcell_id == (kEast | 0x0Bu));
    CHECK(w->position().frame.origin.x == Approx(39.0f).margin(1e-2));
  }
  SECTION("beside them: not stopped") {
    auto w = walker(world, 3, kEast | 0x0Bu, {36, 64, 10});
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().frame.origin.x == Approx(40.0f).margin(1e-4));
  }
}

TEST_CASE("A walker meets the rock of the next block, loaded with its own by the grid around it", "[sim]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  // The walker starts in the west block, 2.5 m from the east block; the
  // grid around the walker's block holds both, with their statics.
  const std::uint32_t west_cell = kWest | 0x3Bu;  // x 168..192, y 48..72
  auto w = walker(world, 1, west_cell, {189.5f, 60, 10});
  CHECK(world.static_objects().size() == 4);
  walk(*w, 16, {0.25f, 0, 0});
  CHECK(world.static_objects().size() == 4);
  // The rock's west face is at x 2 of the east block.
  CHECK(w->position().objcell_id == (kEast | 0x03u));
  CHECK(w->position().frame.origin.x == Approx(1.5f).margin(1e-3));
}

TEST_CASE(
    "LScape::grab_visible_cells 0x00504EC0: a static object reaching into a landblock loaded after its own "
    "gets its shadows there (CLandBlock::init_static_objs 0x00530A40 recomputes it), loses them when that block "
    "unloads (CObjCell::release_objects 0x0052B490) and gets them back when it loads again",
    "[sim][retail][streaming]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  sim::CellSource& cells = *world.context().cells;
  // The grid of radius 1 around the block east of kEast: kEast, not kWest.
  REQUIRE(world.set_mid_radius(1));
  dereth::sim::test::load_grid(world, kFarEast | 0x01u);
  REQUIRE(cells.get_cell(kEast | 0x02u) != nullptr);
  REQUIRE(world.static_objects().size() == 4);
  const sim::PhysicsObj& rock = *world.static_objects()[3];  // at (0.5, 36): its bound reaches x -1.24
  const auto west_shadow = [&] { return shadow_in(rock, kWest | 0x3Au); };
  REQUIRE(west_shadow() != nullptr);
  CHECK(west_shadow()->cell == nullptr);               // the west block is not loaded
  dereth::sim::test::load_grid(world, kEast | 0x02u);  // the grid reaches the west block
  sim::ObjCell* west = cells.get_cell(kWest | 0x3Au);
  REQUIRE(west != nullptr);
  CHECK(west_shadow()->cell == west);
  CHECK(west->shadow_objects().size() == 1);
  CHECK(world.static_objects().size() == 4);  // the west block has no stabs

  // The grid moves east again: kWest unloads, kEast (the rock's owner) stays.
  dereth::sim::test::load_grid(world, kFarEast | 0x01u);
  CHECK(cells.get_cell(kWest | 0x3Au) == nullptr);
  REQUIRE(west_shadow() != nullptr);
  CHECK(west_shadow()->cell == nullptr);  // the id kept, the released cell let go
  CHECK(rock.cell() == cells.get_cell(kEast | 0x02u));
  // And back: the rock's shadow is in the reloaded cell once more.
  dereth::sim::test::load_grid(world, kEast | 0x02u);
  west = cells.get_cell(kWest | 0x3Au);
  REQUIRE(west != nullptr);
  CHECK(west_shadow()->cell == west);
  CHECK(west->shadow_objects().size() == 1);
  CHECK(world.static_objects().size() == 4);  // no static made twice
}

TEST_CASE(
    "DatLandscapeLoader makes an EnvCell's static objects as the cell becomes visible (CEnvCell::flush_cells "
    "0x0052DEF0 runs "
    "CEnvCell::init_static_objects 0x0052C350) and frees them with the cell",
    "[sim][retail]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  CHECK(world.context().cells->get_cell(kRoom) == nullptr);
  CHECK(world.static_objects().empty());
  // The player's cell: the room (not seen from outside) alone is visible.
  world.change_position(sim::Position{kRoom, core::Frame(glm::vec3(102, 102, 1), glm::quat(1, 0, 0, 0))});
  auto* room = dynamic_cast<sim::EnvCell*>(world.context().cells->get_cell(kRoom));
  REQUIRE(room != nullptr);
  const auto& statics = world.static_objects();
  REQUIRE(statics.size() == 2);  // the east block is not loaded: its stabs are not made
  namespace ps = protocol::physics_state;
  CHECK((statics[0]->state() & (ps::Static | ps::HasPhysicsBsp)) == (ps::Static | ps::HasPhysicsBsp));
  CHECK((statics[1]->state() & ps::HasPhysicsBsp) == 0);
  for (const auto& obj : statics) {
    CHECK(obj->position().objcell_id == kRoom);
    CHECK(obj->cell() == room);
    REQUIRE(!obj->shadow_objects().empty());
    CHECK(obj->shadow_objects().front().cell == room);
  }
  CHECK(statics[0]->position().frame.origin == glm::vec3(110, 110, 0));
  CHECK(room->shadow_objects().size() == 2);
  // Outdoors (the west block): the room is no longer seen, freed with its statics.
  world.change_position(sim::Position{kWest | 0x01u, core::Frame(glm::vec3(10, 10, 10), glm::quat(1, 0, 0, 0))});
  CHECK(world.context().cells->get_cell(kRoom) == nullptr);
  CHECK(std::none_of(world.static_objects().begin(), world.static_objects().end(),
                     [](const auto& obj) { return obj->position().objcell_id == kRoom; }));
}

TEST_CASE("CPartArray::SetSetupID 0x00519330 lights a static object: its Setup light is published as a static light",
          "[sim][retail][lights]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kEast | 0x0Bu);
  REQUIRE(world.context().cells->get_cell(kEast | 0x0Bu) != nullptr);
  REQUIRE(world.static_objects().size() == 4);
  // The render snapshot as World::step builds it, the statics after the SmartBox's objects.
  sim::Effects effects(nullptr);
  const sim::SnapshotPtr snapshot =
      sim::build_render_snapshot(world.box(), effects, 1, world.static_objects(), world.landscape_view());
  REQUIRE(snapshot != nullptr);
  const auto& lights = snapshot->lights;
  // The outdoor tree at (40, 68, 10): its lantern 2 m up, in landblock-grid world coordinates.
  const sim::LightSnapshot* lantern = nullptr;
  for (const auto& l : lights) {
    if (glm::distance(l.position, glm::vec3(0xA9 * 192.0f + 40, 0xB4 * 192.0f + 68, 12)) < 1e-3f) lantern = &l;
  }
  REQUIRE(lantern != nullptr);
  CHECK(lantern->is_static);  // LIGHTOBJ state 1: the owner is Static
  CHECK(lantern->intensity == 1.5f);
  CHECK(lantern->falloff == 6.0f);
  CHECK(lantern->color.r == Approx(1.0f));
  CHECK(lantern->color.g == Approx(128.0f / 255.0f));
}

// ---- The cells a static object's shadows reach (calc_cross_cells_static) ----
//
// The east block 0xA9B4 alone, with: the rock (box -1..1, -1..1, 0..2;
// physics sphere about (0, 0, 1), radius 1.742) at (46.5, 12, 10), 1.5 m
// from the land cell x 48 boundary; a wide rock, the same box with one more
// vertex at (3, 0, 1), at (22, 12, 10); the tree (a cylinder of radius 0.5,
// height 3) at (47, 36, 10). Two rooms of one Environment, 20 x 20 m:
// 0xA9B40101 at (100, 100, 0) with a portal in its east wall (x 20 of its
// frame) into 0xA9B40102 at (120, 100, 0); the rock stands in the first at
// (119.5, 110, 0), across the portal's plane.
namespace {

constexpr dat::Did kWideRock = 0x01000302;
constexpr dat::Did kPortalEnvironment = 0x0D000301;
constexpr std::uint32_t kRoomA = kEast | 0x0101u;
constexpr std::uint32_t kRoomB = kEast | 0x0102u;

// floor_room_environment with one drawing polygon, the wall x 20 from y 0
// to 20, z 0 to 3, facing -x (into the room): the portal.
dat::Environment portal_environment() {
  dat::Environment env = dereth::sim::test::floor_room_environment(kPortalEnvironment);
  dat::CellStruct& cs = env.cells.front();
  dat::EnvPolygon wall;
  wall.stippling = 0x04;
  for (const glm::vec3& c : {glm::vec3(20, 0, 0), glm::vec3(20, 0, 3), glm::vec3(20, 20, 3), glm::vec3(20, 20, 0)}) {
    dat::EnvVertex v;
    v.id = static_cast<std::uint16_t>(cs.vertices.size());
    v.origin = c;
    cs.vertices.push_back(v);
    wall.vertex_ids.push_back(v.id);
  }
  cs.polygons = {wall};
  cs.portals = {0};
  return env;
}

dat::EnvCell portal_room(std::uint32_t id, glm::vec3 at, std::vector<dat::CellPortal> portals,
                         std::vector<dat::Stab> statics) {
  dat::EnvCell room;
  room.id = id;
  room.flags = statics.empty() ? 0u : dat::env_cell_flags::kHasStaticObjs;
  room.environment_id = static_cast<std::uint16_t>(kPortalEnvironment & 0xFFFFu);
  room.position = dat::Frame{at, glm::quat(1, 0, 0, 0)};
  room.portals = std::move(portals);
  room.static_objects = std::move(statics);
  return room;
}

// The room, seeing `other` (its visible cells).
dat::EnvCell sees(dat::EnvCell room, std::uint32_t other) {
  room.visible_cells = {static_cast<std::uint16_t>(other & 0xFFFFu)};
  return room;
}

struct CrossCellDats {
  CrossCellDats() {
    dat::GfxObj trunk;
    trunk.id = kTrunk;
    dat::GfxObj wide = rock_gfx({-1, -1, 0}, {1, 1, 2});
    wide.id = kWideRock;
    dat::SwVertex far;
    far.id = static_cast<std::uint16_t>(wide.vertices.size());
    far.origin = glm::vec3(3, 0, 1);
    wide.vertices.push_back(far);
    const std::vector<dat::DatRecord> portal_records = {
        {0x13000000, dereth::sim::test::linear_region()},
        {kRock, dat::write_gfx_obj(rock_gfx({-1, -1, 0}, {1, 1, 2}))},
        {kTrunk, dat::write_gfx_obj(trunk)},
        {kWideRock, dat::write_gfx_obj(wide)},
        {kTree, dat::write_setup(tree_setup())},
        {kPortalEnvironment, dat::write_environment(portal_environment())},
    };
    portal = make_dat(portal_records, dat::DatKind::Portal, "portal");
    const glm::quat identity(1, 0, 0, 0);
    dat::LandBlockInfo info;
    info.id = kEast | 0xFFFEu;
    info.objects = {dat::Stab{kRock, dat::Frame{{46.5f, 12, 10}, identity}},
                    dat::Stab{kWideRock, dat::Frame{{22, 12, 10}, identity}},
                    dat::Stab{kTree, dat::Frame{{47, 36, 10}, identity}}};
    // Flag 2: portal_side 0, the room on the plane's positive side.
    const dat::CellPortal door{2, 0, static_cast<std::uint16_t>(kRoomB & 0xFFFFu), 0};
    const std::vector<dat::DatRecord> cell_records = {
        {kEast | 0xFFFFu, dat::write_land_block(flat_block(kEast))},
        {kEast | 0xFFFEu, dat::write_land_block_info(info)},
        {kRoomA, dat::write_env_cell(portal_room(kRoomA, {100, 100, 0}, {door},
                                                 {dat::Stab{kRock, dat::Frame{{119.5f, 110, 0}, identity}}}))},
        {kRoomB, dat::write_env_cell(sees(portal_room(kRoomB, {120, 100, 0}, {}, {}), kRoomA))},
    };
    cell = make_dat(cell_records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

std::vector<std::uint32_t> shadow_cells(const sim::PhysicsObj& obj) {
  std::vector<std::uint32_t> ids;
  for (const sim::ShadowObj& s : obj.shadow_objects()) ids.push_back(s.cell_id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

TEST_CASE(
    "CPhysicsObj::calc_cross_cells_static 0x00515160 takes a physics-BSP object's cells from its parts' bounding "
    "boxes (find_bbox_cell_list 0x00510FC0, CLandCell::add_all_outside_cells 0x00533360), not their spheres "
    "(CPartArray::calc_cross_cells_static 0x00518160, CLandCell::find_transit_cells 0x00533840, "
    "CLandCell::add_cell_block 0x005331D0, BBox::LocalToGlobal 0x005B2120)",
    "[sim][retail]") {
  CrossCellDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kEast | 0x01u);  // the grid around the block, as a player there sets it
  REQUIRE(world.context().cells->get_cell(kEast | 0x01u) != nullptr);
  const auto& statics = world.static_objects();
  REQUIRE(statics.size() == 3);
  // The rock's box ends at x 47.5, short of the cell at x 48 that its
  // physics sphere (to x 48.24) would reach.
  CHECK(shadow_cells(*statics[0]) == std::vector<std::uint32_t>{kEast | 0x09u});
  // The wide rock's box reaches x 25, into the cell its sphere (to x 23.74)
  // does not.
  CHECK(shadow_cells(*statics[1]) == std::vector<std::uint32_t>{kEast | 0x01u, kEast | 0x09u});
}

TEST_CASE(
    "CPhysicsObj::calc_cross_cells_static 0x00515160 hands the cylinders to CObjCell::find_cell_list 0x0052B9F0 "
    "as spheres at their low points with their radii",
    "[sim][retail]") {
  CrossCellDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kEast | 0x01u);  // the grid around the block, as a player there sets it
  REQUIRE(world.context().cells->get_cell(kEast | 0x01u) != nullptr);
  REQUIRE(world.static_objects().size() == 3);
  // The tree 1 m from the cell at x 48: its foot's 0.5 m sphere stays in its
  // cell (a sphere enclosing the 3 m cylinder, radius 1.58, would cross).
  CHECK(shadow_cells(*world.static_objects()[2]) == std::vector<std::uint32_t>{kEast | 0x0Au});
}

TEST_CASE(
    "CEnvCell::flush_cells 0x0052DEF0 recomputes a static's cells (CEnvCell::init_static_objects 0x0052C350, "
    "CPhysicsObj::is_completely_visible 0x005112C0) once the room its box reaches is visible "
    "(CEnvCell::find_transit_cells 0x0052CAE0, CCellStruct::box_intersects_cell 0x00533910, "
    "BSPNODE::box_intersects_cell_bsp 0x0053C880, CellManager::ChangePosition 0x004559B0)",
    "[sim][retail]") {
  CrossCellDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  sim::CellSource& cells = *world.context().cells;
  // Nothing is visible, so nothing is read, before the player's cell.
  CHECK(cells.get_cell(kRoomA) == nullptr);
  CHECK(world.static_objects().empty());
  // The player in room A (seen by no other, not seen from outside): A is
  // visible, its rock made as the change's flush initialises it.
  world.change_position(sim::Position{kRoomA, core::Frame(glm::vec3(110, 110, 1), glm::quat(1, 0, 0, 0))});
  REQUIRE(cells.get_cell(kRoomA) != nullptr);
  CHECK(cells.get_cell(kRoomB) == nullptr);
  REQUIRE(world.static_objects().size() == 1);
  const sim::PhysicsObj& rock = *world.static_objects()[0];
  // CEnvCell::find_transit_cells 0x0052CAE0: the rock's box crosses the
  // portal; the room behind it is not visible and goes in by id.
  CHECK(shadow_cells(rock) == std::vector<std::uint32_t>{kRoomA, kRoomB});
  CHECK_FALSE(rock.is_completely_visible());
  // The player steps into room B, which sees A: both visible, and the
  // flush's init_static_objects of A gives the rock its shadow in B.
  world.change_position(sim::Position{kRoomB, core::Frame(glm::vec3(121, 110, 1), glm::quat(1, 0, 0, 0))});
  sim::ObjCell* room_b = cells.get_cell(kRoomB);
  REQUIRE(room_b != nullptr);
  REQUIRE(cells.get_cell(kRoomA) != nullptr);
  CHECK(rock.is_completely_visible());
  CHECK(shadow_cells(rock) == std::vector<std::uint32_t>{kRoomA, kRoomB});
  REQUIRE(room_b->shadow_objects().size() == 1);
  CHECK(room_b->shadow_objects().front()->physobj == &rock);
  // Back in A alone: B is freed, the rock's shadow there gone with it, and
  // the rock made once.
  world.change_position(sim::Position{kRoomA, core::Frame(glm::vec3(110, 110, 1), glm::quat(1, 0, 0, 0))});
  CHECK(cells.get_cell(kRoomB) == nullptr);
  CHECK_FALSE(rock.is_completely_visible());
  CHECK(world.static_objects().size() == 1);
}
