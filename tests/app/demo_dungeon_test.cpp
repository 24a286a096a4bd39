// The demo's dungeon (docs/dat.md, "The dungeon"): its EnvCells load into
// World from the demo DATs, a walker standing in a room is in that room's
// cell, walks through the doorways from cell to cell and is stopped by the
// walls; the town and the dungeon are never resident together.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"

#include "world_support.hpp"

using namespace dereth;
using dereth::test::demo_dats;
using dereth::test::walk;
using dereth::test::walker;

namespace {

constexpr std::uint32_t kEntry = demo::kDungeonRooms[0].cell;
constexpr std::uint32_t kCorridor = demo::kDungeonRooms[1].cell;
constexpr std::uint32_t kHall = demo::kDungeonRooms[2].cell;
constexpr float kFloor = demo::kDungeonFloorZ;

// A point of room `i` in block-local metres: `local` in its cell's frame.
glm::vec3 in_room(std::size_t i, glm::vec3 local) {
  return demo::kDungeonRooms[i].origin + local;
}

}  // namespace

TEST_CASE(
    "Demo world: the dungeon's cells load, a walker in a room is in its cell, goes through the doorways and is "
    "stopped by the walls",
    "[app][demo][dungeon]") {
  core::ManualClock clock;
  app::World world(clock, &demo_dats().portal);
  REQUIRE(world.use_terrain(&demo_dats().cell));
  const glm::vec3 start = in_room(0, {3, 5, 0});
  auto w = walker(world, 1, kEntry, start);
  sim::CellSource& cells = *world.context().cells;

  // Every cell of the dungeon is loaded with the one the walker stands in
  // (their stab lists), none of the town's: the landblocks are far apart.
  for (const demo::DungeonRoom& room : demo::kDungeonRooms) {
    INFO("cell 0x" << std::hex << room.cell);
    auto* cell = dynamic_cast<sim::EnvCell*>(cells.get_cell(room.cell));
    REQUIRE(cell != nullptr);
    CHECK_FALSE(cell->portals().empty());
    CHECK(cell->point_in_cell(room.origin + room.size * 0.5F));
  }
  CHECK(cells.get_cell(demo::kRoomCell) == nullptr);
  CHECK(cells.get_cell(0xA9B40016) == nullptr);
  CHECK(w->position().objcell_id == kEntry);
  CHECK(w->position().frame.origin.z == Approx(kFloor).margin(1e-3));
  auto* entry = dynamic_cast<sim::EnvCell*>(cells.get_cell(kEntry));
  REQUIRE(entry != nullptr);
  CHECK(entry->point_in_cell(start + glm::vec3(0, 0, 1)));
  CHECK_FALSE(entry->point_in_cell(in_room(1, {5, 1.5F, 1})));  // the corridor's middle is not the hall's

  // What the renderer is given: the five cells of the dungeon.
  REQUIRE(world.landscape_view() != nullptr);
  std::vector<std::uint32_t> drawn;
  for (const auto& c : world.landscape_view()->cells) drawn.push_back(c.cell_id);
  std::ranges::sort(drawn);
  std::vector<std::uint32_t> rooms;
  for (const demo::DungeonRoom& room : demo::kDungeonRooms) rooms.push_back(room.cell);
  CHECK(drawn == rooms);

  SECTION("east through the corridor into the great hall, stopped by its far wall") {
    std::vector<std::uint32_t> visited;
    for (int i = 0; i < 140; ++i) {  // 35 m east
      walk(*w, 1, {0.25F, 0, 0});
      const std::uint32_t c = w->position().objcell_id;
      if (visited.empty() || visited.back() != c) visited.push_back(c);
    }
    CHECK(visited == std::vector<std::uint32_t>{kEntry, kCorridor, kHall});
    // The hall's east wall is at x 98; the walker's sphere is 0.5 m.
    CHECK(w->position().frame.origin.x == Approx(in_room(2, {14, 0, 0}).x - 0.5F).margin(1e-3));
    CHECK(w->position().frame.origin.z == Approx(kFloor).margin(1e-3));
  }
  SECTION("north into the entry hall's wall: stopped, still in the entry hall") {
    walk(*w, 40, {0, 0.25F, 0});  // 10 m north; the wall is 5 m away
    CHECK(w->position().objcell_id == kEntry);
    CHECK(w->position().frame.origin.y == Approx(in_room(0, {0, 10, 0}).y - 0.5F).margin(1e-3));
  }
  SECTION("east beside the doorway: the wall stops the walker in the entry hall") {
    auto beside = walker(world, 2, kEntry, in_room(0, {3, 1.5F, 0}));
    walk(*beside, 40, {0.25F, 0, 0});
    CHECK(beside->position().objcell_id == kEntry);
    CHECK(beside->position().frame.origin.x == Approx(in_room(0, {10, 0, 0}).x - 0.5F).margin(1e-3));
  }
}

TEST_CASE("Demo world: the dungeon is not resident while the player is in the town", "[app][demo][dungeon]") {
  core::ManualClock clock;
  app::World world(clock, &demo_dats().portal);
  REQUIRE(world.use_terrain(&demo_dats().cell));
  dereth::test::load_grid(world, 0xA9B40016);
  sim::CellSource& cells = *world.context().cells;
  CHECK(cells.get_cell(0xA9B40016) != nullptr);
  for (const demo::DungeonRoom& room : demo::kDungeonRooms) CHECK(cells.get_cell(room.cell) == nullptr);
  REQUIRE(world.landscape_view() != nullptr);
  for (const auto& c : world.landscape_view()->cells) CHECK((c.cell_id >> 16) == (demo::kLandBlock >> 16));
}
