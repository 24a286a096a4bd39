// ParticleManager: one object's emitters (RE cphysobj/CParticleManager.c).
#include "dereth/sim/effects/particle_manager.hpp"

#include <algorithm>
#include <cmath>

#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

// --- ParticleManager -------------------------------------------------------------------

const ParticleEmitter* ParticleManager::find(std::uint32_t emitter_id) const noexcept {
  for (const auto& e : emitters_) {
    if (e->id() == emitter_id) return e.get();
  }
  return nullptr;
}

std::unique_ptr<ParticleEmitter> ParticleManager::remove(std::uint32_t emitter_id) noexcept {
  auto it = std::find_if(emitters_.begin(), emitters_.end(), [&](const auto& e) { return e->id() == emitter_id; });
  if (it == emitters_.end()) return nullptr;
  std::unique_ptr<ParticleEmitter> removed = std::move(*it);
  emitters_.erase(it);
  return removed;
}

// ParticleManager::CreateParticleEmitter 0x0051B6C0
std::uint32_t ParticleManager::create_particle_emitter(const PhysicsObj& owner,
                                                       std::shared_ptr<const dat::ParticleEmitterInfo> info,
                                                       std::uint32_t info_id, std::uint32_t part_index,
                                                       const dat::Frame& offset, std::uint32_t emitter_id,
                                                       const ParticleClock& clock, core::Rng& rng,
                                                       EmitterEventSink* events) {
  // An explicit id replaces: the live emitter goes first, whether or not the
  // new one can be made.
  std::unique_ptr<ParticleEmitter> old;
  if (emitter_id != 0) old = remove(emitter_id);
  auto emitter = std::make_unique<ParticleEmitter>(owner_, clock.now);
  if (!emitter->set_info(std::move(info), info_id) || !emitter->set_parenting(owner, part_index, offset) ||
      !emitter->init_end(owner, clock, rng)) {
    if (old && events != nullptr) events->on_emitter(owner_, old->info_id(), emitter_id, EmitterEvent::Destroyed);
    return 0;
  }
  const std::uint32_t id = emitter_id != 0 ? emitter_id : next_emitter_id_++;
  emitter->set_id(id);
  emitter->set_logical_id(emitter_id);
  emitters_.push_back(std::move(emitter));
  if (events != nullptr) events->on_emitter(owner_, info_id, id, old ? EmitterEvent::Replaced : EmitterEvent::Created);
  return id;
}

// ParticleManager::CreateBlockingParticleEmitter 0x0051B8A0
std::uint32_t ParticleManager::create_blocking_particle_emitter(const PhysicsObj& owner,
                                                                std::shared_ptr<const dat::ParticleEmitterInfo> info,
                                                                std::uint32_t info_id, std::uint32_t part_index,
                                                                const dat::Frame& offset, std::uint32_t emitter_id,
                                                                const ParticleClock& clock, core::Rng& rng,
                                                                EmitterEventSink* events) {
  if (emitter_id != 0 && find(emitter_id) != nullptr) {
    if (events != nullptr) events->on_emitter(owner_, info_id, emitter_id, EmitterEvent::SuppressedByBlocking);
    return 0;
  }
  return create_particle_emitter(owner, std::move(info), info_id, part_index, offset, emitter_id, clock, rng, events);
}

// ParticleManager::DestroyParticleEmitter 0x0051B770
bool ParticleManager::destroy_particle_emitter(std::uint32_t emitter_id, EmitterEventSink* events) {
  if (emitter_id == 0) return false;
  std::unique_ptr<ParticleEmitter> removed = remove(emitter_id);
  if (!removed) return false;
  if (events != nullptr) events->on_emitter(owner_, removed->info_id(), emitter_id, EmitterEvent::Destroyed);
  return true;
}

// ParticleManager::StopParticleEmitter 0x0051B7B0
bool ParticleManager::stop_particle_emitter(std::uint32_t emitter_id, EmitterEventSink* events) {
  if (emitter_id == 0) return false;
  for (auto& e : emitters_) {
    if (e->id() != emitter_id) continue;
    e->stop();
    if (events != nullptr) events->on_emitter(owner_, e->info_id(), emitter_id, EmitterEvent::Stopped);
    return true;
  }
  return false;
}

// ParticleManager::UpdateParticles 0x0051B800
void ParticleManager::update_particles(const PhysicsObj& owner, const ParticleClock& clock, core::Rng& rng,
                                       bool should_draw, EmitterEventSink* events) {
  for (std::size_t i = 0; i < emitters_.size();) {
    ParticleEmitter& emitter = *emitters_[i];
    if (emitter.update_particles(owner, clock, rng, should_draw)) {
      ++i;
      continue;
    }
    if (events != nullptr) events->on_emitter(owner_, emitter.info_id(), emitter.id(), EmitterEvent::Retired);
    emitters_.erase(emitters_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void ParticleManager::set_no_draw(bool no_draw) noexcept {
  for (auto& e : emitters_) e->set_no_draw(no_draw);
}

void ParticleManager::destroy_all(EmitterEventSink* events) {
  if (events != nullptr) {
    for (const auto& e : emitters_) events->on_emitter(owner_, e->info_id(), e->id(), EmitterEvent::Destroyed);
  }
  emitters_.clear();
}

}  // namespace dereth::sim
