// Issue 32 section 6 through the window (docs/streaming.md): the demo world on
// two stream workers, drawn by the offscreen window's renderer with a load
// budget and two asset workers, as `dereth demo` and `dereth play` run it.
// 100 teleports leave the live objects, landblocks, GPU caches and memory
// where the first two left them; a corrupt landblock is drawn as flat ground
// and the game goes on; with the builds held (a ManualExecutor), the
// generation races of a teleport and of a walk across seams, and a static's
// shadow across a seam leaving with its neighbour's demotion and coming back
// with its promotion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <unistd.h>

#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"
#include "dereth/sim/collision/obj_cell.hpp"
#include "dereth/sim/object/shadow_obj.hpp"

#include "window_support.hpp"
#include "world_support.hpp"

using namespace dereth;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kTownCell = 0xA9B40001;  // the outdoor cell of (10, 10)

// The process's resident memory, from /proc/self/statm (0 where unreadable).
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  std::size_t resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

protocol::Position at(std::uint32_t cell, glm::vec3 origin) {
  return protocol::Position{cell, {origin.x, origin.y, origin.z}, {1, 0, 0, 0}};
}

// The player's CreateObject: with `shaped`, the demo's humanoid Setup (its
// spheres walk it through transitions).
void create_player(app::World& world, std::uint32_t cell, glm::vec3 origin, bool shaped = false) {
  protocol::CreateObject player;
  if (shaped) player.physics.setup_id = demo::kHumanSetup;
  player.guid = kPlayer;
  player.physics.state = 0x00400C08;
  player.physics.position = at(cell, origin);
  player.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
  player.weenie.name = "Tester";
  player.weenie.item_type = 0x10;
  world.handle(protocol::encode(protocol::PlayerCreate{kPlayer}));
  world.handle(protocol::encode(player));
}

// The server sends the player to `origin` in `cell`: an UpdatePosition
// whose teleport stamp `stamp` is newer than the last.
void teleport(app::World& world, std::uint32_t cell, glm::vec3 origin, std::uint16_t stamp) {
  protocol::UpdatePosition m;
  m.guid = kPlayer;
  m.position.cell_id = cell;
  m.position.origin = {origin.x, origin.y, origin.z};
  m.position.qw = 1.0F;
  m.position.instance_ts = 1;
  m.position.position_ts = stamp;
  m.position.teleport_ts = stamp;
  world.handle(protocol::encode(m));
}

