#include "dereth/sim/effects/particle_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include <glm/geometric.hpp>

#include "dereth/sim/effects/particle_spin.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

namespace {

using dat::ParticleType;

constexpr float kPi = 3.1415927f;  // Particle::Init's RollDice bounds

// AC1Legacy::Vector3::normalize_check_small: true (and v untouched) when v is
// shorter than EPSILON, else v normalised.
bool normalize_check_small(glm::vec3& v) noexcept {
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (!(length >= core::kEpsilon)) return true;
  v /= length;
  return false;
}

// RollDice(0, 1) * (max - min) + min, in retail's float arithmetic.
float magnitude(float lo, float hi, core::Rng& rng) noexcept {
  return (hi - lo) * rng.uniform(0.0f, 1.0f) + lo;
}

glm::vec3 to_vec3(double x, double y, double z) noexcept {
  return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

}  // namespace

const char* to_string(EmitterEvent event) noexcept {
  switch (event) {
    case EmitterEvent::Created: return "created";
    case EmitterEvent::Replaced: return "replaced";
    case EmitterEvent::SuppressedByBlocking: return "suppressed-by-blocking";
    case EmitterEvent::Stopped: return "stopped";
    case EmitterEvent::Retired: return "retired";
    case EmitterEvent::Destroyed: return "destroyed";
  }
  return "unknown";
}

core::Frame emitter_parent_frame(const PhysicsObj& owner, std::uint32_t part_index) {
  const Position& p = owner.position();
  if (part_index != kRootPart) {
    if (const PartArray* parts = owner.part_array(); parts != nullptr) {
      if (std::optional<core::Frame> part = parts->part_frame(part_index); part) {
        return global_frame(Position{p.objcell_id, *part});
      }
    }
  }
  return global_frame(p);
}

// --- ParticleEmitterInfo randomisers ----------------------------------------------

namespace emitter_info {

// ParticleEmitterInfo::GetRandomLifespan 0x00517210
double get_random_lifespan(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  const double result = static_cast<double>(rng.uniform(-1.0f, 1.0f)) * info.lifespan_rand + info.lifespan;
  return result < 0.0 ? 0.0 : result;
}

namespace {
float clamp_scale(double value) noexcept {
  if (!(value >= 0.1)) return 0.1f;  // retail: `result >= 0.1` else 0.1 (NaN too)
  return value > 10.0 ? 10.0f : static_cast<float>(value);
}
float clamp_trans(double value) noexcept {
  if (!(value >= 0.0)) return 0.0f;
  return value > 1.0 ? 1.0f : static_cast<float>(value);
}
}  // namespace

// ParticleEmitterInfo::GetRandomStartScale 0x005170D0
float get_random_start_scale(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return clamp_scale(static_cast<double>(rng.uniform(-1.0f, 1.0f)) * info.scale_rand + info.start_scale);
}

// ParticleEmitterInfo::GetRandomFinalScale 0x00517120
float get_random_final_scale(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return clamp_scale(static_cast<double>(rng.uniform(-1.0f, 1.0f)) * info.scale_rand + info.final_scale);
}

// ParticleEmitterInfo::GetRandomStartTrans 0x00517170
float get_random_start_trans(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return clamp_trans(static_cast<double>(rng.uniform(-1.0f, 1.0f)) * info.trans_rand + info.start_trans);
}

// ParticleEmitterInfo::GetRandomFinalTrans 0x005171C0
float get_random_final_trans(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return clamp_trans(static_cast<double>(rng.uniform(-1.0f, 1.0f)) * info.trans_rand + info.final_trans);
}

// ParticleEmitterInfo::GetRandomOffset 0x005174A0
glm::vec3 get_random_offset(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  // Retail draws z, then y, then x.
  const float z = rng.uniform(-1.0f, 1.0f);
  const float y = rng.uniform(-1.0f, 1.0f);
  const float x = rng.uniform(-1.0f, 1.0f);
  const glm::vec3& dir = info.offset_dir;
  const float along = y * dir.y + z * dir.z + x * dir.x;
  glm::vec3 offset{x - along * dir.x, y - along * dir.y, z - along * dir.z};
  if (normalize_check_small(offset)) return glm::vec3(0.0f);
  return offset * magnitude(info.min_offset, info.max_offset, rng);
}

// ParticleEmitterInfo::GetRandomA 0x00517610
glm::vec3 get_random_a(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return info.a * magnitude(info.min_a, info.max_a, rng);
}

// ParticleEmitterInfo::GetRandomB 0x00517670
glm::vec3 get_random_b(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return info.b * magnitude(info.min_b, info.max_b, rng);
}

// ParticleEmitterInfo::GetRandomC 0x005176D0
glm::vec3 get_random_c(const dat::ParticleEmitterInfo& info, core::Rng& rng) noexcept {
  return info.c * magnitude(info.min_c, info.max_c, rng);
}

// ParticleEmitterInfo::ShouldEmitParticle 0x00517420
bool should_emit_particle(const dat::ParticleEmitterInfo& info, std::int32_t num_particles, std::int32_t total_emitted,
                          const glm::vec3& emitter_offset, core::Seconds last_emit_time, core::Seconds now) noexcept {
  const std::int32_t total = info.total_particles;
  if (!((total <= 0 || total_emitted < total) && num_particles < info.max_particles)) return false;
  const auto type = static_cast<std::int32_t>(info.emitter_type);
  if ((type & 1) != 0) {
    // BirthratePerSec: birthrate is the seconds between births.
    return (now - last_emit_time).count() > info.birthrate;
  }
  if ((type & 2) != 0) {
    // BirthratePerMeter: the decompiler lost this x87 compare (only its
    // C0|C2 test survives); the reading taken is "the emitter moved farther
    // than birthrate metres since the last birth", an unordered compare
    // (NaN) counting as a birth as C2 would (spec/dat-format.md 4.2).
    const double moved = std::sqrt(static_cast<double>(glm::dot(emitter_offset, emitter_offset)));
    return !(info.birthrate >= moved);
  }
  return false;
}

}  // namespace emitter_info

// --- Particle ------------------------------------------------------------------------

// Particle::Init 0x0051C930
void Particle::init(const core::Frame& parent_frame, const glm::vec3& hook_offset_origin,
                    const glm::vec3& random_offset, dat::ParticleType type, bool persistent, const glm::vec3& random_a,
                    const glm::vec3& random_b, const glm::vec3& random_c, float new_start_scale, float new_final_scale,
                    float new_start_trans, float new_final_trans, double new_lifespan, core::Seconds physics_time,
                    core::Rng& rng) {
  lifetime = 0.0;
  birthtime = physics_time.count();
  lifespan = new_lifespan;
  start_frame = parent_frame;
  // The hook offset's origin plus the random offset, turned (not moved) into
  // the world by the parent frame at birth; the hook quaternion is unused.
  offset = start_frame.localtoglobalvec(random_offset + hook_offset_origin);
  const auto l2g = [this](const glm::vec3& v) { return start_frame.localtoglobalvec(v); };
  switch (type) {
    case ParticleType::ParabolicLVGAGR:  // 4 -> 3 -> 2
      c = random_c;
      [[fallthrough]];
    case ParticleType::ParabolicLVGA: b = random_b; [[fallthrough]];
    case ParticleType::LocalVelocity: a = l2g(random_a); break;
    case ParticleType::ParabolicLVLALR:  // 9 -> 8
      c = l2g(random_c);
      [[fallthrough]];
    case ParticleType::ParabolicLVLA:
      b = l2g(random_b);
      a = l2g(random_a);
      break;
    case ParticleType::ParabolicGVGAGR:  // 11 -> 10 -> 12
      c = random_c;
      [[fallthrough]];
    case ParticleType::ParabolicGVGA: b = random_b; [[fallthrough]];
    case ParticleType::GlobalVelocity: a = random_a; break;
    case ParticleType::Swarm:
      a = l2g(random_a);
      b = random_b;
      c = random_c;
      break;
    case ParticleType::Implode:
      a = random_a;
      b = random_b;
      offset *= random_c;  // component-wise; the scaled offset is also c
      c = offset;
      break;
    case ParticleType::Explode: {
      a = random_a;
      b = random_b;
      const float heading = rng.uniform(-kPi, kPi);
      const float pitch = rng.uniform(-kPi, kPi);
      const double cos_pitch = std::cos(static_cast<double>(pitch));
      c = to_vec3(std::cos(static_cast<double>(heading)) * static_cast<double>(random_c.x) * cos_pitch,
                  std::sin(static_cast<double>(heading)) * static_cast<double>(random_c.y) * cos_pitch,
                  std::sin(static_cast<double>(pitch)) * static_cast<double>(random_c.z));
      if (normalize_check_small(c)) c = glm::vec3(0.0f);
      break;
    }
    case ParticleType::Still: break;
    default:
      a = random_a;
      b = random_b;
      c = random_c;
      break;
  }
  start_scale = new_start_scale;
  final_scale = new_final_scale;
  final_trans = new_final_trans;
  start_trans = new_start_trans;
  scale = new_start_scale;
  translucency = start_trans;
  update(type, persistent, start_frame, physics_time);
}

namespace {

// The types that turn their part each tick (4, 9 and 11).
template <ParticleType kType>
constexpr bool kSpins = kType == ParticleType::ParabolicLVGAGR || kType == ParticleType::ParabolicLVLALR ||
                        kType == ParticleType::ParabolicGVGAGR;

// Particle::Update 0x0051C290, for one particle type known when compiled:
// the emitter's loop runs one instantiation over all its particles, so the
// per-type switch is taken once an emitter, not once a particle. The turn of
// the spinning types is staged in `spins`; the particle's orientation is set
// when the caller flushes it.
// `parent_origin` is parent_frame's origin widened to double (the caller
// widens a shared parent's once for all its particles).
template <ParticleType kType>
[[gnu::always_inline]] inline void update_as(Particle& particle, bool persistent, const core::Frame& parent_frame,
                                             const glm::dvec3& parent_origin, double now,
                                             [[maybe_unused]] SpinBatch* spins) noexcept {
  if (persistent) {
    // An infinite emitter's particles accumulate age; birthtime doubles as
    // the time of the last update.
    particle.lifetime += now - particle.birthtime;
    particle.birthtime = now;
  } else {
    particle.lifetime = now - particle.birthtime;
  }
  const double t = particle.lifetime;
  const glm::dvec3& p = parent_origin;
  const glm::dvec3 o(particle.offset);
  const glm::dvec3 va(particle.a);
  const glm::dvec3 vb(particle.b);
  const glm::dvec3 vc(particle.c);
  ParticlePose& frame = particle.frame;
  if constexpr (kType == ParticleType::Still) {
    frame.origin = glm::vec3(p + o);
  } else if constexpr (kType == ParticleType::LocalVelocity || kType == ParticleType::GlobalVelocity) {
    frame.origin = glm::vec3(p + o + va * t);
  } else if constexpr (kType == ParticleType::ParabolicLVGA || kType == ParticleType::ParabolicLVLA ||
                       kType == ParticleType::ParabolicGVGA) {
    frame.origin = glm::vec3(p + o + va * t + vb * (0.5 * t * t));
  } else if constexpr (kSpins<kType>) {
    // The parent's orientation is copied, then turned by c*t about the
    // particle's local axes (Frame::rotate on a copy of the parent frame).
    frame.origin = glm::vec3(p + o + va * t + vb * (0.5 * t * t));
    spins->add(parent_frame, glm::vec3(vc * t), frame);
  } else if constexpr (kType == ParticleType::Swarm) {
    frame.origin =
        to_vec3(std::cos(vb.x * t) * vc.x + t * va.x + o.x + p.x, std::sin(vb.y * t) * vc.y + t * va.y + o.y + p.y,
                std::cos(vb.z * t) * vc.z + t * va.z + o.z + p.z);
  } else if constexpr (kType == ParticleType::Implode) {
    const double wave = std::cos(va.x * t);
    frame.origin = glm::vec3(vc * wave + vb * (t * t) + o + p);
  } else if constexpr (kType == ParticleType::Explode) {
    // Retail adds a.z*t on z only.
    frame.origin = to_vec3((t * vb.x + vc.x * va.x) * t + o.x + p.x, (t * vb.y + vc.y * va.x) * t + o.y + p.y,
                           (t * vb.z + vc.z * va.x + va.z) * t + o.z + p.z);
  } else {
    // Unknown types leave the part where it was.
  }
  const double k = particle.lifetime < particle.lifespan ? particle.lifetime / particle.lifespan : 1.0;
  particle.scale = static_cast<float>(static_cast<double>(particle.final_scale - particle.start_scale) * k +
                                      static_cast<double>(particle.start_scale));
  particle.translucency = static_cast<float>(static_cast<double>(particle.final_trans - particle.start_trans) * k +
                                             static_cast<double>(particle.start_trans));
}

// Calls fn with ParticleType `type` as a compile-time constant (unknown
// values as ParticleType::Unknown).
template <class Fn>
void with_particle_type(ParticleType type, Fn&& fn) {
  using T = ParticleType;
  switch (type) {
    case T::Still: fn(std::integral_constant<T, T::Still>{}); break;
    case T::LocalVelocity: fn(std::integral_constant<T, T::LocalVelocity>{}); break;
    case T::ParabolicLVGA: fn(std::integral_constant<T, T::ParabolicLVGA>{}); break;
    case T::ParabolicLVGAGR: fn(std::integral_constant<T, T::ParabolicLVGAGR>{}); break;
    case T::Swarm: fn(std::integral_constant<T, T::Swarm>{}); break;
    case T::Explode: fn(std::integral_constant<T, T::Explode>{}); break;
    case T::Implode: fn(std::integral_constant<T, T::Implode>{}); break;
    case T::ParabolicLVLA: fn(std::integral_constant<T, T::ParabolicLVLA>{}); break;
    case T::ParabolicLVLALR: fn(std::integral_constant<T, T::ParabolicLVLALR>{}); break;
    case T::ParabolicGVGA: fn(std::integral_constant<T, T::ParabolicGVGA>{}); break;
    case T::ParabolicGVGAGR: fn(std::integral_constant<T, T::ParabolicGVGAGR>{}); break;
    case T::GlobalVelocity: fn(std::integral_constant<T, T::GlobalVelocity>{}); break;
    default: fn(std::integral_constant<T, T::Unknown>{}); break;
  }
}

}  // namespace

// Particle::Update 0x0051C290
void Particle::update(dat::ParticleType type, bool persistent, const core::Frame& parent_frame,
                      core::Seconds physics_time) noexcept {
  with_particle_type(type, [&](auto k) {
    if constexpr (kSpins<decltype(k)::value>) {
      SpinBatch spins;
      update_as<decltype(k)::value>(*this, persistent, parent_frame, glm::dvec3(parent_frame.origin),
                                    physics_time.count(), &spins);
      spins.flush();
    } else {
      update_as<decltype(k)::value>(*this, persistent, parent_frame, glm::dvec3(parent_frame.origin),
                                    physics_time.count(), nullptr);
    }
  });
}

// --- ParticleEmitter -------------------------------------------------------------------

// ParticleEmitter::ParticleEmitter 0x0051C7E0
ParticleEmitter::ParticleEmitter(LocalId owner, core::Seconds now)
    : owner_(owner), last_update_time_(now), last_emit_time_(now) {}

bool ParticleEmitter::persistent() const noexcept {
  return info_ && info_->total_particles == 0 && info_->total_seconds == 0.0;
}

glm::vec3 ParticleEmitter::anchor(const PhysicsObj& owner) const {
  return emitter_parent_frame(owner, part_index_).localtoglobal(parent_offset_.origin);
}

// ParticleEmitter::SetInfo 0x0051CE90
bool ParticleEmitter::set_info(std::shared_ptr<const dat::ParticleEmitterInfo> info, std::uint32_t info_id) {
  info_id_ = info_id;
  if (!info) return false;
  // The 2013 client builds particles only from the hardware GfxObj.
  if (info->hw_gfx_obj_id == 0) return false;
  // Untrusted slot count: retail would index an empty part array at zero.
  if (info->max_particles <= 0 || info->max_particles > kMaxParticlesPerEmitter) return false;
  const auto slots = static_cast<std::size_t>(info->max_particles);
  particles_.assign(slots, Particle{});
  live_.assign(slots, 0);
  // The particle object has not been placed yet: the first "last emission
  // point" is its initial position, the origin.
  last_emit_offset_ = glm::vec3(0.0f);
  info_ = std::move(info);
  return true;
}

// ParticleEmitter::SetParenting 0x0051C190
bool ParticleEmitter::set_parenting(const PhysicsObj& owner, std::uint32_t part_index, const dat::Frame& offset) {
  // CPhysicsObj::add_child 0x0050F8F0: part -1, or a part the owner has.
  if (part_index != kRootPart) {
    const PartArray* parts = owner.part_array();
    const std::size_t count = parts != nullptr ? parts->num_parts() : 0;
    if (part_index >= count) return false;
  }
  part_index_ = part_index;
  parent_offset_ = offset;
  return true;
}

// ParticleEmitter::InitEnd 0x0051D400
bool ParticleEmitter::init_end(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng) {
  creation_time_ = clock.now;
  // Births past the slot count find no free slot and do nothing, so the loop
  // stops there (initial_particles is untrusted).
  const std::int32_t initial = std::min(info_->initial_particles, info_->max_particles);
  for (std::int32_t i = 0; i < initial; ++i) emit_particle(owner, clock, rng);
  return true;
}

// ParticleEmitter::ShouldEmitParticle 0x0051C8B0
bool ParticleEmitter::should_emit_particle(const PhysicsObj& owner, const ParticleClock& clock) const {
  glm::vec3 delta(0.0f);
  const auto type = static_cast<std::int32_t>(info_->emitter_type);
  if ((type & 2) != 0) delta = anchor(owner) - last_emit_offset_;
  return emitter_info::should_emit_particle(*info_, num_particles_, total_emitted_, delta, last_emit_time_, clock.now);
}

// ParticleEmitter::RecordParticleEmission 0x0051C870
void ParticleEmitter::record_particle_emission(const PhysicsObj& owner, const ParticleClock& clock) {
  ++num_particles_;
  ++total_emitted_;
  last_emit_offset_ = anchor(owner);
  last_emit_time_ = clock.physics_time;
}

// ParticleEmitter::EmitParticle 0x0051D010
void ParticleEmitter::emit_particle(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng) {
  // The first free slot (retail's linear scan), found by memchr.
  const void* free_slot = live_.empty() ? nullptr : std::memchr(live_.data(), 0, live_.size());
  if (free_slot == nullptr) return;
  const auto slot = static_cast<std::size_t>(static_cast<const std::uint8_t*>(free_slot) - live_.data());
  live_[slot] = 1;
  const dat::ParticleEmitterInfo& info = *info_;
  // Retail's draw order: lifespan, final trans, start trans, final scale,
  // start scale, C, B, A, offset.
  const double lifespan = emitter_info::get_random_lifespan(info, rng);
  const float final_trans = emitter_info::get_random_final_trans(info, rng);
  const float start_trans = emitter_info::get_random_start_trans(info, rng);
  const float final_scale = emitter_info::get_random_final_scale(info, rng);
  const float start_scale = emitter_info::get_random_start_scale(info, rng);
  const glm::vec3 c = emitter_info::get_random_c(info, rng);
  const glm::vec3 b = emitter_info::get_random_b(info, rng);
  const glm::vec3 a = emitter_info::get_random_a(info, rng);
  const glm::vec3 offset = emitter_info::get_random_offset(info, rng);
  particles_[slot].init(emitter_parent_frame(owner, part_index_), parent_offset_.origin, offset, info.particle_type,
                        persistent(), a, b, c, start_scale, final_scale, start_trans, final_trans, lifespan,
                        clock.physics_time, rng);
  ++num_particles_;
  ++total_emitted_;
  last_emit_offset_ = anchor(owner);
  last_emit_time_ = clock.physics_time;
}

// ParticleEmitter::StopEmitter 0x0051C230
bool ParticleEmitter::stop_emitter(const ParticleClock& clock) noexcept {
  if (!stopped_) {
    const dat::ParticleEmitterInfo& info = *info_;
    if (info.total_seconds > 0.0 && (creation_time_ + core::Seconds{info.total_seconds}) < clock.physics_time) {
      stopped_ = true;
    }
    if (info.total_particles != 0 && total_emitted_ >= info.total_particles) stopped_ = true;
  }
  return stopped_;
}

// ParticleEmitter::KillParticle 0x0051C1E0
bool ParticleEmitter::kill_particle(std::size_t i) noexcept {
  if (particles_[i].lifetime < particles_[i].lifespan) return false;
  live_[i] = 0;
  --num_particles_;
  return true;
}

// ParticleEmitter::UpdateParticles 0x0051D180
bool ParticleEmitter::update_particles(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng,
                                       bool should_draw) {
  if (!info_) return false;
  const dat::ParticleEmitterInfo& info = *info_;
  const bool infinite = persistent();
  if (!should_draw) {
    // Out of range: hide the particle object and age without moving.
    if (!degraded_out_) {
      no_draw_ = true;
      degraded_out_ = true;
    }
    last_update_time_ = clock.physics_time;
    if (!infinite) {
      for (std::size_t i = 0; i < live_.size(); ++i) {
        if (live_[i] == 0) continue;
        particles_[i].lifetime = (clock.physics_time - core::Seconds{particles_[i].birthtime}).count();
        kill_particle(i);
      }
      if (stopped_) return num_particles_ != 0;
      // A birth is counted without a particle; retail never un-counts it.
      if (should_emit_particle(owner, clock)) record_particle_emission(owner, clock);
      stop_emitter(clock);
      return true;
    }
    // An infinite emitter freezes every particle's age.
    for (Particle& particle : particles_) particle.birthtime = clock.physics_time.count();
    return true;
  }
  if (degraded_out_) {
    degraded_out_ = false;
    no_draw_ = false;
  }
  // Parent-local particles follow the owner's current frame; world-released
  // ones keep the frame they were born with.
  const bool parent_local = info.is_parent_local != 0;
  const core::Frame live_frame = parent_local ? emitter_parent_frame(owner, part_index_) : core::Frame{};
  const double now = clock.physics_time.count();
  with_particle_type(info.particle_type, [&](auto type) {
    constexpr ParticleType kType = decltype(type)::value;
    // The loop is compiled for each of parent-local or released particles
    // and persistent or not, so none tests which frame a particle turns from
    // or how it ages. The slots are read through local pointers (the
    // particles' stores could otherwise be the vectors' own members, reloaded
    // every particle) and a parent-local emitter's origin is widened once.
    const glm::dvec3 live_origin(live_frame.origin);
    std::uint8_t* const live = live_.data();
    Particle* const slots = particles_.data();
    const std::size_t count = std::min(live_.size(), particles_.size());
    const auto update_all = [&](SpinBatch* spins, auto local, auto persistent) {
      for (std::size_t i = 0; i < count; ++i) {
        if (live[i] == 0) continue;
        Particle& particle = slots[i];
        if constexpr (decltype(local)::value) {
          update_as<kType>(particle, decltype(persistent)::value, live_frame, live_origin, now, spins);
        } else {
          update_as<kType>(particle, decltype(persistent)::value, particle.start_frame,
                           glm::dvec3(particle.start_frame.origin), now, spins);
        }
        // kill_particle's own test and steps, without the call.
        if (!(particle.lifetime < particle.lifespan)) {
          live[i] = 0;
          --num_particles_;
        }
      }
    };
    const auto update_either = [&](SpinBatch* spins) {
      if (parent_local) {
        if (infinite) {
          update_all(spins, std::true_type{}, std::true_type{});
        } else {
          update_all(spins, std::true_type{}, std::false_type{});
        }
      } else if (infinite) {
        update_all(spins, std::false_type{}, std::true_type{});
      } else {
        update_all(spins, std::false_type{}, std::false_type{});
      }
    };
    if constexpr (kSpins<kType>) {
      // The turns are taken a block at a time; all before any birth below
      // reuses a slot. Parent-local particles all turn from the live frame.
      SpinBatch spins(parent_local ? &live_frame : nullptr);
      update_either(&spins);
      spins.flush();
    } else {
      update_either(nullptr);
    }
  });
  bool keep = true;
  if (stopped_) {
    keep = num_particles_ != 0;
  } else {
    // At most one birth per update.
    if (should_emit_particle(owner, clock)) emit_particle(owner, clock, rng);
    stop_emitter(clock);
  }
  last_update_time_ = clock.physics_time;
  return keep;
}

}  // namespace dereth::sim
