#pragma once
// Scene pieces the benchmarks share (dereth_bench_effects, dereth_bench_render):
// the many-particle emitter record, a floating object, and the demo world's
// humanoid created, grounded and told to walk forward through server messages.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/smart_box.hpp"

namespace dereth::bench {

inline constexpr dat::Did kDenseEmitter = 0x32000300;

// 200 slots of the demo's spark GfxObj, every slot born at creation, lifespans
// of 0.5 to 19.5 s so some particles die and are reborn every tick.
inline dat::ParticleEmitterInfo dense_emitter_info() {
  dat::ParticleEmitterInfo e;
  e.id = kDenseEmitter;
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
  return e;
}

// A portal DAT holding only `e` (the benchmark fails loudly when it does not build).
inline dat::DatFile emitter_portal(const dat::ParticleEmitterInfo& e) {
  const std::vector<dat::DatRecord> records{{e.id, dat::write_particle_emitter_info(e)}};
  auto bytes = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Portal});
  if (!bytes) {
    std::fprintf(stderr, "benchmark: the emitter portal does not build: %s\n", bytes.error().message().c_str());
    std::exit(1);
  }
  auto file = dat::DatFile::from_bytes(std::move(*bytes), "bench portal");
  if (!file) {
    std::fprintf(stderr, "benchmark: the emitter portal does not open: %s\n", file.error().message().c_str());
    std::exit(1);
  }
  return std::move(*file);
}

// An object without a Setup (drawn as a marker) at `origin`, moving at
// `velocity`, with a projectile's flags and no gravity.
inline protocol::CreateObject floating_object(std::uint32_t guid, std::uint32_t cell, protocol::Vec3 origin,
                                              protocol::Vec3 velocity) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = 0x40 | 0x100 | 0x200 | 0x8;
  m.physics.position = protocol::Position{cell, origin, {1, 0, 0, 0}};
  m.physics.velocity = velocity;
  m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
  return m;
}

// The demo humanoid (Setup 0x02000001, MotionTable 0x09000001) at `origin` in `cell`, without gravity.
inline protocol::CreateObject humanoid(std::uint32_t guid, std::uint32_t cell, protocol::Vec3 origin) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = 0x00400008;  // EdgeSlide | ReportCollisions: no gravity (no collision to stand on)
  m.physics.setup_id = demo::kHumanSetup;
  m.physics.motion_table_id = demo::kHumanMotionTable;
  m.physics.position = protocol::Position{cell, origin, {1, 0, 0, 0}};
  m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
  return m;
}

// Standing on the ground (a grounded server Position, docs/deviations.md N4: root
// motion moves only objects on walkable ground, as in retail), then told by a
// server Movement to walk forward.
inline void start_walking(sim::SmartBox& box, std::uint32_t guid, std::uint32_t cell, protocol::Vec3 origin) {
  protocol::UpdatePosition ground;
  ground.guid = guid;
  ground.position.cell_id = cell;
  ground.position.origin = origin;
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

}  // namespace dereth::bench
