// Presentation cost per tick (docs/benchmarks.md): 100 emitters of 200
// live particles each, through the whole CPhysics::UseTime path (physics,
// then ParticleManager::UpdateParticles, then ScriptManager::UpdateScripts
// per object), plus publishing the render snapshot. The emitter record is
// made with our DAT writer: 200 slots, every slot born at creation, lifespans
// of 0.5 to 19.5 s so some particles die and are reborn every tick.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/dat_object_factory.hpp"
#include "dereth/sim/effects.hpp"
#include "dereth/sim/particles.hpp"
#include "dereth/sim/physics_obj.hpp"
#include "dereth/sim/sim_context.hpp"
#include "dereth/sim/smart_box.hpp"
#include "dereth/sim/snapshot_builder.hpp"

namespace {

using namespace dereth;

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kCell = 0xA9B40021;
constexpr std::uint32_t kDense = 0x32000300;

dat::DatFile dense_portal() {
  dat::ParticleEmitterInfo e;
  e.id = kDense;
  e.emitter_type = dat::EmitterType::BirthratePerSec;
  e.particle_type = dat::ParticleType::ParabolicLVGAGR;
  e.gfx_obj_id = e.hw_gfx_obj_id = 0x01000020;
  e.birthrate = 0.0;
  e.max_particles = 200;
  e.initial_particles = 200;
  e.lifespan = 10.0;
  e.lifespan_rand = 9.5;
  e.offset_dir = {0, 0, 1};
  e.max_offset = 0.5f;
  e.a = {0, 0, 1};
  e.b = {0, 0, -1};
  e.c = {0, 0, 3};
  e.is_parent_local = 1;
  const std::vector<dat::DatRecord> records{{kDense, dat::write_particle_emitter_info(e)}};
  auto bytes = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Portal});
  auto file = dat::DatFile::from_bytes(std::move(*bytes), "bench portal");
  return std::move(*file);
}

protocol::CreateObject object_at(std::uint32_t guid, float x, float y, protocol::Vec3 velocity) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = 0x40 | 0x100 | 0x200 | 0x8;  // a projectile's flags, no gravity
  m.physics.position = protocol::Position{kCell, {x, y, 40.0f}, {1, 0, 0, 0}};
  m.physics.velocity = velocity;
  m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
  return m;
}

void BM_Particles(benchmark::State& state) {
  const auto emitters = static_cast<std::uint32_t>(state.range(0));
  const dat::DatFile portal = dense_portal();
  core::ManualClock clock;
  sim::SimContext context(clock);
  dat::RecordCache records(&portal);
  sim::Effects effects(&records);
  context.set_effects(&effects);
  sim::SmartBox box(context);
  box.handle(protocol::PlayerCreate{kPlayer});
  box.handle(object_at(kPlayer, 96.0f, 96.0f, {0.5f, 0.0f, 0.0f}));
  // Ten emitters per moving owner.
  const std::uint32_t owners = (emitters + 9) / 10;
  for (std::uint32_t i = 0; i < owners; ++i) {
    const std::uint32_t guid = 0x80000000u + i;
    box.handle(object_at(guid, 90.0f + static_cast<float>(i), 90.0f, {0.5f, 0.0f, 0.0f}));
    sim::PhysicsObj* owner = box.get_object(guid);
    for (std::uint32_t k = 0; k < 10 && i * 10 + k < emitters; ++k) {
      effects.create_particle_emitter(*owner, kDense, sim::kRootPart, dat::Frame{}, 0);
    }
  }
  double t = 0.0;
  const auto tick = [&] {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
    auto snapshot = sim::build_render_snapshot(box, effects, box.physics().tick_count());
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
  auto human = [](std::uint32_t guid, float x, float y) {
    protocol::CreateObject m;
    m.guid = guid;
    m.physics.state = 0x00400008;  // EdgeSlide | ReportCollisions: no gravity (no collision to stand on)
    m.physics.setup_id = demo::kHumanSetup;
    m.physics.motion_table_id = demo::kHumanMotionTable;
    m.physics.position = protocol::Position{kCell, {x, y, 20.0f}, {1, 0, 0, 0}};
    m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
    return m;
  };
  box.handle(human(kPlayer, 96.0f, 96.0f));
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t guid = 0x80000000u + i;
    const float x = 70.0f + static_cast<float>(i % 40) * 1.3f;
    const float y = 70.0f + static_cast<float>(i / 40) * 1.3f;
    box.handle(human(guid, x, y));
    // Standing on the ground (a grounded server Position, docs/sim.md D4):
    // root motion moves only objects on walkable ground, as in retail.
    protocol::UpdatePosition ground;
    ground.guid = guid;
    ground.position.cell_id = kCell;
    ground.position.origin = {x, y, 20.0f};
    ground.position.qw = 1.0f;
    ground.position.qx = 0.0f;
    ground.position.qy = 0.0f;
    ground.position.qz = 0.0f;
    ground.position.instance_ts = 1;
    ground.position.position_ts = 1;
    ground.position.flags = protocol::position_flag::IsGrounded;
    box.handle(ground);
    protocol::MovementEvent walk;
    walk.guid = guid;
    walk.instance_ts = 1;
    walk.movement_ts = 1;
    walk.server_control_ts = 1;
    protocol::InterpretedMovement interpreted;
    interpreted.state.forward_command = static_cast<std::uint16_t>(demo::motion::WalkForward & 0xFFFF);
    interpreted.state.forward_speed = 1.0f;
    walk.data.payload = interpreted;
    box.handle(walk);
  }
  double t = 0.0;
  const auto tick = [&] {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
    auto snapshot = sim::build_render_snapshot(box, effects, box.physics().tick_count());
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
BENCHMARK(BM_Animated)->Arg(1000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