// The world, its frame loop and the offscreen window as a live session has
// them: two stream workers, a 4 ms load budget and two asset workers.
struct WindowWorld {
  // `make_executor`, when given, runs the builds instead of the two workers.
  WindowWorld(const dat::DatFile& portal, const dat::DatFile& cell, std::unique_ptr<app::WindowPresenter> w,
              std::function<std::unique_ptr<sim::StreamExecutor>()> make_executor = {})
      : window(std::move(w)), world(clock, &portal) {
    app::StreamOptions streaming;
    streaming.workers = 2;
    streaming.make_executor = std::move(make_executor);
    streaming.gate_limit = 0.0;  // a loaded test machine must not make it give up
    REQUIRE(world.use_terrain(&cell, streaming));
    // The frame loop hands the window's readiness to the world's loader.
    loop = std::make_unique<app::FrameLoop>(world, inbox, &clock, window.get(), nullptr, app::LoopOptions{});
  }
  // One frame: 50 ms of the world's clock, a step, the window drawn.
  void frame() {
    clock.advance(core::Seconds{0.05});
    world.step();
    REQUIRE(window->present(*world.snapshot(), app::FrameInfo{}).has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Frames until `done`; false after 60 s of wall time.
  template <class Done>
  bool frames_until(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      frame();
    }
    return true;
  }
  // Frames until the teleport is over and the window drew everything it asked for.
  bool arrive() {
    return frames_until([&] {
      return !world.box().teleport_in_progress() && world.landscape_loader()->streamer().in_flight() == 0 &&
             window->report_renderer()->render_ready();
    });
  }

  std::unique_ptr<app::WindowPresenter> window;
  core::ManualClock clock{core::Seconds{1.0}};
  app::World world;
  dereth::test::WindowControls::NoInbox inbox;
  std::unique_ptr<app::FrameLoop> loop;
};

// A WindowWorld's executor that holds every build until the test runs it,
// in the order it chooses; `jobs` is set to it.
std::function<std::unique_ptr<sim::StreamExecutor>()> hold_builds(sim::ManualExecutor*& jobs) {
  return [&jobs] {
    auto manual = std::make_unique<sim::ManualExecutor>();
    jobs = manual.get();
    return manual;
  };
}

app::WindowOptions live_window_options() {
  app::WindowOptions options;
  options.width = 160;
  options.height = 90;
  options.load_budget_ms = 4.0F;
  options.asset_workers = 2;
  return options;
}

// What must not grow over the teleports.
struct Live {
  std::size_t objects = 0;
  std::size_t blocks = 0;
  std::size_t env_cells = 0;
  std::size_t statics = 0;
  std::size_t resident_landblocks = 0;
  std::size_t terrain_surfaces = 0;
  std::size_t gpu_mesh_bytes = 0;
  bool operator==(const Live&) const = default;
};

// The outdoor cell of block `block` (0xXXYY0000) holding the block-local
// point (x, y).
std::uint32_t outdoor_cell(std::uint32_t block, float x, float y) {
  return block | (static_cast<std::uint32_t>(x / 24.0F) * 8U + static_cast<std::uint32_t>(y / 24.0F) + 1U);
}

constexpr std::uint32_t kSouthBlock = 0xA9B30000;     // the block south of the town's
constexpr std::uint32_t kTownBlock = 0xA9B40000;      // the town's
constexpr std::uint32_t kNorthBlock = 0xA9B50000;     // one north
constexpr std::uint32_t kFarNorthBlock = 0xA9B60000;  // two north: Far while the player is in the town

// The demo's cell DAT with one more static in the town's LandBlockInfo: the
// house model standing 0.2 m north of the south seam, its bound reaching
// into the south block's cells.
const dat::DatFile& seam_cell_dat() {
  static const std::unique_ptr<dat::DatFile> dat = [] {
    const dat::DatFile& demo = dereth::test::demo_dats().cell;
    auto entries = demo.entries();
    REQUIRE(entries.has_value());
    std::vector<dat::DatRecord> records;
    for (const dat::DatEntry& e : *entries) {
      auto bytes = demo.read(e);
      REQUIRE(bytes.has_value());
      if (e.id == demo::kLandBlockInfo) {
        auto info = dat::read_land_block_info(*bytes, e.id);
        REQUIRE(info.has_value());
        info->objects.push_back(dat::Stab{demo::kHouseModel, dat::Frame{{40.0F, 0.2F, 20.0F}, {1, 0, 0, 0}}});
        *bytes = dat::write_land_block_info(*info);
      }
      records.push_back({e.id, std::move(*bytes)});
    }
    return dereth::test::make_dat(records, dat::DatKind::Cell, "seam");
  }();
  return *dat;
}

// Runs every held build except those building `keep`.
void run_all_but(sim::ManualExecutor& jobs, sim::StreamJobTag keep) {
  for (std::size_t i = 0; i < jobs.held();) {
    if (jobs.tag(i) == keep) {
      ++i;
    } else {
      jobs.run(i);
    }
  }
}

Live live(WindowWorld& w) {
  const render::Renderer& r = *w.window->report_renderer();
  return Live{w.world.box().objects().objects().size(),
              w.world.landscape()->block_count(),
              w.world.landscape()->loaded_env_cells().size(),
              w.world.static_objects().size(),
              w.world.landscape_loader()->streamer().resident_count(),
              r.terrain_cache_stats().resident,
              r.stats().mesh_cache_bytes};
}

}  // namespace

