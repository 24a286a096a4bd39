// Land cells over LandBlockStruct terrain and the landscape's cell lookup
// (spec/physics.md 5.4, 5.7 and 6; RE ccell/CLandCell.c).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include <glm/geometric.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "cells/landscape_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

constexpr dat::Did kRegion = 0x13000000;
constexpr std::uint32_t kBlockA = 0xA9B4FFFF;
constexpr std::uint32_t kBlockEast = 0xAAB4FFFF;

dat::LandDefs linear_defs() {
  dat::LandDefs d;
  for (std::size_t i = 0; i < d.land_height_table.size(); ++i) d.land_height_table[i] = 2.0f * static_cast<float>(i);
  return d;
}

// Flat at z 10 (height index 5) west of x = 96 m; a walkable rise to z 20
// at x = 120 m (10 m over 24: normal z 0.92); a cliff to z 80 at x = 144 m
// (60 m over 24: normal z 0.37, steeper than floor_z); flat on top.
LandBlockStruct hill_block(std::uint32_t id = kBlockA, bool water = false) {
  dat::LandBlock b;
  b.id = id;
  for (std::size_t vx = 0; vx < dat::kLandBlockSide; ++vx) {
    for (std::size_t vy = 0; vy < dat::kLandBlockSide; ++vy) {
      std::uint8_t h = 5;
      if (vx == 5) h = 10;
      if (vx >= 6) h = 40;
      b.height[vx * 9 + vy] = id == kBlockA ? h : 40;  // other blocks: flat at z 80, level with A's top
      if (water) b.terrain[vx * 9 + vy] = static_cast<std::uint16_t>(17u << 2);  // a water type
    }
  }
  auto s = LandBlockStruct::build(b, linear_defs(), kRegion);
  REQUIRE(s);
  return std::move(*s);
}

struct Land {
  Land() {
    context.cells = &landscape;
    REQUIRE(landscape.add_block(hill_block()));
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  Landscape landscape;

  std::unique_ptr<PhysicsObj> walker(std::uint32_t guid, std::uint32_t cell, glm::vec3 origin,
                                     std::uint32_t state = ps::Gravity | ps::EdgeSlide) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    parts->step_up = 0.4f;
    parts->step_down = 0.4f;
    obj->set_part_array(std::move(parts));
    obj->set_state(state, false);
    obj->store_position(Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    return obj;
  }
};

Position at(std::uint32_t cell, glm::vec3 origin) {
  return Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))};
}

