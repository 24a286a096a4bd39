#pragma once
// Particle (retail Particle plus the CPhysicsPart it poses): one particle's
// birth, ages and closed-form motion (RE cphysobj/CParticleEmitter.c). The
// emitter that owns it is particle_emitter.hpp; the bodies are in
// particle_emitter.cpp, beside the randomisers whose helpers they share.
#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/core/rng.hpp"
#include "dereth/dat/particle_emitter_info.hpp"

namespace dereth::sim {

// Where a particle's part is drawn: an origin and an orientation, without the
// rotation matrix a core::Frame caches beside its quaternion. Nothing reads a
// particle part's matrix (the snapshot publishes the quaternion), so the
// spinning types (4, 9, 11) turn the quaternion alone each tick and the other
// types write only the origin. localtoglobalvec builds the matrix on demand,
// exactly as Frame::cache would.
class ParticlePose {
 public:
  glm::vec3 origin{0.0f};

  [[nodiscard]] const glm::quat& orientation() const noexcept { return q_; }
  void set_orientation(const glm::quat& q) noexcept { q_ = q; }
  // Frame::localtoglobalvec: the orientation's matrix times v.
  [[nodiscard]] glm::vec3 localtoglobalvec(const glm::vec3& v) const noexcept { return glm::mat3_cast(q_) * v; }

 private:
  glm::quat q_{1.0f, 0.0f, 0.0f, 0.0f};
};

// One particle and the part it poses (retail Particle plus its CPhysicsPart).
// Laid out for the emitter's tick: everything Particle::Update reads and
// writes for every particle comes first and fits the first two cache lines
// (the struct is line-aligned); the birth frame, which only particles
// released into the world read, comes last.
struct alignas(64) Particle {
  // Ages in seconds (retail doubles).
  double birthtime = 0.0;  // for a persistent emitter's particles: the last update time
  double lifetime = 0.0;
  double lifespan = 0.0;
  glm::vec3 offset{0.0f};  // world-oriented start offset from the parent origin
  glm::vec3 a{0.0f};
  glm::vec3 b{0.0f};
  glm::vec3 c{0.0f};
  float start_scale = 1.0f;
  float final_scale = 1.0f;
  float start_trans = 0.0f;
  float final_trans = 0.0f;
  // The part: where and how it is drawn.
  ParticlePose frame;         // types 4, 9, 11 also set its orientation
  float scale = 1.0f;         // gfxobj_scale (uniform)
  float translucency = 0.0f;  // 0 opaque .. 1 invisible
  core::Frame start_frame;    // the parent frame at birth

  // Particle::Init 0x0051C930: stamp the birth, snapshot `start_frame`, rotate
  // (hook offset origin + random offset) into the world by it, set a/b/c per
  // type (retail's switch fall-through: 4 -> 3 -> 2, 9 -> 8 -> 2, 11 -> 10 -> 12),
  // then pose the part once. Only the hook offset's origin is used.
  void init(const core::Frame& parent_frame, const glm::vec3& hook_offset_origin, const glm::vec3& random_offset,
            dat::ParticleType type, bool persistent, const glm::vec3& random_a, const glm::vec3& random_b,
            const glm::vec3& random_c, float new_start_scale, float new_final_scale, float new_start_trans,
            float new_final_trans, double new_lifespan, core::Seconds physics_time, core::Rng& rng);

  // Particle::Update 0x0051C290: age the particle, place its part by the
  // closed form of `type` against `parent_frame`, interpolate scale and
  // translucency by lifetime / lifespan.
  void update(dat::ParticleType type, bool persistent, const core::Frame& parent_frame,
              core::Seconds physics_time) noexcept;
};

}  // namespace dereth::sim
