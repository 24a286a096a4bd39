// The visible EnvCells (RE ccell/CEnvCell.c GetVisible, add_visible_cell,
// grab_visible, release_visible, grab_visible_cells, release_cells,
// flush_cells; ccell/CLandBlock.c init_buildings, grab_visible_cells,
// release_all; cgeometry/CBldPortal.c add_to_stablist; lscape/LScape.c
// grab_visible_cells, release_visible_cells; smartbox/CellManager.c
// ChangePosition, Reset; ccell/CObjCell.c Get, find_cell_list): EnvCells
// are held only while a building's stab list or the player's cell sees
// them, and a cell not seen from outside lets the landscape go.
//
// The town: flat landblocks x 0xA5 to 0xAD at y 0xB0 to 0xB8 (grid radius
// 1); at 0xA9B4 the house over its room (house_support.hpp), whose doors
// see the room and a closet; a dungeon of three cells under the block, the
// first seeing the second only, none seen from outside.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/cells/cell_manager.hpp"
#include "dereth/sim/cells/landscape.hpp"

#include "cells/house_support.hpp"
#include "cells/landscape_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

constexpr std::uint32_t kHouseBlock = 0xA9B4FFFF;
constexpr std::uint32_t kLand = 0xA9B40013;  // holds (60, 62)
constexpr std::uint32_t kCloset = 0xA9B40104;
constexpr std::uint32_t kDungeon = 0xA9B40201;
constexpr std::uint32_t kDungeonNext = 0xA9B40202;
constexpr std::uint32_t kDungeonFar = 0xA9B40203;
const core::Frame kHouseFrame(glm::vec3(60, 60, 10), glm::quat(1, 0, 0, 0));

Position at(std::uint32_t cell_id, glm::vec3 origin) {
  return Position{cell_id, core::Frame(origin, glm::quat(1, 0, 0, 0))};
}

std::unique_ptr<EnvCell> bare_cell(std::uint32_t id, glm::vec3 origin, std::vector<std::uint32_t> stabs) {
  auto cell = std::make_unique<EnvCell>(id, at(id, origin), room_structure(), std::vector<CellPortal>{});
  cell->set_stab_list(std::move(stabs));
  return cell;
}

struct Town {
  Town() {
    loader.blocks = [](std::uint32_t id) -> std::optional<LandBlockStruct> {
      const std::uint32_t x = id >> 24;
      const std::uint32_t y = (id >> 16) & 0xFFu;
      if (x < 0xA5 || x > 0xAD || y < 0xB0 || y > 0xB8) return std::nullopt;
      return flat_block(id);
    };
    loader.env_cells = [this](std::uint32_t id) -> std::unique_ptr<EnvCell> {
      ++asked[id];
      if (id == kRoom) {
        auto r = room(kHouseFrame);
        r->set_seen_outside(true);
        return r;
      }
      if (id == kCloset) return bare_cell(id, {70, 60, 10}, {});
      if (id == kDungeon) return bare_cell(id, {100, 100, -50}, {kDungeonNext});
      if (id == kDungeonNext) return bare_cell(id, {104, 100, -50}, {kDungeon});
      if (id == kDungeonFar) return bare_cell(id, {108, 100, -50}, {});
      return nullptr;
    };
    loader.buildings = [](std::uint32_t id) {
      std::vector<Building> out;
      if ((id | 0xFFFFu) != kHouseBlock) return out;
      Building house = house_building(kHouseFrame);
      house.portals.front().stab_list = {kRoom, kRoom};
      house.portals.push_back(BuildingPortal{kRoom, 1, true, {kCloset, kRoom}});
      out.push_back(std::move(house));
      return out;
    };
    REQUIRE(landscape.set_mid_radius(1));
    loader.env_static_objects = [this](EnvCell& c) { inits.push_back(c.id()); };
    loader.env_cell_freed = [this](std::uint32_t id) { freed.push_back(id); };
    manager.set_landscape(&landscape);
  }
  std::map<std::uint32_t, int> asked;
  std::vector<std::uint32_t> inits;
  std::vector<std::uint32_t> freed;
  TestLandscapeLoader loader;
  Landscape landscape{&loader};
  CellManager manager;

  void go(std::uint32_t cell_id, glm::vec3 origin) { manager.change_position(at(cell_id, origin), false); }
};