std::vector<std::uint32_t> ids(const CellArray& a) {
  std::vector<std::uint32_t> out;
  for (const auto& e : a.cells) out.push_back(e.cell_id);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("CLandCell::add_all_outside_cells 0x00533630 adds the sphere's cell and the neighbours its radius reaches",
          "[retail][sim]") {
  Land land;
  const auto cells_for = [&](std::uint32_t cell, glm::vec3 center, float r) {
    CellArray out;
    const dat::Sphere s{center, r};
    land.landscape.add_all_outside_cells(at(cell, center), 1, &s, out);
    return ids(out);
  };
  // Cell (2, 2) of block A9B4 is 0xA9B40013, (48..72, 48..72).
  CHECK(cells_for(0xA9B40013, {60, 60, 10}, 0.5f) == std::vector<std::uint32_t>{0xA9B40013});
  // Within the radius of the east edge: the east neighbour (3, 2) = 0x1B.
  CHECK(cells_for(0xA9B40013, {71.8f, 60, 10}, 0.5f) == std::vector<std::uint32_t>{0xA9B40013, 0xA9B4001B});
  // Near the north-east corner: east, north and the diagonal.
  CHECK(cells_for(0xA9B40013, {71.8f, 71.8f, 10}, 0.5f) ==
        std::vector<std::uint32_t>{0xA9B40013, 0xA9B40014, 0xA9B4001B, 0xA9B4001C});
  // At the block's east seam: the neighbour is cell (0, 2) of block AAB4,
  // listed with no cell while that block is not loaded.
  CellArray seam;
  const dat::Sphere s{{191.8f, 60, 10}, 0.5f};
  land.landscape.add_all_outside_cells(at(0xA9B4003B, s.center), 1, &s, seam);
  CHECK(ids(seam) == std::vector<std::uint32_t>{0xA9B4003B, 0xAAB40003});
  const auto east = std::find_if(seam.cells.begin(), seam.cells.end(), [](auto& e) { return e.cell_id == 0xAAB40003; });
  CHECK(east->cell == nullptr);
  // Added once per array.
  land.landscape.add_all_outside_cells(at(0xA9B4003B, s.center), 1, &s, seam);
  CHECK(seam.cells.size() == 2);
}

TEST_CASE("CLandCell::add_outside_cell 0x00532EC0 and check_add_cell_boundary 0x00533260 stay on the world",
          "[retail][sim]") {
  Landscape landscape;
  CellArray out;
  landscape.add_outside_cell(out, -1, 5);
  landscape.add_outside_cell(out, 5, 2040);
  CHECK(out.cells.empty());
  landscape.check_add_cell_boundary(out, {0.2f, 23.9f}, 0, 0, 23.5f, 0.5f);  // west edge of the world: only north
  CHECK(ids(out) == std::vector<std::uint32_t>{LandDefs::lcoord_to_gid(0, 1)});
}

TEST_CASE("CLandCell::find_env_collisions 0x00532F20 puts objects on the terrain", "[retail][sim]") {
  Land land;
  SECTION("entering the world 0.3 m above flat ground: settled onto it") {
    auto obj = land.walker(1, 0xA9B40013, {60, 60, 10.3f});
    REQUIRE(obj->enter_world(obj->position()));
    CHECK(obj->position().frame.origin.z == Approx(10.0f).margin(1e-4));
    CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
    CHECK(obj->cell() == land.landscape.get_cell(0xA9B40013));
  }
  SECTION("entering below the ground: lifted out") {
    auto obj = land.walker(1, 0xA9B40013, {60, 60, 9.0f});
    REQUIRE(obj->enter_world(obj->position()));
    CHECK(obj->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("walking up the walkable rise: the feet follow the slope, still on walkable ground") {
    auto obj = land.walker(1, 0xA9B40023, {95, 60, 10});
    REQUIRE(obj->enter_world(obj->position()));
    Position p = obj->position();
    for (int i = 0; i < 20; ++i) {
      Position next = p;
      next.frame.origin.x += 0.5f;
      auto t = obj->transition(&p, next, false);
      REQUIRE(t);
      REQUIRE(obj->set_position_internal(*t));
      p = obj->position();
    }
    // CTransition::adjust_offset takes the into-slope part out of each
    // 0.5 m step: two steps on the flat, then 18 of 0.5 - 0.5 * nx * nx
    // along x, with the slope normal n = (-10, 0, 24) / 26.
    const float nx = -10.0f / 26.0f;
    const float along_x = 0.5f - 0.5f * nx * nx;
    const float x = p.frame.origin.x;
    CHECK(x == Approx(96.0f + 18.0f * along_x).margin(0.01f));
    CHECK(x < 105.0f);
    CHECK(p.frame.origin.z == Approx(10.0f + (x - 96.0f) * 10.0f / 24.0f).margin(0.01f));
    CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
    CHECK(p.objcell_id == 0xA9B40023u);  // still cell (4, 2), x 96..120
  }
}

TEST_CASE("CLandCell::find_collisions 0x00532D60 a steep slope is solid but not walkable", "[retail][sim]") {
  Land land;
  // Just above the cliff face (x 120..144, z 20..80), mid-way: z 50 at x 132.
  auto obj = land.walker(1, 0xA9B40033, {132, 60, 50.2f});
  REQUIRE(obj->enter_world(obj->position()));
  CHECK((obj->transient_state() & transient_state::Contact) != 0);
  CHECK((obj->transient_state() & transient_state::OnWalkable) == 0);
  CHECK(obj->contact_plane().normal.z < kFloorZ);
  // OBJECTINFO::validate_walkable measures the sphere's lowest point (centre
  // minus r along z), not its surface, against the plane: the origin rests on
  // the face itself.
  CHECK(obj->position().frame.origin.z == Approx(50.0f).margin(1e-3));
}

TEST_CASE("CLandCell::point_in_cell 0x00532D40 and the landscape's current cell", "[retail][sim]") {
  Land land;
  ObjCell* c = land.landscape.get_cell(0xA9B40013);
  REQUIRE(c != nullptr);
  CHECK(c->point_in_cell({60, 60, 0}));
  CHECK_FALSE(c->point_in_cell({80, 60, 0}));
  CHECK(land.landscape.get_cell(0xA9B40041) == nullptr);  // past cell 0x40
  CHECK(land.landscape.get_cell(0xAAB40001) == nullptr);  // block not loaded

  CellArray out;
  ObjCell* curr = nullptr;
  const dat::Sphere s{{71.8f, 60, 10.5f}, 0.5f};
  land.landscape.find_cell_list(at(0xA9B40013, {71.8f, 60, 10}), 1, &s, out, curr);
  CHECK(out.cells.size() == 2);
  CHECK(curr == c);
  const dat::Sphere moved{{72.2f, 60, 10.5f}, 0.5f};
  land.landscape.find_cell_list(at(0xA9B40013, {72.2f, 60, 10}), 1, &moved, out, curr);
  CHECK(curr == land.landscape.get_cell(0xA9B4001B));
}

TEST_CASE("The sweep walks across a landblock seam into the loaded neighbour's cell", "[sim][collision]") {
  Land land;
  REQUIRE(land.landscape.add_block(hill_block(kBlockEast)));
  // Block A's cliff top (z 80) meets the east block, flat at z 80.
  auto obj = land.walker(1, 0xA9B4003B, {190, 60, 80});
  REQUIRE(obj->enter_world(obj->position()));
  REQUIRE((obj->transient_state() & transient_state::OnWalkable) != 0);
  Position p = obj->position();
  Position next = p;
  next.frame.origin.x = 194.0f;  // 2 m past the seam, still in A's coordinates
  auto t = obj->transition(&p, next, false);
  REQUIRE(t);
  REQUIRE(obj->set_position_internal(*t));
  CHECK(obj->position().objcell_id == 0xAAB40003u);  // cell (0, 2) of the east block
  CHECK(obj->position().frame.origin.x == Approx(2.0f).margin(1e-3));
  CHECK(obj->position().frame.origin.z == Approx(80.0f).margin(1e-3));
  CHECK(obj->cell() == land.landscape.get_cell(0xAAB40003));
  CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
}

TEST_CASE(
    "CPhysicsObj::SetPositionInternal 0x00515330 a held item's cell follows its holder across a landblock seam "
    "(change_cell's enter_cell, and the same-cell branch)",
    "[retail][sim]") {
  Land land;
  REQUIRE(land.landscape.add_block(hill_block(kBlockEast)));
  auto holder = land.walker(1, 0xA9B4003B, {189, 60, 80});
  auto& hand = static_cast<FakePartArray&>(*holder->part_array());
  hand.holding[1] = HoldingLocation{0, core::Frame(glm::vec3(0.3f, 0.2f, 1.0f), glm::quat(1, 0, 0, 0))};
  REQUIRE(holder->enter_world(holder->position()));
  auto item = land.walker(2, 0xA9B4003B, {189, 60, 80}, 0);
  REQUIRE(item->set_parent(*holder, 1));
  REQUIRE(item->position().objcell_id == 0xA9B4003Bu);
  CHECK(item->cell() == holder->cell());  // set_parent's change_cell

  // Where the snapshot draws each (o.root = global_frame(position)).
  const auto held_in_hand = [&] {
    const glm::vec3 expect = global_frame(holder->position()).origin + glm::vec3(0.3f, 0.2f, 1.0f);
    const glm::vec3 drawn = global_frame(item->position()).origin;
    CHECK(drawn.x == Approx(expect.x).margin(1e-3));
    CHECK(drawn.y == Approx(expect.y).margin(1e-3));
    CHECK(drawn.z == Approx(expect.z).margin(1e-3));
  };
  const auto step = [&](float dx) {
    Position p = holder->position();
    Position next = p;
    next.frame.origin.x += dx;
    auto t = holder->transition(&p, next, false);
    REQUIRE(t);
    REQUIRE(holder->set_position_internal(*t));
  };
  step(1.0f);  // within cell 0xA9B4003B: the same-cell branch
  CHECK(holder->position().objcell_id == 0xA9B4003Bu);
  CHECK(item->position().objcell_id == 0xA9B4003Bu);
  held_in_hand();
  step(5.0f);  // 190 -> 195: over the seam into the east block's cell (0, 2)
  REQUIRE(holder->position().objcell_id == 0xAAB40003u);
  CHECK(item->position().objcell_id == 0xAAB40003u);
  CHECK(item->cell() == land.landscape.get_cell(0xAAB40003));
  CHECK(item->position().frame.origin.x == Approx(3.3f).margin(1e-3));  // the frame is the new block's
  held_in_hand();
  step(1.0f);  // on in the east block's cell: the same-cell branch keeps it
  CHECK(item->position().objcell_id == 0xAAB40003u);
  held_in_hand();
}

TEST_CASE("CLandCell::find_env_collisions 0x00532F20 a wholly-water landblock stops all but missiles",
          "[retail][sim]") {
  core::ManualClock clock;
  SimContext context(clock);
  Landscape landscape;
  context.cells = &landscape;
  REQUIRE(landscape.add_block(hill_block(kBlockEast, true)));
  REQUIRE(landscape.get_cell(0xAAB40013) != nullptr);
  EventLog log;
  auto make = [&](std::uint32_t state) {
    auto obj = std::make_unique<PhysicsObj>(context, 1, LocalId{1});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    obj->set_part_array(std::move(parts));
    obj->set_state(state, false);
    obj->store_position(at(0xAAB40013, {60, 60, 80.0f}));
    return obj;
  };
  auto swimmer = make(ps::Gravity);
  CHECK_FALSE(swimmer->enter_world(swimmer->position()));
  auto arrow = make(ps::Missile);
  CHECK(arrow->enter_world(arrow->position()));
}

TEST_CASE("A missile's offset sphere (Force Bolt, seed 11.1) scaled with the object stops on the terrain it dives into",
          "[sim][collision][missile]") {
  Land land;
  auto bolt = std::make_unique<PhysicsObj>(land.context, 0x80000104, LocalId{9});
  auto parts = std::make_unique<FakePartArray>(land.log);
  parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, -0.165f, 0.1045f), 0.102f}};
  parts->sphere_count = 1;
  bolt->set_part_array(std::move(parts));
  bolt->set_state(ps::Missile, false);
  bolt->set_scale_static(2.0f);
  bolt->store_position(at(0xA9B40013, {60, 60, 12}));
  REQUIRE(bolt->enter_world(bolt->position()));
  REQUIRE(bolt->position().frame.origin.z == Approx(12.0f));  // missiles are not settled onto the ground

  Position to = bolt->position();
  to.frame.origin = glm::vec3(61, 60, 8);  // through the ground at z 10
  auto t = bolt->transition(&bolt->position(), to, false);
  REQUIRE(t);
  // SPHEREPATH::init_sphere scales the Setup-local origin and the radius.
  CHECK(t->sphere_path.local_sphere[0].center.y == Approx(-0.33f));
  CHECK(t->sphere_path.local_sphere[0].center.z == Approx(0.209f));
  CHECK(t->sphere_path.local_sphere[0].radius == Approx(0.204f));
  // PathClipped: the sweep stops at the first hit, the sphere's lowest point
  // on the ground (centre 0.209 above the origin, radius 0.204).
  const glm::vec3 end = t->sphere_path.curr_pos.frame.origin;
  CHECK(end.z + 0.209f - 0.204f == Approx(10.0f).margin(1e-3));
  CHECK(end.x > 60.0f);
  CHECK(end.x < 61.0f);
  CHECK(t->collision_info.collision_normal_valid);
  CHECK(t->collision_info.collision_normal.z == Approx(1.0f));
}

