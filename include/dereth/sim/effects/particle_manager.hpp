#pragma once
// ParticleManager (retail ParticleManager, RE cphysobj/CParticleManager.c):
// one object's emitters, logical and anonymous ids, and their update
// (particle_manager.cpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "dereth/core/rng.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/types.hpp"
#include "dereth/sim/effects/particle_emitter.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

// ParticleManager::ParticleManager 0x0051B5D0: the first anonymous emitter id.
inline constexpr std::uint32_t kFirstAnonymousEmitterId = 0xFFFF0000u;

// One object's emitters (retail ParticleManager), in creation order.
class ParticleManager {
 public:
  // ParticleManager::ParticleManager 0x0051B5D0
  explicit ParticleManager(LocalId owner) noexcept : owner_(owner) {}
  ParticleManager(const ParticleManager&) = delete;
  ParticleManager& operator=(const ParticleManager&) = delete;

  // ParticleManager::CreateParticleEmitter 0x0051B6C0: a non-zero id first
  // destroys the live emitter with that id (even when the new one then fails);
  // zero takes the next anonymous id. `info` null means the record did not
  // load. Returns the new emitter's id, or 0 when nothing was created.
  std::uint32_t create_particle_emitter(const PhysicsObj& owner, std::shared_ptr<const dat::ParticleEmitterInfo> info,
                                        std::uint32_t info_id, std::uint32_t part_index, const dat::Frame& offset,
                                        std::uint32_t emitter_id, const ParticleClock& clock, core::Rng& rng,
                                        EmitterEventSink* events);
  // ParticleManager::CreateBlockingParticleEmitter 0x0051B8A0: a non-zero id
  // naming a live emitter does nothing and returns 0; otherwise as above.
  std::uint32_t create_blocking_particle_emitter(const PhysicsObj& owner,
                                                 std::shared_ptr<const dat::ParticleEmitterInfo> info,
                                                 std::uint32_t info_id, std::uint32_t part_index,
                                                 const dat::Frame& offset, std::uint32_t emitter_id,
                                                 const ParticleClock& clock, core::Rng& rng, EmitterEventSink* events);
  // ParticleManager::DestroyParticleEmitter 0x0051B770: removes it now (id 0: nothing).
  bool destroy_particle_emitter(std::uint32_t emitter_id, EmitterEventSink* events);
  // ParticleManager::StopParticleEmitter 0x0051B7B0: no more births; the id
  // stays live until the last particle dies (id 0: nothing).
  bool stop_particle_emitter(std::uint32_t emitter_id, EmitterEventSink* events);
  // ParticleManager::UpdateParticles 0x0051B800: update every emitter, remove
  // the ones that are done (their ids become free).
  void update_particles(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng, bool should_draw,
                        EmitterEventSink* events);
  // ParticleManager::GetNumEmitters 0x0051B580
  [[nodiscard]] std::size_t get_num_emitters() const noexcept { return emitters_.size(); }

  // Every emitter's NoDraw (the owner became Hidden, or visible again).
  void set_no_draw(bool no_draw) noexcept;
  // Removes every emitter, reporting each as Destroyed (the owner went away).
  void destroy_all(EmitterEventSink* events);

  [[nodiscard]] const ParticleEmitter* find(std::uint32_t emitter_id) const noexcept;
  [[nodiscard]] const std::vector<std::unique_ptr<ParticleEmitter>>& emitters() const noexcept { return emitters_; }
  [[nodiscard]] std::uint32_t next_emitter_id() const noexcept { return next_emitter_id_; }

 private:
  std::unique_ptr<ParticleEmitter> remove(std::uint32_t emitter_id) noexcept;

  LocalId owner_;
  std::vector<std::unique_ptr<ParticleEmitter>> emitters_;
  std::uint32_t next_emitter_id_ = kFirstAnonymousEmitterId;
};

}  // namespace dereth::sim