using Ids = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE(
    "CEnvCell::GetVisible 0x0052DC10 loads nothing, and LScape::grab_visible_cells 0x00504EC0 makes the blocks' "
    "stab lists visible (CLandBlock::init_buildings 0x0052FD80, CBldPortal::add_to_stablist 0x0053BB60, "
    "CLandBlock::grab_visible_cells 0x0052F460) (CBuildingObj::add_to_stablist 0x006B51B0, CEnvCell::grab_visible "
    "0x0052E040, CEnvCell::add_visible_cell 0x0052DE40)",
    "[retail]"
    "[sim]") {
  Town t;
  // No cell is visible yet: asking loads nothing.
  CHECK(t.landscape.get_cell(kRoom) == nullptr);
  CHECK(t.landscape.get_cell(kDungeon) == nullptr);
  CHECK(t.asked.empty());

  t.go(kLand, {50, 50, 10});
  // The two doors' stab lists, each cell once, in the order first seen.
  CHECK(t.landscape.block_stab_list(kHouseBlock) == Ids{kRoom, kCloset});
  CHECK(t.landscape.loaded_env_cells() == Ids{kRoom, kCloset});
  CHECK(t.landscape.get_cell(kRoom) != nullptr);
  CHECK(t.asked[kRoom] == 1);
  CHECK(t.asked[kCloset] == 1);
  // CEnvCell::flush_cells 0x0052DEF0 ran each visible cell's init_static_objects.
  CHECK(t.inits == Ids{kRoom, kCloset});
  // The dungeon is in no stab list: still nothing.
  CHECK(t.landscape.get_cell(kDungeon) == nullptr);
  CHECK(t.asked[kDungeon] == 0);
}

TEST_CASE(
    "CEnvCell::release_visible 0x0052E080 keeps a released cell for CEnvCell::add_visible_cell 0x0052DE40 "
    "until CEnvCell::flush_cells 0x0052DEF0 frees it, and CLandBlock::release_all 0x0052FCF0 releases the stab list",
    "[retail][sim]") {
  Town t;
  t.go(kLand, {50, 50, 10});
  EnvCell* room_cell = dynamic_cast<EnvCell*>(t.landscape.get_cell(kRoom));
  REQUIRE(room_cell != nullptr);

  const Ids room_only = {kRoom};
  t.landscape.release_visible(room_only);
  CHECK(t.landscape.get_cell(kRoom) == nullptr);
  CHECK(t.landscape.released_env_cells() == Ids{kRoom});
  // Grabbed again before a flush: the same cell, not read again.
  CHECK(t.landscape.add_visible_cell(kRoom) == room_cell);
  CHECK(t.asked[kRoom] == 1);
  CHECK(t.landscape.released_env_cells().empty());

  t.landscape.release_visible(room_only);
  t.landscape.flush_cells();
  CHECK(t.freed == Ids{kRoom});
  CHECK(t.landscape.released_env_cells().empty());
  CHECK(t.landscape.add_visible_cell(kRoom) != nullptr);
  CHECK(t.asked[kRoom] == 2);

  // The grid leaves the house's block (4 blocks west: every block
  // released): its stab list goes with it, freed by the change's flush.
  t.freed.clear();
  t.go(0xA5B40013, {60, 62, 10});
  CHECK(t.landscape.side_cell_count(kHouseBlock) == 0);
  CHECK(t.landscape.loaded_env_cells().empty());
  CHECK(t.landscape.released_env_cells().empty());
  CHECK(t.freed == Ids{kRoom, kCloset});
}

TEST_CASE(
    "CellManager::ChangePosition 0x004559B0 into a cell not seen from outside releases the landscape and keeps "
    "only the cell's own stab list (CEnvCell::grab_visible_cells 0x0052E220, CEnvCell::release_cells "
    "0x0052E280, CLandCell::release_cells 0x00532DA0) (LScape::release_visible_cells 0x00504F50, CObjCell::Get "
    "0x0052B180)",
    "[retail][sim]") {
  Town t;
  t.go(kLand, {50, 50, 10});
  REQUIRE(t.landscape.block_count() == 9);

  t.go(kDungeon, {102, 102, -49});
  CHECK(t.landscape.block_count() == 0);
  CHECK(t.landscape.loaded_cell_id() == 0);
  CHECK(t.landscape.loaded_env_cells() == Ids{kDungeon, kDungeonNext});
  CHECK(t.freed == Ids{kRoom, kCloset});  // flushed in id order
  CHECK(t.landscape.get_cell(kDungeonFar) == nullptr);
  CHECK(t.asked[kDungeonFar] == 0);
  CHECK(t.manager.has_curr_cell());

  // Into the next cell: the first stays (the next cell sees it), read once.
  t.freed.clear();
  t.go(kDungeonNext, {106, 102, -49});
  CHECK(t.landscape.loaded_env_cells() == Ids{kDungeon, kDungeonNext});
  CHECK(t.freed.empty());
  CHECK(t.asked[kDungeon] == 1);

  // Back outside: the dungeon goes, the grid and the house's stab list come back.
  t.go(kLand, {50, 50, 10});
  CHECK(t.landscape.block_count() == 9);
  CHECK(t.landscape.loaded_env_cells() == Ids{kRoom, kCloset});
  CHECK(t.freed == Ids{kDungeon, kDungeonNext});
}