TEST_CASE("On a slope steeper than floor_z gravity slides the object down the face, kept in contact by the transition",
          "[sim][collision]") {
  Land land;
  auto obj = land.walker(1, 0xA9B40033, {132, 60, 50.2f});
  REQUIRE(obj->enter_world(obj->position()));
  REQUIRE((obj->transient_state() & transient_state::Contact) != 0);
  REQUIRE((obj->transient_state() & transient_state::OnWalkable) == 0);
  obj->calc_acceleration();  // not walkable: gravity acts
  const glm::vec3 start = obj->position().frame.origin;
  for (int i = 0; i < 15; ++i) obj->update_object_internal(FloatSeconds(1.0f / 30.0f));
  const glm::vec3 end = obj->position().frame.origin;
  CHECK(end.z < start.z - 0.05f);  // it went down
  CHECK(end.x < start.x);          // downhill is west on this face
  // never below the face: z on the face is 20 + (x - 120) * 60 / 24
  CHECK(end.z >= 20.0f + (end.x - 120.0f) * 2.5f - 0.01f);
}

TEST_CASE("CSphere::step_sphere_up 0x00537900 a walker steps onto a low rock and is stopped by a tall one",
          "[retail][sim]") {
  Land land;
  const auto rock_at = [&](std::uint32_t guid, glm::vec3 center, float r) {
    auto rock = std::make_unique<PhysicsObj>(land.context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(land.log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f), r}};
    parts->sphere_count = 1;
    rock->set_part_array(std::move(parts));
    rock->set_state(ps::Static, false);
    rock->store_position(at(0xA9B40013, center));
    // A static stands as placed, sunk into the ground or not (CPhysicsObj::add_obj_to_cell):
    // SetPositionSimple's placement transition would refuse the overlap.
    ObjCell* cell = land.landscape.get_cell(0xA9B40013);
    REQUIRE(cell != nullptr);
    rock->add_obj_to_cell(*cell, rock->position().frame);
    return rock;
  };
  auto walker = land.walker(1, 0xA9B40013, {55, 60, 10});
  REQUIRE(walker->enter_world(walker->position()));
  // Walks east in 0.25 m moves; returns the highest the walker got.
  const auto walk_east = [&](float metres) {
    float top = walker->position().frame.origin.z;
    for (int i = 0; i < static_cast<int>(metres / 0.25f); ++i) {
      Position p = walker->position();
      Position next = p;
      next.frame.origin.x += 0.25f;
      if (auto t = walker->transition(&p, next, false)) walker->set_position_internal(*t);
      top = std::max(top, walker->position().frame.origin.z);
    }
    return top;
  };
  SECTION("a rock whose top is 0.3 m up (step-up height 0.4): walked over") {
    auto rock = rock_at(2, {57, 60, 9.9f}, 0.4f);
    const float top = walk_east(4.0f);
    CHECK(top > 10.1f);                                                       // it climbed onto the rock
    CHECK(walker->position().frame.origin.x > 58.0f);                         // and went on past it
    CHECK(walker->position().frame.origin.z == Approx(10.0f).margin(0.05f));  // back on the ground
  }
  SECTION("a rock 2 m tall: stopped against it") {
    auto rock = rock_at(2, {57, 60, 10.0f}, 1.0f);
    CHECK(walk_east(4.0f) == Approx(10.0f).margin(0.05f));
    CHECK(walker->position().frame.origin.x < 57.0f - 1.0f);
    CHECK(walker->position().frame.origin.z == Approx(10.0f).margin(0.05f));
  }
}

