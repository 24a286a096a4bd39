// The synthetic demo world has what the collision rules need (issue 13,
// section 7): its house (a LandBlockInfo building with a physics BSP over an
// EnvCell room with two doorways), its hill (a walkable slope beside a face
// steeper than walkable) and its lake (water cells) load into World from the
// demo DATs, and a walker goes through the house and is stopped by the face.
// The scripted walk of the demo scenario does the same through dereth-sim
// (tests/app/walk_test.cpp covers `dereth demo --headless`).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dereth/app/headless.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/cells/landscape.hpp"

#include "support/temp_dir.hpp"
#include "world_support.hpp"

namespace fs = std::filesystem;
using namespace dereth;
using dereth::test::demo_dats;
using dereth::test::walk;
using dereth::test::walker;

namespace {

constexpr std::uint32_t kHouseLand = 0xA9B40025;  // land cell (4, 4): x 96..120, y 96..120
constexpr float kWalkable = 0.66417414f;          // PhysicsGlobals::floor_z

// The demo landblock's terrain as the simulation builds it.
sim::LandBlockStruct demo_block() {
  auto region_bytes = demo_dats().portal.read(demo::kRegion);
  REQUIRE(region_bytes);
  auto region = dat::read_region(*region_bytes, demo::kRegion);
  REQUIRE(region);
  auto block_bytes = demo_dats().cell.read(demo::kLandBlock);
  REQUIRE(block_bytes);
  auto block = sim::LandBlockStruct::build(*block_bytes, demo::kLandBlock, region->land_defs, demo::kRegion);
  REQUIRE(block);
  return std::move(*block);
}

// Both triangles' normals of land cell `cell_id` of the demo block.
std::array<float, 2> normal_z(const sim::LandBlockStruct& block, std::uint32_t cell_id) {
  const std::size_t index = (cell_id & 0xFFFFu) - 1;
  return {block.polygons()[2 * index].plane.normal.z, block.polygons()[2 * index + 1].plane.normal.z};
}

}  // namespace

TEST_CASE("Demo world: the hill's face is steeper than walkable beside a walkable slope, the lake is water",
          "[app][demo][terrain]") {
  const sim::LandBlockStruct block = demo_block();
  for (const float z : normal_z(block, demo::kSlopeCell)) {
    CHECK(z > kWalkable);
    CHECK(z < 0.99f);  // a slope, not flat
  }
  for (const float z : normal_z(block, demo::kSteepCell)) CHECK(z < kWalkable);
  for (const float z : normal_z(block, kHouseLand)) CHECK(z == 1.0f);  // the house stands on flat ground
  CHECK(block.cell_water_type((demo::kWaterCell & 0xFFFFu) - 1) == sim::WaterType::EntirelyWater);
  CHECK(block.cell_water_type((kHouseLand & 0xFFFFu) - 1) == sim::WaterType::NotWater);
}

