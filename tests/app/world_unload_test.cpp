// Landblock unloading in the world (LScape::update_loadpoint through
// CellManager::UpdateLoadPoint, docs/sim.md "Landblock unloading"): five
// flat landblocks in a row, 0xA8B4 to 0xACB4, each with a rock (a static
// object) at (40, 60, 10), and in 0xAAB4 a room (an EnvCell) with a rock of
// its own. A walker goes east along y 12 and back with the kept grid's
// radius 1; after each block the loaded blocks are the grid's, the released
// blocks' statics, rooms and drawn cells are gone, and no shadow points at a
// released cell.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "world_support.hpp"

using namespace dereth;
using dereth::test::make_dat;
using dereth::test::walk;
using dereth::test::walker;

namespace {

constexpr dat::Did kRock = 0x01000500;
constexpr dat::Did kEnvironment = 0x0D000500;
constexpr std::uint32_t kRoom = 0xAAB40100;

constexpr std::uint32_t block(int x) {
  return (static_cast<std::uint32_t>(x) << 24) | 0x00B4FFFFu;
}

std::vector<std::uint32_t> blocks(int from, int to) {
  std::vector<std::uint32_t> out;
  for (int x = from; x <= to; ++x) out.push_back(block(x));
  return out;
}

struct Dats {
  Dats() {
    dat::GfxObj rock;  // drawn only: no physics BSP, no spheres
    rock.id = kRock;
    portal = make_dat({{0x13000000, dereth::test::linear_region()},
                       {kRock, dat::write_gfx_obj(rock)},
                       {kEnvironment, dat::write_environment(dereth::test::floor_room_environment(kEnvironment))}},
                      dat::DatKind::Portal, "portal");
    const glm::quat identity(1, 0, 0, 0);
    std::vector<dat::DatRecord> records;
    for (int x = 0xA8; x <= 0xAC; ++x) {
      dat::LandBlock b;
      b.id = block(x);
      for (auto& h : b.height) h = 5;  // z 10
      records.push_back({block(x), dat::write_land_block(b)});
      dat::LandBlockInfo info;
      info.id = block(x) - 1u;
      info.objects = {dat::Stab{kRock, dat::Frame{{40, 60, 10}, identity}}};
      if (x == 0xAA) {
        // A hut over the room, its door seeing it (the block's stab list:
        // the room is visible while the block is at full detail).
        info.num_cells = 1;
        dat::BuildingInfo hut;
        hut.model_id = kRock;
        hut.frame = dat::Frame{{100, 100, 10}, identity};
        hut.portals = {dat::BuildingPortal{
            0, static_cast<std::uint16_t>(kRoom & 0xFFFFu), 0, {static_cast<std::uint16_t>(kRoom & 0xFFFFu)}}};
        info.buildings = {hut};
      }
      records.push_back({block(x) - 1u, dat::write_land_block_info(info)});
    }
    dat::EnvCell room;
    room.id = kRoom;
    room.flags = dat::env_cell_flags::kHasStaticObjs;
    room.environment_id = static_cast<std::uint16_t>(kEnvironment & 0xFFFFu);
    room.position = dat::Frame{{100, 100, 0}, identity};
    room.static_objects = {dat::Stab{kRock, dat::Frame{{110, 110, 0}, identity}}};
    records.push_back({kRoom, dat::write_env_cell(room)});
    std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    cell = make_dat(records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

// Every static object stands in a loaded cell, and every shadow of every
// object is in a loaded cell (that cell itself) or in none.
void check_no_dangling(const app::World& world, const sim::PhysicsObj& mover) {
  const sim::Landscape& scape = *world.landscape();
  const auto check_shadows = [&](const sim::PhysicsObj& obj) {
    for (const sim::ShadowObj& s : obj.shadow_objects()) {
      if (s.cell != nullptr) CHECK(s.cell == scape.loaded_cell(s.cell_id));
    }
  };
  for (const auto& obj : world.static_objects()) {
    REQUIRE(obj->cell() != nullptr);
    CHECK(obj->cell() == scape.loaded_cell(obj->cell()->id()));
    check_shadows(*obj);
  }
  check_shadows(mover);
  CHECK(mover.cell() == scape.loaded_cell(mover.position().objcell_id));
}

// The blocks (0xXXYY0000) the statics stand in, ascending, repeats kept.
std::vector<std::uint32_t> statics_blocks(const app::World& world) {
  std::vector<std::uint32_t> out;
  for (const auto& obj : world.static_objects()) out.push_back(obj->cell()->id() & 0xFFFF0000u);
  std::sort(out.begin(), out.end());
  return out;
}

bool view_has_room(const app::World& world) {
  if (!world.landscape_view()) return false;
  const auto& cells = world.landscape_view()->cells;
  return std::any_of(cells.begin(), cells.end(), [](const auto& c) { return c.cell_id == kRoom; });
}

// A world over the five blocks with LScape's grid of `radius`.
struct Scene {
  explicit Scene(int radius) {
    REQUIRE(world.use_terrain(dats.cell.get()));
    REQUIRE(world.set_mid_radius(radius));
  }
  Dats dats;
  core::ManualClock clock;
  app::World world{clock, dats.portal.get()};
};

}  // namespace

TEST_CASE(
    "World::change_position (CellManager::ChangePosition 0x004559B0) releases the blocks LScape::update_loadpoint "
    "0x00506CD0's "
    "grid leaves (CLandBlock::release_all 0x0052FCF0)",
    "[app][retail]") {
  Scene scene(1);
  app::World& world = scene.world;
  const sim::Landscape& scape = *world.landscape();

  auto w = walker(world, 1, 0xA8B40001u, {12, 12, 10});  // the grid around it, as the player's
  CHECK_FALSE(world.set_mid_radius(2));                  // a load point is set
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xA9));
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xA8B40000u, 0xA9B40000u});
  check_no_dangling(world, *w);

  // Into 0xA9B4: the grid reaches 0xAAB4; its hut's door sees its room.
  walk(*w, 48, {4, 0, 0});
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xA9B40000u);
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xAA));
  REQUIRE(world.context().cells->get_cell(kRoom) != nullptr);
  CHECK(scape.loaded_env_cells() == std::vector<std::uint32_t>{kRoom});
  CHECK(world.static_objects().size() == 4);  // three rocks and the room's
  CHECK(view_has_room(world));
  check_no_dangling(world, *w);

  // Into 0xAAB4 and 0xABB4: 0xA8B4 and 0xA9B4 go, their rocks with them.
  walk(*w, 48, {4, 0, 0});
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xA9, 0xAB));
  walk(*w, 48, {4, 0, 0});
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xABB40000u);
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xAA, 0xAC));
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xAAB40000u, 0xAAB40000u, 0xABB40000u, 0xACB40000u});
  check_no_dangling(world, *w);

  // Into 0xACB4: 0xAAB4 goes with its room and the room's rock, and the
  // drawn view loses the room.
  walk(*w, 48, {4, 0, 0});
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xACB40000u);
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xAB, 0xAC));
  CHECK(scape.loaded_env_cells().empty());
  CHECK(scape.loaded_cell(kRoom) == nullptr);
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xABB40000u, 0xACB40000u});
  CHECK_FALSE(view_has_room(world));
  check_no_dangling(world, *w);

  // Back west to 0xA9B4: the released blocks load again with their rocks,
  // and the hut's room.
  for (int i = 0; i < 3; ++i) {
    walk(*w, 48, {-4, 0, 0});
    dereth::test::load_grid(world, w->position().objcell_id);
    check_no_dangling(world, *w);
  }
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xA9B40000u);
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xAA));
  // The room's rock too: the hut's door sees the room again.
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xA8B40000u, 0xA9B40000u, 0xAAB40000u, 0xAAB40000u});
  CHECK(view_has_room(world));  // the block's view is back as it loads
  REQUIRE(world.context().cells->get_cell(kRoom) != nullptr);
  CHECK(world.static_objects().size() == 4);
  check_no_dangling(world, *w);
}