TEST_CASE(
    "CPhysicsObj::add_obj_to_cell 0x005159E0 and calc_cross_cells_static 0x00515160 place a static object "
    "in a block the landscape has just loaded, loading no other, and LScape::grab_visible_cells 0x00504EC0 "
    "recomputes it once the next block is in",
    "[retail][sim]") {
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  std::vector<std::uint32_t> loaded;
  // The world has blocks A and East only.
  TestLandscapeLoader loader;
  loader.blocks = [](std::uint32_t id) -> std::optional<LandBlockStruct> {
    if (id != kBlockA && id != kBlockEast) return std::nullopt;
    return hill_block(id);
  };
  Landscape landscape(&loader);
  REQUIRE(landscape.set_mid_radius(1));
  context.cells = &landscape;
  std::vector<std::unique_ptr<PhysicsObj>> statics;
  const auto make = [&](glm::vec3 origin, std::uint32_t cell_id) {
    auto obj = std::make_unique<PhysicsObj>(context, 0, LocalId::None);
    auto parts = std::make_unique<FakePartArray>(log);
    // Its cylinder reaches as a sphere at its low point with its radius
    // (CObjCell::find_cell_list 0x0052B9F0).
    parts->cyl_list = {dat::CylSphere{glm::vec3(0.0f, 0.0f, 1.0f), 2.0f, 1.0f}};
    obj->set_part_array(std::move(parts));
    obj->set_state(ps::Static, false);
    ObjCell* cell = landscape.get_cell(cell_id);
    REQUIRE(cell != nullptr);
    obj->add_obj_to_cell(*cell, core::Frame(origin, glm::quat(1, 0, 0, 0)));
    statics.push_back(std::move(obj));
  };
  // CLandBlock::init_static_objs 0x00530A40 as an owner does it: A's
  // statics made the first time, else each not completely visible
  // recomputing its cells.
  loader.static_objs = [&](std::uint32_t block_id) {
    loaded.push_back(block_id);
    if (block_id != kBlockA) return;
    if (statics.empty()) {
      make({23, 12, 10}, 0xA9B40001u);   // reaches the next cell east
      make({191, 12, 80}, 0xA9B40039u);  // reaches the east block, not loaded
      return;
    }
    for (const auto& s : statics) {
      if (!s->is_completely_visible()) s->calc_cross_cells_static();
    }
  };

  // The load point one block west of A: the grid holds A, not East
  // (CellManager::ChangePosition: the grid, then the grab pass).
  landscape.update_loadpoint(0xA8B40001u);
  CHECK(loaded.empty());  // nothing made before the grab pass
  landscape.grab_visible_cells();
  REQUIRE(landscape.get_cell(0xA9B40001u) != nullptr);
  CHECK(loaded == std::vector<std::uint32_t>{kBlockA});
  CHECK(landscape.block_count() == 1);  // the static loaded nothing
  REQUIRE(statics.size() == 2);
  CHECK(statics[0]->position().objcell_id == 0xA9B40001u);
  CHECK(statics[0]->position().frame.origin == glm::vec3(23, 12, 10));
  std::vector<std::uint32_t> cells0;
  for (const ShadowObj& s : statics[0]->shadow_objects()) {
    CHECK(s.cell != nullptr);
    cells0.push_back(s.cell_id);
  }
  std::sort(cells0.begin(), cells0.end());
  CHECK(cells0 == std::vector<std::uint32_t>{0xA9B40001u, 0xA9B40009u});
  const auto east_shadow = [&]() -> const ShadowObj* {
    for (const ShadowObj& s : statics[1]->shadow_objects()) {
      if ((s.cell_id & 0xFFFF0000u) == (kBlockEast & 0xFFFF0000u)) return &s;
    }
    return nullptr;
  };
  REQUIRE(east_shadow() != nullptr);
  CHECK(east_shadow()->cell == nullptr);
  // The load point into A: East joins the grid; the grab pass recomputes
  // A's static that was not completely visible.
  landscape.update_loadpoint(0xA9B40001u);
  landscape.grab_visible_cells();
  ObjCell* east = landscape.get_cell((kBlockEast & 0xFFFF0000u) | 0x01u);
  REQUIRE(east != nullptr);
  CHECK(loaded == std::vector<std::uint32_t>{kBlockA, kBlockA, kBlockEast});
  CHECK(east_shadow()->cell == east);
  CHECK(east->shadow_objects().size() == 1);
}

