// The streamed landscape (docs/streaming.md): LScape and CellManager over a
// LandblockStreamer whose builds a ManualExecutor holds, and SmartBox::UseTime's
// gate (blocking_for_cells) on real residency.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "dereth/core/clock.hpp"

#include "cells/stream_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using dereth::sim::StreamTier;
using namespace dereth::sim::test;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

// The cells wing over the DATs, its records built on a ManualExecutor, the
// grid 5 x 5 (mid_radius 2: the near ring 3 x 3, the rest Far).
struct StreamWorld {
  explicit StreamWorld(const StreamDats& dats) : world(clock, dats.portal.get()) {
    auto manual = std::make_unique<sim::ManualExecutor>();
    jobs = manual.get();
    REQUIRE(world.use_terrain(dats.cell.get(), std::move(manual)));
    REQUIRE(world.set_mid_radius(2));
  }
  sim::LandblockStreamer& streamer() { return world.loader().streamer(); }
  // The player created at `origin` in `cell` (SmartBox::HandleCreateObject:
  // the blocking ChangePosition of a teleport).
  void create_player(std::uint32_t cell, glm::vec3 origin) {
    world.box().handle(protocol::PlayerCreate{kPlayer});
    protocol::CreateObject m = sim::test::create(kPlayer, 1, 0x00400C08, origin);
    m.physics.position->cell_id = cell;
    world.box().handle(m);
    REQUIRE(world.box().player() != nullptr);
  }
  // One frame: the builds done since published, then SmartBox::UseTime.
  void frame() {
    clock.advance(core::Seconds{0.05});
    streamer().drain();
    world.box().use_time();
  }
  core::ManualClock clock;
  sim::test::DatCells world;
  sim::ManualExecutor* jobs = nullptr;
};

}  // namespace

TEST_CASE("SmartBox::UseTime 0x00455410 runs only CellManager::CheckPrefetchStatus while blocking_for_cells",
          "[retail][sim][streaming]") {
  const StreamDats dats;
  StreamWorld w(dats);
  w.create_player(0xA9B40021u, {12, 12, 30});
  sim::SmartBox& box = w.world.box();
  sim::CellManager& cells = w.world.cell_manager();
  // The teleport's blocking ChangePosition asked for the 5 x 5 grid.
  REQUIRE(cells.blocking_for_cells());
  CHECK(w.jobs->held() == 25);
  CHECK(box.teleport_in_progress());
  const std::uint64_t ticks = box.physics().tick_count();

  // Every build but the centre's (job 12: grid order, x outer, y inner).
  for (std::size_t i = 24; i > 12; --i) w.jobs->run(i);
  for (std::size_t i = 12; i-- > 0;) w.jobs->run(i);
  REQUIRE(w.jobs->held() == 1);
  for (int i = 0; i < 5; ++i) w.frame();
  // Blocking: no physics tick, no position completion, no landscape.
  CHECK(cells.blocking_for_cells());
  CHECK(box.physics().tick_count() == ticks);
  CHECK(box.teleport_in_progress());
  CHECK(w.world.landscape()->block_count() == 0);

  w.jobs->run(0);  // the centre block arrives
  w.frame();       // the prefetch check finds the near ring: no longer blocking
  CHECK_FALSE(cells.blocking_for_cells());
  CHECK(box.physics().tick_count() == ticks);  // the check was all that ran
  CHECK(box.teleport_in_progress());
  w.frame();  // ChangePosition loads the grid, then the position completes
  CHECK_FALSE(box.teleport_in_progress());
  CHECK(box.physics().tick_count() == ticks + 1);
  CHECK(w.world.landscape()->block_count() == 25);
  CHECK(w.world.landscape()->side_cell_count(0xA9B4FFFFu) == 8);
  CHECK(w.world.landscape()->side_cell_count(0xA7B2FFFFu) == 4);
  CHECK(box.player()->cell() != nullptr);
}

TEST_CASE("SmartBox::UseTime 0x00455410 holds a teleport into a dungeon until its landblock and EnvCell are published",
          "[retail][sim][streaming]") {
  const StreamDats dats;
  StreamWorld w(dats);
  w.create_player(kDungeonCell, {110, 110, 0.5f});
  sim::SmartBox& box = w.world.box();
  REQUIRE(w.world.cell_manager().blocking_for_cells());
  CHECK(w.jobs->held() == 1);  // the dungeon's block, Near: its LandBlockInfo and EnvCells
  for (int i = 0; i < 3; ++i) w.frame();
  CHECK(box.teleport_in_progress());
  w.jobs->run(0);
  w.frame();
  w.frame();
  CHECK_FALSE(box.teleport_in_progress());
  CHECK(w.world.landscape()->block_count() == 0);  // not seen from outside: no landscape
  const auto visible = w.world.landscape()->loaded_env_cells();
  CHECK(visible == std::vector<std::uint32_t>{kDungeonCell});
  CHECK(w.jobs->held() == 0);
}

