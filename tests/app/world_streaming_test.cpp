// app::World on stream workers (docs/streaming.md): the demo world's
// landblocks built on two worker threads and published between steps; the
// player's creation waits at retail's gate (blocking_for_cells) until the
// near ring is published, and the world it enters is the one the inline
// load gives.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"

#include "window_support.hpp"
#include "world_support.hpp"

using namespace dereth;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

void create_player(app::World& world) {
  protocol::CreateObject player;
  player.guid = kPlayer;
  player.physics.state = 0x00400C08;
  player.physics.position = protocol::Position{0xA9B40021, {10, 10, 0}, {1, 0, 0, 0}};
  player.weenie.name = "Tester";
  player.weenie.item_type = 0x10;
  world.handle(protocol::encode(protocol::PlayerCreate{kPlayer}));
  world.handle(protocol::encode(player));
}

// Steps `world` (50 ms of its clock each) until `done`, giving the workers
// wall time; false after 20 s of wall time.
template <class Done>
bool step_until(app::World& world, core::ManualClock& clock, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    clock.advance(core::Seconds{0.05});
    world.step();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace

TEST_CASE(
    "World on two stream workers: the player waits at the gate for the near ring, then enters the world the "
    "inline load gives",
    "[app][streaming]") {
  const auto& dats = dereth::test::demo_dats();
  core::ManualClock clock{core::Seconds{1.0}};
  app::World world(clock, &dats.portal);
  app::StreamOptions streaming;
  streaming.workers = 2;
  streaming.gate_limit = 0.0;  // a loaded test machine must not make it give up
  REQUIRE(world.use_terrain(&dats.cell, streaming));
  REQUIRE(world.landscape_loader()->streams());
  create_player(world);
  REQUIRE(world.box().teleport_in_progress());
  CHECK(world.cell_manager().blocking_for_cells());
  CHECK(world.landscape()->block_count() == 0);
  const std::uint64_t ticks = world.box().physics().tick_count();
  REQUIRE(step_until(world, clock, [&] { return !world.cell_manager().blocking_for_cells(); }));
  CHECK(world.box().physics().tick_count() == ticks);  // nothing moved while it waited
  REQUIRE(step_until(world, clock, [&] { return !world.box().teleport_in_progress(); }));
  // Then the rest of the grid streams in.
  REQUIRE(step_until(world, clock, [&] {
    return world.cell_manager().all_cells_available() && world.landscape_loader()->streamer().in_flight() == 0;
  }));
  world.step();

  core::ManualClock inline_clock{core::Seconds{1.0}};
  app::World inline_world(inline_clock, &dats.portal);
  REQUIRE(inline_world.use_terrain(&dats.cell));
  create_player(inline_world);
  for (int i = 0; i < 3; ++i) {
    inline_clock.advance(core::Seconds{0.05});
    inline_world.step();
  }
  CHECK_FALSE(inline_world.box().teleport_in_progress());
  CHECK(world.landscape()->loaded_blocks() == inline_world.landscape()->loaded_blocks());
  CHECK(world.landscape()->block_count() == 49);  // the 7 x 7 demo world
  CHECK(world.static_objects().size() == inline_world.static_objects().size());
  CHECK(world.landscape_loader()->streamer().stats().rejected_generation == 0);
}

TEST_CASE(
    "World on two stream workers in a window: the player's creation waits at the gate until the window's renderer "
    "has uploaded the near ring, one load a frame",
    "[app][streaming][window]") {
  app::WindowOptions options;
  options.width = 160;
  options.height = 90;
  options.load_budget_ms = 1e-6F;  // one first-use load a shown frame
  auto window = dereth::test::offscreen_window(options);
  if (!window) return;
  const auto& dats = dereth::test::demo_dats();
  core::ManualClock clock{core::Seconds{1.0}};
  app::World world(clock, &dats.portal);
  app::StreamOptions streaming;
  streaming.workers = 2;
  streaming.gate_limit = 0.0;
  REQUIRE(world.use_terrain(&dats.cell, streaming));
  dereth::test::WindowControls::NoInbox inbox;
  // The frame loop hands the window's readiness to the world's loader.
  app::FrameLoop loop(world, inbox, &clock, window.get(), nullptr, app::LoopOptions{});
  create_player(world);
  REQUIRE(world.cell_manager().blocking_for_cells());

  auto* loader = world.landscape_loader();
  const auto near_ring_published = [&] {
    for (std::uint32_t x = 0xA8; x <= 0xAA; ++x) {
      for (std::uint32_t y = 0xB3; y <= 0xB5; ++y) {
        if (loader->streamer().resident_tier((x << 24) | (y << 16)) != sim::StreamTier::Near) return false;
      }
    }
    return true;
  };
  int frames = 0;
  int frames_after_records = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (world.cell_manager().blocking_for_cells() && std::chrono::steady_clock::now() < deadline) {
    clock.advance(core::Seconds{0.05});
    world.step();
    if (near_ring_published()) ++frames_after_records;
    REQUIRE(window->present(*world.snapshot(), app::FrameInfo{}).has_value());
    ++frames;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  INFO(frames << " frames at the gate, " << frames_after_records << " of them with the near ring's records in");
  REQUIRE_FALSE(world.cell_manager().blocking_for_cells());
  // The records alone would have opened the gate at once; it waited for the
  // nine terrain blocks and what stands on them to upload, one a frame.
  CHECK(frames_after_records >= 9);
  for (std::uint32_t x = 0xA8; x <= 0xAA; ++x) {
    for (std::uint32_t y = 0xB3; y <= 0xB5; ++y) CHECK(loader->render_ready((x << 24) | (y << 16) | 0xFFFFU));
  }
}
