#pragma once
// ParticleEmitter (retail ParticleEmitter) and ParticleEmitterInfo's
// randomisers (RE cphysobj/CParticleEmitter.c, CParticleEmitterInfo.c;
// spec/dat-format.md section 4). Particle's bodies are in
// particle_emitter.cpp beside the randomisers they share. Frames, the two
// clocks and the draw order: docs/sim.md "Particle frames and clocks".

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/core/rng.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/types.hpp"
#include "dereth/sim/effects/emitter_event_sink.hpp"
#include "dereth/sim/effects/particle.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

// Part index -1: the emitter hangs from the owner's root frame.
inline constexpr std::uint32_t kRootPart = 0xFFFFFFFFu;
// The most slots one emitter may ask for (max_particles is untrusted DAT data).
inline constexpr std::int32_t kMaxParticlesPerEmitter = 4096;
// The two clocks a particle update reads.
struct ParticleClock {
  core::Seconds now{0.0};           // Timer::cur_time
  core::Seconds physics_time{0.0};  // PhysicsTimer::curr_time
};

// The frame an emitter on `part_index` reads from its owner, in global
// metres: the root frame for kRootPart, else the part's frame
// (PartArray::part_frame); a part the part array cannot pose falls back to the
// root frame, as CPhysicsObj::UpdateChild does.
[[nodiscard]] core::Frame emitter_parent_frame(const PhysicsObj& owner, std::uint32_t part_index);