TEST_CASE("CellManager's gate gives up loudly after its limit and the game goes on", "[sim][streaming]") {
  const StreamDats dats;
  StreamWorld w(dats);
  w.world.cell_manager().set_blocking_limit(2.0);
  w.create_player(0xA9B40021u, {12, 12, 30});
  REQUIRE(w.world.cell_manager().blocking_for_cells());
  w.jobs->drop_all();                      // the builds never come
  for (int i = 0; i < 30; ++i) w.frame();  // 1.5 s
  CHECK(w.world.cell_manager().blocking_for_cells());
  for (int i = 0; i < 20; ++i) w.frame();
  CHECK_FALSE(w.world.cell_manager().blocking_for_cells());
  CHECK(w.world.cell_manager().gave_up() == 1);
  CHECK_FALSE(w.world.box().teleport_in_progress());
}

TEST_CASE("Landscape streamed: a Far block reaching full detail keeps its detail until its Near records are published",
          "[sim][streaming]") {
  const StreamDats dats;
  StreamWorld w(dats);
  sim::Landscape& scape = *w.world.landscape();
  scape.update_loadpoint(0xA9B40021u);  // asks for the grid: nothing at hand yet
  CHECK(scape.block_count() == 0);
  w.jobs->run_all();
  w.streamer().drain();
  scape.update_loadpoint(0xA9B40021u);
  CHECK(scape.block_count() == 25);
  CHECK(scape.side_cell_count(0xAAB4FFFFu) == 8);
  CHECK(scape.side_cell_count(0xABB4FFFFu) == 4);  // two blocks east: Far
  // One block east: AB B4 enters the near ring and needs its Near records.
  scape.update_loadpoint(0xAAB40021u);
  CHECK(scape.side_cell_count(0xABB4FFFFu) == 4);  // waits at its Far detail
  CHECK(scape.loaded_cell(0xABB40001u) == nullptr);
  CHECK(w.streamer().in_flight() > 0);
  w.jobs->run_all();
  w.streamer().drain();
  scape.update_loadpoint(0xAAB40021u);
  CHECK(scape.side_cell_count(0xABB4FFFFu) == 8);
  CHECK(scape.loaded_cell(0xABB40001u) != nullptr);
  // The blocks the grid left went with their records.
  CHECK(scape.land_block(0xA7B4FFFFu) == nullptr);
  CHECK(w.streamer().published(0xA7B40000u) == nullptr);
}

namespace {

// What a round trip could leak: the landscape's blocks and cells, the
// statics, the streamer's records and builds, the object table.
struct Live {
  std::size_t blocks = 0;
  std::size_t env_cells = 0;
  std::size_t released = 0;
  std::size_t statics = 0;
  std::size_t records = 0;
  std::size_t in_flight = 0;
  std::size_t objects = 0;
  bool operator==(const Live&) const = default;
};

Live live(StreamWorld& w) {
  const sim::Landscape& scape = *w.world.landscape();
  return Live{scape.block_count(),
              scape.loaded_env_cells().size(),
              scape.released_env_cells().size(),
              w.world.static_objects().size(),
              w.streamer().resident_count(),
              w.streamer().in_flight(),
              w.world.box().objects().objects().size()};
}

}  // namespace

TEST_CASE("Landscape streamed: 100 teleports between a dungeon and the outdoors leave no more live objects than two",
          "[sim][streaming]") {
  const StreamDats dats;
  StreamWorld w(dats);
  w.create_player(0xA9B40021u, {12, 12, 30});
  sim::SmartBox& box = w.world.box();
  std::vector<Live> seen;
  for (std::uint16_t i = 1; i <= 100; ++i) {
    const bool dungeon = (i % 2) == 1;
    protocol::UpdatePosition m =
        sim::test::position(kPlayer, 1, i, dungeon ? glm::vec3(110, 110, 0.5f) : glm::vec3(12, 12, 30), i);
    m.position.cell_id = dungeon ? kDungeonCell : 0xA9B40021u;
    box.handle(m);
    REQUIRE(box.teleport_in_progress());
    for (int f = 0; f < 10 && box.teleport_in_progress(); ++f) {
      w.jobs->run_all();
      w.frame();
    }
    REQUIRE_FALSE(box.teleport_in_progress());
    w.frame();
    seen.push_back(live(w));
  }
  CHECK(seen[0].blocks == 0);  // in the dungeon
  CHECK(seen[0].env_cells == 1);
  CHECK(seen[1].blocks == 25);  // outdoors
  CHECK(seen[98] == seen[0]);
  CHECK(seen[99] == seen[1]);
  CHECK(seen[99].records <= 26);
  CHECK(seen[99].in_flight == 0);
}

TEST_CASE("Landscape loads a corrupt landblock as empty ground and the player stands on it", "[sim][streaming]") {
  const StreamDats dats;
  core::ManualClock clock;
  DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));  // inline
  REQUIRE(world.set_mid_radius(1));
  auto walker = dereth::sim::test::walker(world, 0x70000001, 0x05050001u, {12, 12, 5});
  const sim::Landscape& scape = *world.landscape();
  REQUIRE(scape.land_block(0x0505FFFFu) != nullptr);
  CHECK(scape.land_block(0x0505FFFFu)->height_at(12, 12).value_or(-1.0f) == Approx(0.0f));
  CHECK(world.static_objects().empty());
  // It falls to the flat ground and stops there.
  for (int i = 0; i < 40; ++i) dereth::sim::test::walk(*walker, 1, {0, 0, -0.25f});
  CHECK(walker->position().frame.origin.z == Approx(0.0f).margin(0.05f));
  CHECK(walker->cell() != nullptr);
}