TEST_CASE(
    "In the window on stream and asset workers, 100 teleports between the demo's dungeon and its town leave the "
    "live objects, landblocks, GPU caches and memory where the first two left them",
    "[app][streaming][window]") {
  auto window = dereth::test::offscreen_window(live_window_options());
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  WindowWorld w(dats.portal, dats.cell, std::move(window));
  const glm::vec3 town{10.0F, 10.0F, 0.0F};
  const glm::vec3 dungeon = demo::kDungeonRooms[0].origin + glm::vec3(5.0F, 5.0F, 0.0F);
  create_player(w.world, kTownCell, town);
  REQUIRE(w.arrive());

  std::vector<Live> seen;
  std::vector<std::size_t> memory;
  for (std::uint16_t i = 1; i <= 100; ++i) {
    const bool to_dungeon = (i % 2) == 1;
    const std::uint32_t cell = to_dungeon ? demo::kDungeonEntryCell : kTownCell;
    teleport(w.world, cell, to_dungeon ? dungeon : town, i);
    INFO("teleport " << i);
    REQUIRE(w.world.box().teleport_in_progress());
    REQUIRE(w.arrive());
    // The window drew the destination: the player stands in its cell.
    REQUIRE(w.world.box().player() != nullptr);
    CHECK(w.world.box().player()->position().objcell_id == cell);
    seen.push_back(live(w));
    memory.push_back(resident_bytes());
  }
  CHECK(seen[0].blocks == 0);  // no outdoor block: the dungeon
  CHECK(seen[0].env_cells == demo::kDungeonRooms.size());
  CHECK(seen[1].blocks > seen[0].blocks);  // the town's grid
  CHECK(seen[1].terrain_surfaces > 0);
  CHECK(seen[98] == seen[0]);
  CHECK(seen[99] == seen[1]);
  // Memory: after the first ten trips the caches are warm; ninety more add
  // nothing beyond allocator noise.
  if (memory[9] != 0) {
    INFO("resident after 10 teleports " << memory[9] / 1024 << " KiB, after 100 " << memory[99] / 1024 << " KiB");
    CHECK(memory[99] < memory[9] + (std::size_t{8} << 20U));
  }
}

TEST_CASE(
    "In the window on stream and asset workers, a corrupt landblock is loaded and drawn as flat ground, the gate "
    "opens on it and the game goes on",
    "[app][streaming][window]") {
  auto window = dereth::test::offscreen_window(live_window_options());
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  // The demo's portal (its Region), and a cell DAT whose only landblock, the
  // player's, is three bytes of a LandBlock.
  constexpr std::uint32_t kBlock = kTownCell & 0xFFFF0000U;
  const auto cell = dereth::test::make_dat({{kBlock | 0xFFFFU, {0x01, 0x02, 0x03}}}, dat::DatKind::Cell, "corrupt");
  WindowWorld w(dats.portal, *cell, std::move(window));
  create_player(w.world, kTownCell, {10.0F, 10.0F, 0.0F});
  REQUIRE(w.world.box().teleport_in_progress());
  // No give-up limit (gate_limit 0): the gate opens because the block was published, flat.
  REQUIRE(w.arrive());
  const sim::LandblockBuild* build = w.world.landscape_loader()->streamer().published(kBlock);
  REQUIRE(build != nullptr);
  CHECK(build->malformed);
  CHECK(w.world.static_objects().empty());
  // The window draws it as ground: the one terrain block of the player's
  // square the DAT has, uploaded.
  const render::Renderer& r = *w.window->report_renderer();
  CHECK(r.stats().terrain_blocks + r.stats().terrain_blocks_culled == 1);
  CHECK(r.landblock_ready(kBlock));
  // The game goes on: the server teleports the player across the block, the
  // gate opens again and the player stands there.
  teleport(w.world, kTownCell, {15.0F, 12.0F, 0.0F}, 2);
  REQUIRE(w.world.box().teleport_in_progress());
  REQUIRE(w.arrive());
  REQUIRE(w.world.box().player() != nullptr);
  CHECK(w.world.box().player()->position().frame.origin.x == Approx(15.0F).margin(0.01F));
  CHECK(w.world.box().player()->position().frame.origin.z == Approx(0.0F).margin(0.15F));  // on the flat ground
}