// ParticleEmitterInfo's randomisers (RE CParticleEmitterInfo.c). Random::
// RollDice(lo, hi) is Rng::uniform(lo, hi).
namespace emitter_info {
// ParticleEmitterInfo::GetRandomLifespan 0x00517210: max(0, lifespan + U(-1,1)*rand).
[[nodiscard]] double get_random_lifespan(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomStartScale 0x005170D0: clamp(start + U(-1,1)*rand, 0.1, 10).
[[nodiscard]] float get_random_start_scale(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomFinalScale 0x00517120
[[nodiscard]] float get_random_final_scale(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomStartTrans 0x00517170: clamp(start + U(-1,1)*rand, 0, 1).
[[nodiscard]] float get_random_start_trans(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomFinalTrans 0x005171C0
[[nodiscard]] float get_random_final_trans(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomOffset 0x005174A0: a random direction (z, y,
// x drawn in that order) with its offset_dir component removed, normalised,
// times U(0,1)*(max-min)+min; zero when the direction is too small.
[[nodiscard]] glm::vec3 get_random_offset(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomA 0x00517610: a * (U(0,1)*(max_a-min_a)+min_a).
[[nodiscard]] glm::vec3 get_random_a(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomB 0x00517670
[[nodiscard]] glm::vec3 get_random_b(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::GetRandomC 0x005176D0
[[nodiscard]] glm::vec3 get_random_c(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept;
// ParticleEmitterInfo::ShouldEmitParticle 0x00517420: under the total and
// the slot count; then, per second: now - last_emit_time > birthrate; per
// metre: the emitter moved more than birthrate metres since the last birth.
[[nodiscard]] bool should_emit_particle(const dat::ParticleEmitterInfo& info, std::int32_t num_particles,
                                        std::int32_t total_emitted, const glm::vec3& emitter_offset,
                                        core::Seconds last_emit_time, core::Seconds now) noexcept;
}  // namespace emitter_info

class ParticleEmitter {
 public:
  // ParticleEmitter::ParticleEmitter 0x0051C7E0: part -1, identity offset,
  // last update and last emission stamped with the frame clock.
  ParticleEmitter(LocalId owner, core::Seconds now);
  ParticleEmitter(const ParticleEmitter&) = delete;
  ParticleEmitter& operator=(const ParticleEmitter&) = delete;

  // ParticleEmitter::SetInfo 0x0051CE90: fails (creating nothing) without
  // info, without a hardware GfxObj, or with a slot count outside
  // 1..kMaxParticlesPerEmitter; otherwise allocates the slots. The particle
  // object starts at the origin, so the first "last emission point" is zero.
  bool set_info(std::shared_ptr<const dat::ParticleEmitterInfo> info, std::uint32_t info_id);
  // ParticleEmitter::SetParenting 0x0051C190 (CPhysicsObj::add_child
  // 0x0050F8F0): part -1 or a part the owner has; keeps the whole offset
  // frame (its quaternion is never applied to emission).
  bool set_parenting(const PhysicsObj& owner, std::uint32_t part_index, const dat::Frame& offset);
  // ParticleEmitter::InitEnd 0x0051D400: stamp the creation time (frame
  // clock) and emit initial_particles particles at once.
  bool init_end(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng);

  // ParticleEmitter::UpdateParticles 0x0051D180: false when the emitter is
  // done and must be removed. Parent-local particles follow the owner's
  // current frame; world-released ones their birth frame. At most one birth.
  bool update_particles(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng, bool should_draw);
  // ParticleEmitter::EmitParticle 0x0051D010
  void emit_particle(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng);
  // ParticleEmitter::ShouldEmitParticle 0x0051C8B0
  [[nodiscard]] bool should_emit_particle(const PhysicsObj& owner, const ParticleClock& clock) const;
  // ParticleEmitter::RecordParticleEmission 0x0051C870: count a birth without
  // a particle (an out-of-range finite emitter); retail never un-counts it.
  void record_particle_emission(const PhysicsObj& owner, const ParticleClock& clock);
  // ParticleEmitter::StopEmitter 0x0051C230
  bool stop_emitter(const ParticleClock& clock) noexcept;
  // ParticleEmitter::KillParticle 0x0051C1E0
  bool kill_particle(std::size_t i) noexcept;

  // The emitter object's position: the owner frame combined with the hook
  // offset (its origin only matters).
  [[nodiscard]] glm::vec3 anchor(const PhysicsObj& owner) const;
  [[nodiscard]] bool persistent() const noexcept;

  [[nodiscard]] LocalId owner() const noexcept { return owner_; }
  [[nodiscard]] std::uint32_t id() const noexcept { return id_; }
  void set_id(std::uint32_t id) noexcept { id_ = id; }
  [[nodiscard]] std::uint32_t logical_id() const noexcept { return logical_id_; }
  void set_logical_id(std::uint32_t id) noexcept { logical_id_ = id; }
  [[nodiscard]] std::uint32_t info_id() const noexcept { return info_id_; }
  [[nodiscard]] const dat::ParticleEmitterInfo* info() const noexcept { return info_.get(); }
  [[nodiscard]] std::uint32_t part_index() const noexcept { return part_index_; }
  [[nodiscard]] const dat::Frame& parent_offset() const noexcept { return parent_offset_; }
  [[nodiscard]] std::int32_t num_particles() const noexcept { return num_particles_; }
  [[nodiscard]] std::int32_t total_emitted() const noexcept { return total_emitted_; }
  [[nodiscard]] bool stopped() const noexcept { return stopped_; }
  void stop() noexcept { stopped_ = true; }  // ParticleManager::StopParticleEmitter
  [[nodiscard]] bool degraded_out() const noexcept { return degraded_out_; }
  // The particle object's NoDraw (set while degraded out, or while the owner is Hidden).
  [[nodiscard]] bool no_draw() const noexcept { return no_draw_; }
  void set_no_draw(bool no_draw) noexcept { no_draw_ = no_draw; }
  [[nodiscard]] core::Seconds creation_time() const noexcept { return creation_time_; }
  [[nodiscard]] core::Seconds last_emit_time() const noexcept { return last_emit_time_; }
  [[nodiscard]] core::Seconds last_update_time() const noexcept { return last_update_time_; }
  [[nodiscard]] const glm::vec3& last_emit_offset() const noexcept { return last_emit_offset_; }
  // Every slot; live(i) says whether slot i holds a particle.
  [[nodiscard]] const std::vector<Particle>& particles() const noexcept { return particles_; }
  [[nodiscard]] bool live(std::size_t i) const noexcept { return i < live_.size() && live_[i] != 0; }
  // Slot i's live flag (1 or 0), one a slot (publishing reads them in a row).
  [[nodiscard]] const std::vector<std::uint8_t>& live_flags() const noexcept { return live_; }

 private:
  LocalId owner_;
  std::uint32_t id_ = 0;
  std::uint32_t logical_id_ = 0;
  std::uint32_t info_id_ = 0;
  std::shared_ptr<const dat::ParticleEmitterInfo> info_;
  std::uint32_t part_index_ = kRootPart;
  dat::Frame parent_offset_;
  std::vector<Particle> particles_;
  std::vector<std::uint8_t> live_;  // retail parts[i] != null
  std::int32_t num_particles_ = 0;
  std::int32_t total_emitted_ = 0;
  bool stopped_ = false;
  bool degraded_out_ = false;
  bool no_draw_ = false;
  core::Seconds creation_time_{0.0};
  core::Seconds last_update_time_{0.0};
  core::Seconds last_emit_time_{0.0};
  glm::vec3 last_emit_offset_{0.0f};
};

}  // namespace dereth::sim