TEST_CASE(
    "World: only LScape's full-detail blocks (the 3 x 3 around the load point) have static objects, "
    "a block turning coarse destroys them and lets its rooms go (CLandBlock::notify_change_size 0x005302C0) "
    "(CLandBlock::init_static_objs 0x00530A40, LScape::grab_visible_cells 0x00504EC0)",
    "[app][retail]") {
  Scene scene(2);
  app::World& world = scene.world;
  const sim::Landscape& scape = *world.landscape();

  auto w = walker(world, 1, 0xA8B40001u, {12, 12, 10});  // the grid around it, as the player's
  // 0xAAB4 is two blocks east: loaded, at half detail, with no rock.
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xAA));
  CHECK(scape.side_cell_count(block(0xAA)) == 4);
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xA8B40000u, 0xA9B40000u});
  check_no_dangling(world, *w);

  // Into 0xA9B4: 0xAAB4 turns full and gets its rock, its hut and the room
  // the hut's door sees.
  walk(*w, 48, {4, 0, 0});
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xA9B40000u);
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.side_cell_count(block(0xAA)) == 8);
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xA8B40000u, 0xA9B40000u, 0xAAB40000u, 0xAAB40000u});
  REQUIRE(world.context().cells->get_cell(kRoom) != nullptr);
  CHECK(world.static_objects().size() == 4);
  CHECK(view_has_room(world));
  check_no_dangling(world, *w);

  // Into 0xAAB4, then 0xABB4 and 0xACB4: 0xA8B4 stays loaded but coarse,
  // its rock gone; at 0xACB4, 0xAAB4 is coarse: its room and both its rocks
  // go, and the drawn view loses the room.
  walk(*w, 48, {4, 0, 0});
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xAC));
  CHECK(scape.side_cell_count(block(0xA8)) == 4);
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xA9B40000u, 0xAAB40000u, 0xAAB40000u, 0xABB40000u});
  check_no_dangling(world, *w);
  walk(*w, 48, {4, 0, 0});
  dereth::test::load_grid(world, w->position().objcell_id);
  walk(*w, 48, {4, 0, 0});
  REQUIRE((w->position().objcell_id & 0xFFFF0000u) == 0xACB40000u);
  dereth::test::load_grid(world, w->position().objcell_id);
  CHECK(scape.loaded_blocks() == blocks(0xAA, 0xAC));
  CHECK(scape.side_cell_count(block(0xAA)) == 4);
  CHECK(scape.loaded_env_cells().empty());
  CHECK(statics_blocks(world) == std::vector<std::uint32_t>{0xABB40000u, 0xACB40000u});
  CHECK_FALSE(view_has_room(world));
  check_no_dangling(world, *w);
}