TEST_CASE(
    "In the window, builds of the region a teleport left complete after the recenter and are rejected, a duplicate "
    "completion is ignored, and the window draws the destination from its own generation's builds",
    "[app][streaming][window]") {
  auto window = dereth::test::offscreen_window(live_window_options());
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  sim::ManualExecutor* jobs = nullptr;
  WindowWorld w(dats.portal, dats.cell, std::move(window), hold_builds(jobs));
  REQUIRE(jobs != nullptr);
  app::World& world = w.world;
  auto& streamer = world.landscape_loader()->streamer();

  // Entering the town: its grid's builds are asked for and held.
  create_player(world, kTownCell, {10.0F, 10.0F, 0.0F});
  w.frame();
  const std::size_t town_builds = jobs->held();
  REQUIRE(town_builds > 0);
  const std::uint64_t town_generation = streamer.generation();
  // Before any completes, the server sends the player to the dungeon: a hard recenter.
  teleport(world, demo::kDungeonEntryCell, demo::kDungeonRooms[0].origin + glm::vec3(5.0F, 5.0F, 0.0F), 1);
  w.frame();
  CHECK(streamer.generation() > town_generation);
  REQUIRE(jobs->held() > town_builds);  // the dungeon's build asked for too

  // The town's builds complete first (in the order asked).
  for (std::size_t i = 0; i < town_builds; ++i) jobs->run(0);
  w.frame();
  CHECK(streamer.stats().rejected_generation == town_builds);
  CHECK(world.landscape()->block_count() == 0);  // nothing of the town was published
  CHECK(world.box().teleport_in_progress());     // the gate still waits for the dungeon
  // The dungeon's build completes twice (a duplicate completion): published once.
  REQUIRE(jobs->held() == 1);
  jobs->run(0, true);
  jobs->run(0);
  w.frame();
  CHECK(streamer.stats().rejected_duplicate == 1);
  REQUIRE(w.frames_until([&] {
    jobs->run_all();
    return !world.box().teleport_in_progress() && w.window->report_renderer()->render_ready();
  }));
  REQUIRE_FALSE(world.box().teleport_in_progress());
  REQUIRE(world.box().player() != nullptr);
  CHECK(world.box().player()->position().objcell_id == demo::kDungeonEntryCell);
  CHECK(streamer.resident_tier(demo::kDungeonLandBlock & 0xFFFF0000U) == sim::StreamTier::Near);
  CHECK(streamer.resident_count() == 1);  // the dungeon's block alone: no town block slipped in
  // The window drew the dungeon, everything it asked for uploaded.
  const render::Renderer& r = *w.window->report_renderer();
  CHECK(r.render_ready());
  CHECK(r.stats().cells_drawn > 0);
}