TEST_CASE(
    "CPhysicsObj::MoveOrTeleport 0x00516330 in a collision cell: contact comes from the transition, not the flag "
    "(CPhysicsObj::SetPositionSimple 0x005162B0, CPhysicsObj::SetPosition 0x005160C0)",
    "[retail][sim]") {
  Land land;
  namespace ts = transient_state;
  auto obj = land.walker(7, 0xA9B40013, {60, 60, 10});
  REQUIRE(obj->enter_world(obj->position()));
  REQUIRE((obj->transient_state() & ts::OnWalkable) != 0);
  SECTION("a teleport 5 m up with the contact flag leaves the object in the air (no N4 landing)") {
    // SetPosition's transition starts without Contact or OnWalkable
    // (init_object(this, 0)), so the spot in the air is valid.
    CHECK(obj->move_or_teleport(at(0xA9B40013, {62, 60, 15}), 1, true, glm::vec3(0.0f)));
    CHECK(obj->position().frame.origin.x == Approx(62.0f).margin(1e-4));
    CHECK(obj->position().frame.origin.z == Approx(15.0f).margin(1e-4));
    CHECK((obj->transient_state() & ts::Contact) == 0);
    CHECK((obj->transient_state() & ts::OnWalkable) == 0);
  }
  SECTION("a teleport onto another object is placed beside it (SetPosition flags 0x1012, Slide)") {
    auto other = land.walker(8, 0xA9B40013, {66, 60, 10});
    REQUIRE(other->enter_world(other->position()));
    CHECK(obj->move_or_teleport(at(0xA9B40013, {66, 60, 10}), 1, true, glm::vec3(0.0f)));
    const float apart = glm::distance(obj->position().frame.origin, glm::vec3(66, 60, 10));
    CHECK(apart >= 0.99f);  // two 0.5 m spheres
    CHECK(apart < 2.0f);
  }
}

