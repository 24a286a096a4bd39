// Presentation cost per tick (docs/benchmarks.md): 100 emitters of 200
// live particles each, through the whole CPhysics::UseTime path (physics,
// then ParticleManager::UpdateParticles, then ScriptManager::UpdateScripts
// per object), plus publishing the render snapshot. The emitter record is
// made with our DAT writer: 200 slots, every slot born at creation, lifespans
// of 0.5 to 19.5 s so some particles die and are reborn every tick.
#include <cstdint>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/effects/particle_manager.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

#include "bench_world.hpp"

namespace {

using namespace dereth;

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kCell = 0xA9B40021;

void particles(benchmark::State& state, dat::ParticleType type, bool parent_local = true) {
  const auto emitters = static_cast<std::uint32_t>(state.range(0));
  dat::ParticleEmitterInfo info = bench::dense_emitter_info();
  info.particle_type = type;
  info.is_parent_local = parent_local ? 1 : 0;
  const dat::DatFile portal = bench::emitter_portal(info);
  core::ManualClock clock;
  sim::SimContext context(clock);
  dat::RecordCache records(&portal);
  sim::Effects effects(&records);
  context.set_effects(&effects);
  sim::SmartBox box(context);
  box.handle(protocol::PlayerCreate{kPlayer});
  box.handle(bench::floating_object(kPlayer, kCell, {96.0f, 96.0f, 40.0f}, {0.5f, 0.0f, 0.0f}));
  // Ten emitters per moving owner.
  const std::uint32_t owners = (emitters + 9) / 10;
  for (std::uint32_t i = 0; i < owners; ++i) {
    const std::uint32_t guid = 0x80000000u + i;
    box.handle(bench::floating_object(guid, kCell, {90.0f + static_cast<float>(i), 90.0f, 40.0f}, {0.5f, 0.0f, 0.0f}));
    sim::PhysicsObj* owner = box.get_object(guid);
    for (std::uint32_t k = 0; k < 10 && i * 10 + k < emitters; ++k) {
      effects.create_particle_emitter(*owner, bench::kDenseEmitter, sim::kRootPart, dat::Frame{}, 0);
    }
  }
  // Each snapshot built in a dropped one's storage, as the World builds them.
  sim::SnapshotRecycler recycler;
  double t = 0.0;
  const auto tick = [&] {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
    auto snapshot =
        sim::build_render_snapshot(box, effects, box.physics().tick_count(), {}, {}, std::nullopt, nullptr, &recycler);
    effects.clear_sound_events();
    return snapshot;
  };
  for (int i = 0; i < 60; ++i) tick();  // warm up: slots die and are reborn
  std::size_t particles = 0;
  for (auto _ : state) {
    auto snapshot = tick();
    particles = 0;
    for (const auto& e : snapshot->emitters) particles += e.particles.size();
    benchmark::DoNotOptimize(snapshot);
  }
  state.counters["emitters"] = static_cast<double>(emitters);
  state.counters["particles"] = static_cast<double>(particles);
  state.counters["ns_per_particle"] = benchmark::Counter(
      static_cast<double>(particles), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The dense emitter's particles spin (type 4, ParabolicLVGAGR): each tick
// turns every particle's orientation (a sine and cosine, a quaternion
// product and a normalisation).
void BM_Particles(benchmark::State& state) {
  particles(state, dat::ParticleType::ParabolicLVGAGR);
}

// The spinning emitters released into the world (is_parent_local 0): each
// particle turns from the frame it was born with, not the owner's live one.
void BM_ParticlesReleased(benchmark::State& state) {
  particles(state, dat::ParticleType::ParabolicLVGAGR, false);
}

// The same emitters with type 3 (ParabolicLVGA): the same path without the
// spin, which only types 4, 9 and 11 build; the other nine types write an
// origin alone.
void BM_ParticlesUnspun(benchmark::State& state) {
  particles(state, dat::ParticleType::ParabolicLVGA);
}

// N humanoids of the demo world (Setup 0x02000001, MotionTable 0x09000001),
// equipped by the DatObjectFactory from the demo DAT, each told by a server
// Movement to walk forward: every tick advances each one's Sequence, poses
// its parts (DatPartArray::UpdateParts) and moves it by root motion, then the
// snapshot publishes every part pose.
void BM_Animated(benchmark::State& state) {
  const auto count = static_cast<std::uint32_t>(state.range(0));
  auto world = demo::build_demo_world();
  auto portal = dat::DatFile::from_bytes(std::move(world->portal), "demo portal");
  dat::RecordCache records(&*portal);
  sim::DatObjectFactory factory(records);
  core::ManualClock clock;
  sim::SimContext context(clock);
  sim::Effects effects(&records);
  context.set_effects(&effects);
  context.set_factory(&factory);
  sim::SmartBox box(context);
  box.handle(protocol::PlayerCreate{kPlayer});
  box.handle(bench::humanoid(kPlayer, kCell, {96.0f, 96.0f, 20.0f}));
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t guid = 0x80000000u + i;
    const float x = 70.0f + static_cast<float>(i % 40) * 1.3f;
    const float y = 70.0f + static_cast<float>(i / 40) * 1.3f;
    box.handle(bench::humanoid(guid, kCell, {x, y, 20.0f}));
    bench::start_walking(box, guid, kCell, {x, y, 20.0f});
  }
  // Each snapshot built in a dropped one's storage, as the World builds them.
  sim::SnapshotRecycler recycler;
  double t = 0.0;
  const auto tick = [&] {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
    auto snapshot =
        sim::build_render_snapshot(box, effects, box.physics().tick_count(), {}, {}, std::nullopt, nullptr, &recycler);
    effects.clear_sound_events();
    return snapshot;
  };
  for (int i = 0; i < 30; ++i) tick();
  const sim::PhysicsObj* first = box.get_object(0x80000000u);
  const glm::vec3 before = first != nullptr ? first->position().frame.origin : glm::vec3(0.0f);
  for (int i = 0; i < 30; ++i) tick();
  if (first == nullptr || first->position().frame.origin == before) {
    state.SkipWithError("the humanoids are not walking (no root motion)");
    return;
  }
  std::size_t parts = 0;
  for (auto _ : state) {
    auto snapshot = tick();
    parts = 0;
    for (const auto& o : snapshot->objects) parts += o.parts.size();
    benchmark::DoNotOptimize(snapshot);
  }
  state.counters["objects"] = static_cast<double>(count);
  state.counters["parts"] = static_cast<double>(parts);
  state.counters["us_per_object"] = benchmark::Counter(
      static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_Particles)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParticlesReleased)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParticlesUnspun)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Animated)->Arg(1000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