TEST_CASE(
    "In the window, the player walks across seams while builds are held: a stale Far after Near, a late Near after "
    "demotion, and the shadow of a static across the seam",
    "[app][streaming][window]") {
  auto window = dereth::test::offscreen_window(live_window_options());
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  sim::ManualExecutor* jobs = nullptr;
  WindowWorld w(dats.portal, seam_cell_dat(), std::move(window), hold_builds(jobs));
  REQUIRE(jobs != nullptr);
  app::World& world = w.world;
  auto& streamer = world.landscape_loader()->streamer();
  const render::Renderer& r = *w.window->report_renderer();
  const sim::StreamJobTag far_north_far{kFarNorthBlock, false};
  const sim::StreamJobTag far_north_near{kFarNorthBlock, true};
  const sim::StreamJobTag south_near{kSouthBlock, true};

  // The player enters the town. Every build runs as it is asked for except
  // the Far one of the block two north: the gate waits for the near ring
  // only, and the world opens without it.
  create_player(world, outdoor_cell(kTownBlock, 71.5F, 150.0F), {71.5F, 150.0F, 0.0F}, true);
  REQUIRE(w.frames_until([&] {
    run_all_but(*jobs, far_north_far);
    return !world.box().teleport_in_progress() && r.render_ready();
  }));
  CHECK(streamer.resident_tier(kFarNorthBlock) == sim::StreamTier::None);
  REQUIRE(jobs->find(far_north_far).has_value());
  CHECK(streamer.resident_tier(kSouthBlock) == sim::StreamTier::Near);

  // The house at the south seam: its shadow in the south block's cell.
  sim::PhysicsObj* house = nullptr;
  std::uint32_t south_cell = 0;
  for (sim::PhysicsObj* o : world.static_objects()) {
    for (const sim::ShadowObj& s : o->shadow_objects()) {
      if ((s.cell_id & 0xFFFF0000U) == kSouthBlock && (o->position().objcell_id & 0xFFFF0000U) == kTownBlock) {
        house = o;
        south_cell = s.cell_id;
      }
    }
  }
  REQUIRE(house != nullptr);
  const std::size_t statics = world.static_objects().size();
  const auto south_shadow = [&]() -> const sim::ShadowObj* {
    for (const sim::ShadowObj& s : house->shadow_objects()) {
      if (s.cell_id == south_cell) return &s;
    }
    return nullptr;
  };
  // Whether the house's shadow is in the south block's loaded cell, and that
  // cell lists it.
  const auto shadow_in_south = [&] {
    const sim::ObjCell* cell = world.landscape()->loaded_cell(south_cell);
    const sim::ShadowObj* s = south_shadow();
    if (cell == nullptr || s == nullptr || s->cell != cell) return false;
    return std::ranges::any_of(cell->shadow_objects(), [&](const auto* shadow) { return shadow->physobj == house; });
  };
  REQUIRE(shadow_in_south());

  sim::PhysicsObj& player = *world.box().player();
  const auto block_of_player = [&] { return player.position().objcell_id & 0xFFFF0000U; };
  // The player walks `metres` north (south when negative) in 4 m transitions,
  // two a frame; no build runs meanwhile.
  const auto walk_north = [&](float metres) {
    const int moves = static_cast<int>(std::abs(metres) / 4.0F);
    const glm::vec3 step(0.0F, metres > 0 ? 4.0F : -4.0F, 0.0F);
    for (int i = 0; i < moves; i += 2) {
      dereth::test::walk(player, std::min(2, moves - i), step);
      w.frame();
    }
  };

  // North across the seam into the next block. The block two north is now in
  // the near ring: its Near build is asked for while the Far one is still
  // held. The south block leaves the near ring at once: the house's shadow
  // leaves its cell, the house stays.
  const std::uint64_t generation = streamer.generation();
  walk_north(80.0F);
  INFO("the player in cell " << std::hex << player.position().objcell_id);
  REQUIRE(block_of_player() == kNorthBlock);
  CHECK(streamer.generation() == generation);  // a walk is no hard recenter
  REQUIRE(jobs->find(far_north_near).has_value());
  CHECK(streamer.resident_tier(kSouthBlock) == sim::StreamTier::Far);
  CHECK(world.landscape()->loaded_cell(south_cell) == nullptr);
  REQUIRE(south_shadow() != nullptr);
  CHECK(south_shadow()->cell == nullptr);
  CHECK(std::ranges::find(world.static_objects(), house) != world.static_objects().end());

  // Stale Far after Near: the Near build completes first, then the Far one.
  const std::uint64_t stale_before = streamer.stats().rejected_stale_far;
  jobs->run(*jobs->find(far_north_near));
  w.frame();
  CHECK(streamer.resident_tier(kFarNorthBlock) == sim::StreamTier::Near);
  jobs->run(*jobs->find(far_north_far));
  w.frame();
  CHECK(streamer.stats().rejected_stale_far == stale_before + 1);
  CHECK(streamer.resident_tier(kFarNorthBlock) == sim::StreamTier::Near);
  REQUIRE(streamer.published(kFarNorthBlock) != nullptr);
  CHECK(streamer.published(kFarNorthBlock)->tier == sim::StreamTier::Near);
  // Every other build runs; the window draws the block at full detail.
  REQUIRE(w.frames_until([&] {
    jobs->run_all();
    return streamer.in_flight() == 0 && r.render_ready();
  }));
  CHECK(r.landblock_ready(kFarNorthBlock));

  // Late Near after demotion: back south into the town, the south block's
  // Near build is asked for and held; north again before it completes, the
  // block is demoted while it is on its way, and it publishes terrain only.
  walk_north(-80.0F);
  REQUIRE(block_of_player() == kTownBlock);
  REQUIRE(jobs->find(south_near).has_value());
  CHECK(streamer.resident_tier(kFarNorthBlock) == sim::StreamTier::Far);  // demoted at once
  CHECK_FALSE(shadow_in_south());                                         // not until the records come
  walk_north(80.0F);
  REQUIRE(block_of_player() == kNorthBlock);
  const std::uint64_t terrain_only_before = streamer.stats().terrain_only;
  jobs->run(*jobs->find(south_near));
  w.frame();
  CHECK(streamer.stats().terrain_only == terrain_only_before + 1);
  CHECK(streamer.resident_tier(kSouthBlock) == sim::StreamTier::Far);
  REQUIRE(streamer.published(kSouthBlock) != nullptr);
  CHECK(streamer.published(kSouthBlock)->info == nullptr);
  CHECK(world.landscape()->loaded_cell(south_cell) == nullptr);
  CHECK(south_shadow()->cell == nullptr);

  // Back into the town for good: the south block is promoted again, its
  // build runs, and the house's shadow is back in its new cell. No static
  // was made twice, and the window draws the south block ready.
  walk_north(-80.0F);
  REQUIRE(block_of_player() == kTownBlock);
  REQUIRE(w.frames_until([&] {
    jobs->run_all();
    return streamer.in_flight() == 0 && r.render_ready() && shadow_in_south();
  }));
  CHECK(streamer.resident_tier(kSouthBlock) == sim::StreamTier::Near);
  CHECK(world.static_objects().size() == statics);
  CHECK(r.landblock_ready(kSouthBlock));
  CHECK(r.render_ready());
}