TEST_CASE(
    "SmartBox::HandleReceivedPosition 0x00453FD0 the local player's teleport in a collision cell: contact comes "
    "from the transition, not the flag (SmartBox::TeleportPlayer 0x00453910)",
    "[retail][sim]") {
  // SmartBox::TeleportPlayer 0x00453910 places the player through
  // SetPositionSimple's transition; the packet's contact flag lands nobody
  // where a collision cell holds the player (N4 is for cell-less objects).
  namespace ts = transient_state;
  constexpr std::uint32_t kPlayer = 0x50000001;
  Land land;
  World w;
  w.context.cells = &land.landscape;
  w.factory.spheres = 1;
  w.factory.sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
  w.factory.step_up = 0.4f;
  w.factory.step_down = 0.4f;
  w.start(kPlayer);
  // Cell 0x21 (x 96..120, y 0..24): the walkable rise, z 10 at x 96, 20 at
  // x 120.
  const float ground = 10.0f + 10.0f * (100.0f - 96.0f) / 24.0f;
  w.handle(create(kPlayer, 1, 0x00400C08, {104.0f, 10.0f, 10.0f + 10.0f * 8.0f / 24.0f}));
  PhysicsObj& p = w.object(kPlayer);
  REQUIRE(p.cell() != nullptr);
  REQUIRE((p.transient_state() & ts::OnWalkable) != 0);

  SECTION("a grounded teleport into the air leaves the player in the air, falling") {
    auto tp = position(kPlayer, 1, 1, {100.0f, 10.0f, ground + 5.0f}, 1);
    tp.position.flags = protocol::position_flag::IsGrounded;
    REQUIRE(w.handle(wire(tp)).verdict == Verdict::Applied);
    CHECK(p.position().frame.origin.z == Approx(ground + 5.0f).margin(1e-3));
    CHECK((p.transient_state() & ts::Contact) == 0);
    CHECK((p.transient_state() & ts::OnWalkable) == 0);
    CHECK(p.acceleration().z == Approx(kGravity));
  }
  SECTION("a teleport onto the ground stands the player there, flag or none") {
    auto tp = position(kPlayer, 1, 1, {100.0f, 10.0f, ground}, 1);
    REQUIRE(w.handle(wire(tp)).verdict == Verdict::Applied);
    CHECK(p.position().frame.origin.z == Approx(ground).margin(0.02));
    CHECK((p.transient_state() & ts::Contact) != 0);
    CHECK((p.transient_state() & ts::OnWalkable) != 0);
  }
}
