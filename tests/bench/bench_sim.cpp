// CPhysics::UseTime cost: milliseconds per 30 Hz tick with N moving objects
// (docs/benchmarks.md). Every object is created through the SmartBox from a
// CreateObject, as a server would, and flies with a velocity and a spin. The
// server turns them round every 15 s (a VectorUpdate, outside the timing), so
// however many ticks the benchmark runs they shuttle inside their landblock
// and the player's 96 m activity radius and keep paying the full cost.
#include <cstdint>

#include <benchmark/benchmark.h>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/types.hpp"

namespace {

using namespace dereth;

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kCell = 0xA9B40021;
// Missile | AlignPath | PathClipped | ReportCollisions: a projectile's flags,
// no gravity, so the objects fly straight.
constexpr std::uint32_t kMovingState = 0x40 | 0x100 | 0x200 | 0x8;
constexpr protocol::Vec3 kVelocity{1.5f, 0.5f, 0.0f};
// Ticks between turns: 15 s at 1.58 m/s, 24 m, so the 60 m square around the
// player never leaves the 96 m radius or the landblock.
constexpr std::uint64_t kTicksPerLeg = 450;

protocol::CreateObject moving_object(std::uint32_t guid, float x, float y) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = kMovingState;
  m.physics.position = protocol::Position{kCell, {x, y, 40.0f}, {1, 0, 0, 0}};
  m.physics.velocity = kVelocity;
  m.physics.omega = protocol::Vec3{0.0f, 0.0f, 0.5f};
  m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
  return m;
}

void BM_UseTime(benchmark::State& state) {
  const auto count = static_cast<std::uint32_t>(state.range(0));
  core::ManualClock clock;
  sim::SimContext context(clock);
  sim::SmartBox box(context);
  box.handle(protocol::PlayerCreate{kPlayer});
  auto player = moving_object(kPlayer, 96.0f, 96.0f);
  player.physics.velocity = protocol::Vec3{0.0f, 0.0f, 0.0f};  // the player stands at the block's centre
  box.handle(player);
  for (std::uint32_t i = 0; i < count; ++i) {
    // A 60 m square grid around the player.
    const float x = 66.0f + static_cast<float>(i % 250) * 0.24f;
    const float y = 66.0f + static_cast<float>((i / 250) % 250) * 0.24f;
    box.handle(moving_object(0x80000000u + i, x, y));
  }
  if (box.objects().object_count() != count + 1) {
    state.SkipWithError("not every object was created");
    return;
  }
  double t = 0.0;
  std::uint64_t ticks = 0;
  std::uint16_t leg = 0;
  for (auto _ : state) {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
    if (++ticks % kTicksPerLeg == 0) {
      state.PauseTiming();
      ++leg;
      const float sign = (leg % 2) != 0 ? -1.0f : 1.0f;
      const protocol::Vec3 v{kVelocity.x * sign, kVelocity.y * sign, 0.0f};
      for (std::uint32_t i = 0; i < count; ++i) {
        box.handle(protocol::VectorUpdate{0x80000000u + i, v, protocol::Vec3{0.0f, 0.0f, 0.5f}, 1, leg});
      }
      state.ResumeTiming();
    }
  }
  if (box.physics().tick_count() != ticks) state.SkipWithError("a frame did not tick");
  // Every moving object still in its landblock, in a cell and active (within
  // the player's 96 m): the figure is the full per-object cost.
  for (std::uint32_t i = 0; i < count; ++i) {
    const sim::PhysicsObj* o = box.get_object(0x80000000u + i);
    if (o == nullptr || !o->in_cell() || (o->position().objcell_id >> 16) != (kCell >> 16) ||
        (o->transient_state() & sim::transient_state::Active) == 0) {
      state.SkipWithError("an object left its landblock or went inactive");
      return;
    }
  }
  state.counters["objects"] = static_cast<double>(count);
  state.counters["ns_per_object"] = benchmark::Counter(
      static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_UseTime)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