TEST_CASE(
    "In the window on stream and asset workers, entering the world and walking across a seam read nothing from the "
    "DATs on the frame loop's thread after the player's own creation",
    "[app][streaming][window]") {
  auto window = dereth::test::offscreen_window(live_window_options());
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  WindowWorld w(dats.portal, dats.cell, std::move(window));
  app::World& world = w.world;
  // The player's own Setup, motion table and animations are read as its
  // CreateObject is handled; everything after is the landblocks' and the
  // window's, and the workers read it.
  create_player(world, outdoor_cell(kTownBlock, 71.5F, 150.0F), {71.5F, 150.0F, 0.0F}, true);
  const std::uint64_t reads = dat::reads_on_this_thread();
  REQUIRE(w.arrive());
  CHECK(dat::reads_on_this_thread() == reads);
  const std::size_t statics = world.static_objects().size();
  CHECK(statics > 0);  // the town's scenery and houses, made here from records read ahead
  // North across the seam: the row beyond comes into the near ring, its
  // scenery made from records the builds read ahead.
  sim::PhysicsObj& player = *world.box().player();
  for (int i = 0; i < 10; ++i) {
    dereth::test::walk(player, 2, {0.0F, 4.0F, 0.0F});
    w.frame();
  }
  REQUIRE((player.position().objcell_id & 0xFFFF0000U) == kNorthBlock);
  REQUIRE(w.frames_until([&] {
    return world.landscape_loader()->streamer().in_flight() == 0 && w.window->report_renderer()->render_ready();
  }));
  CHECK(world.landscape_loader()->streamer().resident_tier(kFarNorthBlock) == sim::StreamTier::Near);
  CHECK(dat::reads_on_this_thread() == reads);
}