TEST_CASE(
    "CellManager::ChangePosition 0x004559B0 into a cell seen from outside keeps the landscape, centred on the "
    "outside cell under it (CEnvCell::grab_visible_cells 0x0052E220)",
    "[retail][sim]") {
  Town t;
  t.go(kLand, {50, 50, 10});
  t.go(kRoom, {62, 62, 10.5f});
  CHECK(t.landscape.block_count() == 9);
  CHECK(t.landscape.loaded_cell_id() == kLand);
  CHECK(t.landscape.loaded_env_cells() == Ids{kRoom, kCloset});
  // The room was released by the land cell and grabbed back before the flush.
  CHECK(t.freed.empty());
  CHECK(t.asked[kRoom] == 1);
}

TEST_CASE(
    "CellManager::Reset 0x00455930 releases the landscape only from an outdoor load cell or a cell seen from "
    "outside (CellManager::ChangePosition 0x004559B0)",
    "[retail][sim]") {
  SECTION("from a dungeon cell, the landscape kept (keep_lscape_loaded): it stays") {
    Town t;
    t.manager.set_keep_lscape_loaded(true);
    t.go(kLand, {50, 50, 10});
    t.go(kDungeon, {102, 102, -49});
    CHECK(t.landscape.block_count() == 9);
    CHECK(t.landscape.loaded_env_cells() == Ids{kDungeon, kDungeonNext});
    t.manager.reset();
    CHECK(t.landscape.block_count() == 9);
    CHECK(t.landscape.loaded_env_cells().empty());
    CHECK_FALSE(t.manager.has_curr_cell());
  }
  SECTION("from the room seen from outside: released") {
    Town t;
    t.go(kRoom, {62, 62, 10.5f});
    REQUIRE(t.landscape.block_count() == 9);
    t.manager.reset();
    CHECK(t.landscape.block_count() == 0);
  }
  SECTION("from outdoors: released") {
    Town t;
    t.go(kLand, {50, 50, 10});
    t.manager.reset();
    CHECK(t.landscape.block_count() == 0);
    // The land cell's release_cells let the stab list go before the flush.
    CHECK(t.landscape.loaded_env_cells().empty());
    CHECK(t.landscape.released_env_cells().empty());
    CHECK(t.freed == Ids{kRoom, kCloset});
  }
}

TEST_CASE(
    "CObjCell::find_cell_list 0x0052B4E0 with do_not_load_cells keeps, from an EnvCell, only that cell and its "
    "stab list's (CEnvCell::find_transit_cells 0x0052C820)",
    "[retail][sim]") {
  // The house on a cell line (x 72): from the room at its doorway, the
  // outside portal brings in the land cell there (0x1B) and, the sphere
  // within its radius of the line, the one west of it (0x13).
  const core::Frame frame(glm::vec3(72, 60, 10), glm::quat(1, 0, 0, 0));
  constexpr std::uint32_t kEastLand = 0xA9B4001B;
  constexpr std::uint32_t kWestLand = 0xA9B40013;
  Landscape landscape;
  std::vector<Building> buildings;
  buildings.push_back(house_building(frame));
  REQUIRE(landscape.add_block(flat_block(kHouseBlock), std::move(buildings)));
  REQUIRE(landscape.add_env_cell(room(frame)));
  auto* room_cell = dynamic_cast<EnvCell*>(landscape.get_cell(kRoom));
  REQUIRE(room_cell != nullptr);
  const CollisionSphere s{glm::vec3(72.3f, 62, 10.5f), 0.5f};
  const Position p = at(kRoom, s.center);
  const auto ids = [](const CellArray& a) {
    Ids out;
    for (const CellArrayEntry& e : a.cells) out.push_back(e.cell_id);
    return out;
  };
  CellArray loading;
  ObjCell* curr = nullptr;
  landscape.find_cell_list(p, 1, &s, loading, curr);
  REQUIRE(ids(loading) == Ids{kRoom, kEastLand, kWestLand});

  CellArray pruned;
  pruned.do_not_load_cells = true;
  landscape.find_cell_list(p, 1, &s, pruned, curr);
  CHECK(ids(pruned) == Ids{kRoom});
  CHECK(curr == room_cell);

  // A stab list naming the west cell keeps it: the east one goes, the last
  // entry moving into its place (CELLARRAY::remove_cell).
  room_cell->set_stab_list({kWestLand});
  landscape.find_cell_list(p, 1, &s, pruned, curr);
  CHECK(ids(pruned) == Ids{kRoom, kWestLand});
  // Without the flag nothing is pruned.
  landscape.find_cell_list(p, 1, &s, loading, curr);
  CHECK(ids(loading) == Ids{kRoom, kEastLand, kWestLand});
}
