// Issue 32 section 6 through the window (docs/streaming.md): the demo world on
// two stream workers, drawn by the offscreen window's renderer with a load
// budget and two asset workers, as `dereth demo` and `dereth play` run it.
// 100 teleports leave the live objects, landblocks, GPU caches and memory
// where the first two left them; a corrupt landblock is drawn as flat ground
// and the game goes on.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

#include <unistd.h>

#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"

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

void create_player(app::World& world, std::uint32_t cell, glm::vec3 origin) {
  protocol::CreateObject player;
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
  // The builds held until the test runs them, in the order it chooses.
  sim::ManualExecutor* jobs = nullptr;
  WindowWorld w(dats.portal, dats.cell, std::move(window), [&jobs] {
    auto manual = std::make_unique<sim::ManualExecutor>();
    jobs = manual.get();
    return manual;
  });
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