TEST_CASE(
    "CellManager::ChangePosition 0x004559B0 blocking, at the player's CreateObject and at a teleport "
    "(SmartBox::PlayerPositionUpdated 0x00453870): the landscape goes at once and the grid loads again "
    "on the next tick (SmartBox::TeleportPlayer 0x00453910)",
    "[app][retail]") {
  constexpr std::uint32_t kPlayer = 0x50000001;
  Scene scene(1);
  app::World& world = scene.world;
  core::ManualClock& clock = scene.clock;
  const sim::Landscape& scape = *world.landscape();
  // A grid already loaded (as a player in another cell of the block had it)
  // before the player's CreateObject. (From the same cell ChangePosition
  // would do nothing: the load position's cell is found.)
  dereth::test::load_grid(world, 0xA9B40009u);
  REQUIRE(scape.block_count() == 3);
  REQUIRE(world.static_objects().size() == 4);  // three rocks and the room's

  world.assume_player(kPlayer);
  protocol::CreateObject create;
  create.guid = kPlayer;
  create.physics.state = 0x00400C08;
  create.physics.position = protocol::Position{0xA9B40001u, {12, 12, 10}, {1, 0, 0, 0}};
  create.weenie.name = "Tester";
  world.handle(protocol::encode(create));
  const sim::PhysicsObj* player = world.box().player();
  REQUIRE(player != nullptr);
  // Blocking: LScape::release_all before enter_world, so the player is
  // placed lost, as is every object the released cells held.
  CHECK(scape.block_count() == 0);
  CHECK(scape.loaded_cell_id() == 0);
  CHECK(world.static_objects().empty());  // the room too: freed by the change's flush
  CHECK(scape.loaded_env_cells().empty());
  CHECK(player->cell() == nullptr);
  CHECK(player->position().objcell_id == 0xA9B40001u);

  // The next tick's ChangePosition (not blocking) loads the grid, and the
  // player comes in from the lost cell.
  clock.advance(core::Seconds{0.05});
  world.step();
  CHECK(scape.loaded_blocks() == blocks(0xA8, 0xAA));
  CHECK(world.static_objects().size() == 4);
  REQUIRE(player->cell() != nullptr);
  CHECK(player->cell()->id() == 0xA9B40001u);

  // A teleport inside the grid: TeleportPlayer places the player, then the
  // blocking ChangePosition releases the landscape; the next tick loads the
  // grid around the new cell.
  protocol::UpdatePosition tp;
  tp.guid = kPlayer;
  tp.position.cell_id = 0xAAB40001u;
  tp.position.origin = {12, 12, 10};
  tp.position.qw = 1.0f;
  tp.position.qx = tp.position.qy = tp.position.qz = 0.0f;
  tp.position.position_ts = 1;
  tp.position.teleport_ts = 1;
  clock.advance(core::Seconds{0.05});
  world.handle(protocol::encode(tp));
  CHECK(scape.block_count() == 0);
  CHECK(world.static_objects().empty());
  CHECK(player->cell() == nullptr);
  CHECK(player->position().objcell_id == 0xAAB40001u);
  clock.advance(core::Seconds{0.05});
  world.step();
  CHECK(scape.loaded_blocks() == blocks(0xA9, 0xAB));
  REQUIRE(player->cell() != nullptr);
  CHECK(player->cell()->id() == 0xAAB40001u);
}