TEST_CASE(
    "Demo world: the house and its room load into World, a walker goes through it and stops at the hill "
    "(CLandBlock::init_buildings 0x0052FD80, CEnvCell::find_env_collisions 0x0052C130)",
    "[retail][app][demo]") {
  core::ManualClock clock;
  app::World world(clock, &demo_dats().portal);
  REQUIRE(world.use_terrain(&demo_dats().cell));
  dereth::test::load_grid(world, kHouseLand);  // the grid around the house's block
  sim::CellSource& cells = *world.context().cells;

  auto* land = dynamic_cast<sim::LandCell*>(cells.get_cell(kHouseLand));
  REQUIRE(land != nullptr);
  REQUIRE(land->building() != nullptr);
  REQUIRE(land->building()->physics != nullptr);
  CHECK(land->building()->portals.size() == 2);
  auto* room = dynamic_cast<sim::EnvCell*>(cells.get_cell(demo::kRoomCell));
  REQUIRE(room != nullptr);
  CHECK(room->portals().size() == 2);
  const glm::vec3 centre(demo::kRoomOriginX + 3, demo::kRoomOriginY + 3, demo::kRoomOriginZ + 1);
  CHECK(room->point_in_cell(centre));
  CHECK_FALSE(room->point_in_cell(centre + glm::vec3(0, 4, 0)));

  // What the renderer is given: the building and the room.
  REQUIRE(world.landscape_view() != nullptr);
  REQUIRE(world.landscape_view()->buildings.size() == 1);
  CHECK(world.landscape_view()->buildings[0].parts.at(0).gfx_obj == demo::kHouseModel);
  REQUIRE(world.landscape_view()->cells.size() == 1);
  CHECK(world.landscape_view()->cells[0].cell_id == demo::kRoomCell);
  CHECK(world.landscape_view()->cells[0].environment_id == demo::kRoomEnvironment);
  CHECK(world.landscape_view()->cells[0].surfaces.size() == 2);

  const float door_x = demo::kRoomOriginX + (demo::kDoorLow + demo::kDoorHigh) / 2;
  SECTION("north through both doors: into the room, on its floor, and out again") {
    auto w = walker(world, 1, kHouseLand, {door_x, demo::kRoomOriginY - 5, 14});
    std::vector<std::uint32_t> visited;
    float floor_z = 0;
    for (int i = 0; i < 60; ++i) {
      walk(*w, 1, {0, 0.25f, 0});
      const std::uint32_t c = w->position().objcell_id;
      if (visited.empty() || visited.back() != c) visited.push_back(c);
      if (c == demo::kRoomCell) floor_z = w->position().frame.origin.z;
    }
    CHECK(visited == std::vector<std::uint32_t>{kHouseLand, demo::kRoomCell, kHouseLand});
    CHECK(floor_z == Approx(demo::kRoomOriginZ).margin(1e-3));
    CHECK(w->position().frame.origin.y == Approx(demo::kRoomOriginY + 10).margin(1e-3));  // walked all of it
  }
  SECTION("beside the door the shell stops the walker outside") {
    auto w = walker(world, 2, kHouseLand, {demo::kRoomOriginX + 1, demo::kRoomOriginY - 3, 14});
    walk(*w, 20, {0, 0.25f, 0});
    CHECK(w->position().objcell_id == kHouseLand);
    // The wall's outside is 0.25 m before the room; the walker's sphere is 0.5 m.
    CHECK(w->position().frame.origin.y == Approx(demo::kRoomOriginY - 0.75f).margin(1e-3));
  }
  SECTION("up the walkable slope, then stopped at the foot of the steep face") {
    auto w = walker(world, 3, demo::kSlopeCell, {114, 94, 14.7f});
    const auto ground_z = [](float y) { return 14.0f + 8.0f * (96.0f - y) / 24.0f; };
    CHECK(w->position().frame.origin.z == Approx(ground_z(94)).margin(1e-3));
    walk(*w, 24, {0, -0.25f, 0});  // south, up the slope: the transition keeps it on the ground
    CHECK(w->position().objcell_id == demo::kSlopeCell);
    const float y1 = w->position().frame.origin.y;
    const float z1 = w->position().frame.origin.z;
    CHECK(y1 < 89.0f);
    CHECK(z1 == Approx(ground_z(y1)).margin(1e-3));
    walk(*w, 40, {0.25f, 0, 0});  // 10 m east, into the hill
    const glm::vec3 end = w->position().frame.origin;
    INFO("stopped at " << end.x << " " << end.y << " " << end.z);
    CHECK(end.x < 120.5f);  // not up the face
    CHECK(end.x > 118.5f);  // but at its foot
    CHECK(end.z < z1 + 1.0f);
  }
}

TEST_CASE("dereth-sim plays a scripted walk through the demo house's room and out, stopped by the hill",
          "[app][headless][walk][demo]") {
  const dereth::test::TempDir tmp("demo-walk");
  const fs::path& dir = tmp.path();
  {
    // The walk the demo scenario took before its walk turned toward the
    // NPCs' exchange: from the spot north of the house, facing south, a run
    // in by the north door, through the room, out by the south door, up the
    // walkable slope, then a left turn east into the hill's steep face.
    // Input times count from the LoginComplete that ends world entry's
    // portal space (docs/scenario.md, "Local input").
    std::ofstream out(dir / "house-walk.scenario");
    out << "account demo password=demo\n"
           "character 0x50000001 Walker\n"
           "player setup=0x02000001 mtable=0x09000001 stable=0x20000001 pes=0x34000004 "
           "pos=0xA9B40025,114,117,14,0,0,0,1\n"
           "at 12.0 chat \"end\"\n"
           "input forward down at=0.5\n"
           "input walk down at=0.5\n"
           "input turn_left down at=3.3\n"
           "input turn_left up at=4.0\n"
           "input walk up at=6.8\n"
           "input forward up at=7.8\n";
  }
  app::HeadlessOptions o;
  o.input = dir / "house-walk.scenario";
  o.portal = &demo_dats().portal;
  o.cell = &demo_dats().cell;
  o.duration = 18.0;
  o.trace = dir / "trace.jsonl";
  auto report = app::run_headless(o);
  if (!report) FAIL(report.error().message());
  std::ifstream in(dir / "trace.jsonl");
  std::vector<std::string> cells;  // the player's cells in order, after the teleport
  std::string line;
  std::string last;
  bool after_teleport = false;
  while (std::getline(in, line)) {
    if (line.rfind(R"({"kind":"player")", 0) != 0) continue;
    const std::size_t c = line.find(R"("cell":")") + 8;
    const std::string cell = line.substr(c, line.find('"', c) - c);
    if (cell == "0xA9B40025") after_teleport = true;
    if (after_teleport && (cells.empty() || cells.back() != cell)) cells.push_back(cell);
    last = line;
  }
  INFO("last player line: " << last);
  CHECK(cells == std::vector<std::string>{"0xA9B40025", "0xA9B40100", "0xA9B40025", "0xA9B40024"});
  // At the end it stands at the foot of the hill's face, x 120.
  const std::size_t p = last.find(R"("position":[)") + 12;
  const double x = std::strtod(last.c_str() + p, nullptr);
  CHECK(x > 118.5);
  CHECK(x < 120.5);
}
