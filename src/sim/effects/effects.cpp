#include "dereth/sim/effects/effects.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "dereth/core/log.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

std::uint32_t raw(LocalId id) noexcept {
  return static_cast<std::uint32_t>(id);
}

ParticleClock clock_of(const PhysicsObj& owner) {
  const SimContext& context = owner.context();
  return ParticleClock{context.now(), context.physics_time};
}

}  // namespace

// --- Effects ---------------------------------------------------------------------------

Effects::Effects(dat::RecordCache* records) noexcept : records_(records) {}

Effects::~Effects() = default;

Effects::OwnerState& Effects::touch(const PhysicsObj& owner) {
  OwnerState& state = owners_[owner.local_id()];
  const std::uint32_t bits = owner.state();
  const bool hidden = (bits & ps::Hidden) != 0;
  if (hidden != state.hidden) {
    // CPhysicsObj::set_hidden sets (and clears) NoDraw on every child, and
    // every emitter's particle object is a child of its owner.
    if (state.particles) state.particles->set_no_draw(hidden);
    state.hidden = hidden;
  }
  return state;
}

Effects::OwnerState* Effects::find(LocalId owner) {
  auto it = owners_.find(owner);
  return it == owners_.end() ? nullptr : &it->second;
}

const ScriptManager* Effects::script_manager(LocalId owner) const {
  auto it = owners_.find(owner);
  return it == owners_.end() ? nullptr : it->second.scripts.get();
}

const ParticleManager* Effects::particle_manager(LocalId owner) const {
  auto it = owners_.find(owner);
  return it == owners_.end() ? nullptr : it->second.particles.get();
}

ParticleManager& Effects::particles_for(const PhysicsObj& owner) {
  OwnerState& state = touch(owner);
  if (!state.particles) state.particles = std::make_unique<ParticleManager>(owner.local_id());
  return *state.particles;
}

// PhysicsScriptTable::GetScript 0x00521E40
std::uint32_t Effects::resolve_script(std::uint32_t table_did, std::uint32_t script_type, float intensity) {
  return resolve_script(LocalId::None, table_did, script_type, intensity);
}

// PhysicsScriptTable::GetScript 0x00521E40
std::uint32_t Effects::resolve_script_for(PhysicsObj& owner, std::uint32_t table_did, std::uint32_t script_type,
                                          float intensity) {
  return resolve_script(owner.local_id(), table_did, script_type, intensity);
}

// PhysicsScriptTable::GetScript 0x00521E40, traced for `owner`.
std::uint32_t Effects::resolve_script(LocalId owner, std::uint32_t table_did, std::uint32_t script_type,
                                      float intensity) {
  std::uint32_t chosen = 0;
  if (const auto table = physics_script_table(table_did); table)
    chosen = table->get_script(script_type, intensity).value_or(0);
  if (trace_ != nullptr) trace_->on_script_resolved(owner, table_did, script_type, intensity, chosen);
  return chosen;
}

// ScriptManager::AddScript 0x0051B3A0
bool Effects::play_script(PhysicsObj& owner, std::uint32_t script_did) {
  OwnerState& state = touch(owner);
  auto script = physics_script(script_did);
  if (!script) {
    core::logger(core::Module::Sim)
        ->warn("object {:#010x} (local {}): PhysicsScript {:#010x} missing or malformed; nothing queued", owner.id(),
               raw(owner.local_id()), script_did);
    return false;
  }
  // CPhysicsObj::play_script_internal 0x00510CD0 makes the manager on demand.
  if (!state.scripts) state.scripts = std::make_unique<ScriptManager>();
  const core::Seconds now = owner.context().now();
  if (!state.scripts->add_script_internal(std::move(script), now)) return false;
  if (trace_ != nullptr) {
    trace_->on_script_enqueued(owner.local_id(), script_did, state.scripts->queue().back().start_time);
  }
  return true;
}

// ScriptManager::UpdateScripts 0x0051B480 (from CPhysicsObj::UpdateObjectInternal 0x005156B0)
void Effects::update_scripts(PhysicsObj& owner) {
  OwnerState& state = touch(owner);
  if (!state.scripts) return;
  // `state` stays valid while hooks run: std::map nodes do not move when a
  // hook touches another object.
  state.scripts->update_scripts(owner.context().now(),
                                [this, &owner](const dat::AnimationHook& hook) { execute_hook(owner, hook); });
}

// ParticleManager::UpdateParticles 0x0051B800 (from CPhysicsObj::UpdateObjectInternal 0x005156B0)
void Effects::update_particles(PhysicsObj& owner) {
  OwnerState& state = touch(owner);
  if (!state.particles) return;
  // CPhysicsObj::ShouldDrawParticles 0x0050FE60: in a cell and within the
  // degrade distance. No viewer distance or GfxObj degrade table is modelled
  // yet, so every particle in a cell is in range.
  const bool should_draw = owner.in_cell();
  state.particles->update_particles(owner, clock_of(owner), owner.context().rng, should_draw, trace_);
}

void Effects::object_destroyed(PhysicsObj& owner) {
  auto it = owners_.find(owner.local_id());
  if (it == owners_.end()) return;
  if (it->second.particles) it->second.particles->destroy_all(trace_);
  owners_.erase(it);
}

// CPhysicsObj::play_default_script 0x005132B0
bool Effects::play_default_script(PhysicsObj& owner) {
  if (!owner.in_cell()) return true;
  if (owner.physics_script_table_id() == 0) return false;
  const std::uint32_t script = resolve_script(owner.local_id(), owner.physics_script_table_id(),
                                              owner.default_script_type(), owner.default_script_intensity());
  return owner.play_script_internal(script);
}

// CPhysicsObj::play_default_script 0x00513300
bool Effects::play_default_script(PhysicsObj& owner, std::uint32_t part_index) {
  for (const ChildAttachment& child : owner.children()) {
    if (child.part_index != part_index || child.object == nullptr) continue;
    PhysicsObj& target = *child.object;
    // The child's own table and PhysicsDesc default, not the parent's.
    if (!target.in_cell()) return true;
    if (target.physics_script_table_id() == 0) return false;
    const std::uint32_t script = resolve_script(target.local_id(), target.physics_script_table_id(),
                                                target.default_script_type(), target.default_script_intensity());
    return target.play_script_internal(script);
  }
  return false;
}

// CPhysicsObj::create_particle_emitter 0x0050F360
std::uint32_t Effects::create_particle_emitter(PhysicsObj& owner, std::uint32_t info_id, std::uint32_t part_index,
                                               const dat::Frame& offset, std::uint32_t emitter_id) {
  ParticleManager& manager = particles_for(owner);
  auto info = particle_emitter_info(info_id);
  if (!info) {
    core::logger(core::Module::Sim)
        ->warn("object {:#010x} (local {}): ParticleEmitterInfo {:#010x} missing or malformed; no emitter", owner.id(),
               raw(owner.local_id()), info_id);
  }
  const bool loaded = info != nullptr;
  const std::uint32_t id = manager.create_particle_emitter(owner, std::move(info), info_id, part_index, offset,
                                                           emitter_id, clock_of(owner), owner.context().rng, trace_);
  if (loaded && id == 0) {
    core::logger(core::Module::Sim)
        ->warn(
            "object {:#010x} (local {}): ParticleEmitterInfo {:#010x} unusable on part {:#x} (no hardware GfxObj, "
            "slot count or part out of range); no emitter",
            owner.id(), raw(owner.local_id()), info_id, part_index);
  }
  return id;
}

// CPhysicsObj::create_blocking_particle_emitter 0x0050F3B0
std::uint32_t Effects::create_blocking_particle_emitter(PhysicsObj& owner, std::uint32_t info_id,
                                                        std::uint32_t part_index, const dat::Frame& offset,
                                                        std::uint32_t emitter_id) {
  ParticleManager& manager = particles_for(owner);
  if (emitter_id != 0 && manager.find(emitter_id) != nullptr) {
    // Suppressed before the record is even looked at.
    return manager.create_blocking_particle_emitter(owner, nullptr, info_id, part_index, offset, emitter_id,
                                                    clock_of(owner), owner.context().rng, trace_);
  }
  auto info = particle_emitter_info(info_id);
  if (!info) {
    core::logger(core::Module::Sim)
        ->warn("object {:#010x} (local {}): ParticleEmitterInfo {:#010x} missing or malformed; no emitter", owner.id(),
               raw(owner.local_id()), info_id);
  }
  const bool loaded = info != nullptr;
  const std::uint32_t id = manager.create_blocking_particle_emitter(
      owner, std::move(info), info_id, part_index, offset, emitter_id, clock_of(owner), owner.context().rng, trace_);
  if (loaded && id == 0) {
    core::logger(core::Module::Sim)
        ->warn(
            "object {:#010x} (local {}): ParticleEmitterInfo {:#010x} unusable on part {:#x} (no hardware GfxObj, "
            "slot count or part out of range); no emitter",
            owner.id(), raw(owner.local_id()), info_id, part_index);
  }
  return id;
}

// CPhysicsObj::destroy_particle_emitter 0x0050F400
bool Effects::destroy_particle_emitter(PhysicsObj& owner, std::uint32_t emitter_id) {
  OwnerState& state = touch(owner);
  return state.particles && state.particles->destroy_particle_emitter(emitter_id, trace_);
}

// CPhysicsObj::stop_particle_emitter 0x0050F420
bool Effects::stop_particle_emitter(PhysicsObj& owner, std::uint32_t emitter_id) {
  OwnerState& state = touch(owner);
  return state.particles && state.particles->stop_particle_emitter(emitter_id, trace_);
}

// --- sound -----------------------------------------------------------------------------

// SoundManager::GetSound 0x00550680
std::optional<dat::SoundEntry> Effects::get_sound(const dat::SoundTable& table, std::uint32_t sound_type,
                                                  core::Rng& rng) {
  const dat::SoundTableData* node = dat::find_sound(table, sound_type);
  if (node == nullptr || node->entries.empty()) return std::nullopt;
  const double roll = static_cast<double>(rng.uniform(0.0f, 1.0f));
  const std::size_t count = node->entries.size();
  const auto index = static_cast<std::uint64_t>(static_cast<double>(count - 1) * roll);
  if (index >= count) return std::nullopt;
  const dat::SoundEntry& entry = node->entries[static_cast<std::size_t>(index)];
  if (entry.wave == 0) return std::nullopt;
  return entry;
}

void Effects::push_sound(const PhysicsObj& owner, std::uint32_t wave, std::uint32_t sound_type, float volume,
                         float priority) {
  SoundEvent event;
  event.owner = owner.local_id();
  event.wave_id = wave;
  event.sound_type = sound_type;
  event.volume = volume;
  event.priority = priority;
  event.position = global_frame(owner.position()).origin;
  event.time = owner.context().now();
  sounds_.push_back(event);
}

// CPhysicsObj::play_sound 0x0050F460
bool Effects::play_sound(PhysicsObj& owner, std::uint32_t sound_type, float volume) {
  touch(owner);
  const auto table = sound_table(owner.sound_table_id());
  if (!table) return false;
  // SoundManager::PlaySound(SoundType, CPhysicsObj*, float) 0x00550AF0: the
  // message's volume replaces the entry's.
  core::Rng& rng = owner.context().rng;
  if (const auto entry = get_sound(*table, sound_type, rng); entry) {
    // SoundManager::PlayProbability 0x005500E0
    if (rng.unit() < entry->probability) push_sound(owner, entry->wave, sound_type, volume, entry->priority);
  }
  return true;
}

// SoundManager::PlaySound(SoundType, CPhysicsObj*) 0x00550B70
void Effects::play_sound_type(PhysicsObj& owner, std::uint32_t sound_type) {
  const auto table = sound_table(owner.sound_table_id());
  if (!table) return;
  core::Rng& rng = owner.context().rng;
  if (const auto entry = get_sound(*table, sound_type, rng); entry) {
    if (rng.unit() < entry->probability) push_sound(owner, entry->wave, sound_type, entry->volume, entry->priority);
  }
}

// SoundManager::PlaySound(gid, CPhysicsObj*) 0x00550730
void Effects::play_wave(PhysicsObj& owner, std::uint32_t wave) {
  if (wave == 0) return;
  push_sound(owner, wave, 0, 1.0f, 0.0f);
}

// SoundManager::PlaySound(gid, CPhysicsObj*, prio, prob, vol) 0x005507A0
void Effects::play_wave(PhysicsObj& owner, std::uint32_t wave, float priority, float probability, float volume) {
  if (wave == 0) return;
  if (owner.context().rng.unit() < probability) push_sound(owner, wave, 0, volume, priority);
}

// --- hooks -----------------------------------------------------------------------------

// CAnimHook::Execute (RE canim/CAnimHook.c), every hook type.
void Effects::execute_hook(PhysicsObj& owner, const dat::AnimationHook& hook) {
  touch(owner);
  if (trace_ != nullptr) trace_->on_hook_executed(owner.local_id(), hook.type(), owner.context().now());
  std::visit(
      [&](const auto& h) {
        using H = std::decay_t<decltype(h)>;
        if constexpr (std::is_same_v<H, dat::SoundHook>) {
          play_wave(owner, h.wave);  // SoundHook::Execute 0x00526A20
        } else if constexpr (std::is_same_v<H, dat::SoundTableHook>) {
          play_sound_type(owner, h.sound);  // SoundTableHook::Execute 0x00526AB0
        } else if constexpr (std::is_same_v<H, dat::SoundTweakedHook>) {
          // SoundTweakedHook::Execute 0x00526A80
          play_wave(owner, h.wave, h.priority, h.probability, h.volume);
        } else if constexpr (std::is_same_v<H, dat::ReplaceObjectHook>) {
          if (PartArray* parts = owner.part_array(); parts != nullptr) parts->replace_part_gfx(h.part_index, h.gfx_obj);
        } else if constexpr (std::is_same_v<H, dat::EtherealHook>) {
          owner.set_ethereal(h.ethereal != 0, false);  // EtherealHook::Execute 0x00526BC0
        } else if constexpr (std::is_same_v<H, dat::TransparentPartHook>) {
          // TransparentPartHook::Execute 0x00526CC0
          owner.set_part_translucency(h.part_index, h.start, h.end, static_cast<double>(h.time));
        } else if constexpr (std::is_same_v<H, dat::LuminousHook>) {
          owner.set_luminosity(h.start, h.end, static_cast<double>(h.time));  // LuminousHook::Execute 0x00526D60
        } else if constexpr (std::is_same_v<H, dat::LuminousPartHook>) {
          // LuminousPartHook::Execute 0x00526D30
          owner.set_part_luminosity(h.part_index, h.start, h.end, static_cast<double>(h.time));
        } else if constexpr (std::is_same_v<H, dat::DiffuseHook>) {
          owner.set_diffusion(h.start, h.end, static_cast<double>(h.time));  // DiffuseHook::Execute 0x00526E00
        } else if constexpr (std::is_same_v<H, dat::DiffusePartHook>) {
          // DiffusePartHook::Execute 0x00526D80
          owner.set_part_diffusion(h.part_index, h.start, h.end, static_cast<double>(h.time));
        } else if constexpr (std::is_same_v<H, dat::ScaleHook>) {
          owner.set_scale(h.end, static_cast<double>(h.time));  // ScaleHook::Execute 0x00526E40
        } else if constexpr (std::is_same_v<H, dat::CreateBlockingParticleHook>) {
          // CreateBlockingParticleHook::Execute 0x00526EF0: the whole CreateParticle payload.
          create_blocking_particle_emitter(owner, h.emitter_info, h.part_index, h.offset, h.emitter_id);
        } else if constexpr (std::is_same_v<H, dat::CreateParticleHook>) {
          // CreateParticleHook::Execute 0x00526EC0
          create_particle_emitter(owner, h.emitter_info, h.part_index, h.offset, h.emitter_id);
        } else if constexpr (std::is_same_v<H, dat::DestroyParticleHook>) {
          destroy_particle_emitter(owner, h.emitter_id);  // DestroyParticleHook::Execute 0x00526F10
        } else if constexpr (std::is_same_v<H, dat::StopParticleHook>) {
          stop_particle_emitter(owner, h.emitter_id);  // StopParticleHook::Execute 0x00526F20
        } else if constexpr (std::is_same_v<H, dat::NoDrawHook>) {
          owner.set_nodraw(h.no_draw != 0, false);  // NoDrawHook::Execute 0x00526BE0
        } else if constexpr (std::is_same_v<H, dat::DefaultScriptHook>) {
          play_default_script(owner);  // DefaultScriptHook::Execute 0x00526C10
        } else if constexpr (std::is_same_v<H, dat::DefaultScriptPartHook>) {
          play_default_script(owner, h.part_index);  // DefaultScriptPartHook::Execute 0x00526C00
        } else if constexpr (std::is_same_v<H, dat::CallPESHook>) {
          owner.call_pes(h.script, h.pause);  // CallPESHook::Execute 0x00526E20
        } else if constexpr (std::is_same_v<H, dat::TransparentHook>) {
          // TransparentHook::Execute 0x00526C30
          owner.set_translucency2(h.start, h.end, static_cast<double>(h.time));
        } else if constexpr (std::is_same_v<H, dat::SetOmegaHook>) {
          owner.set_omega(h.axis, true);  // SetOmegaHook::Execute 0x00526F30
        } else if constexpr (std::is_same_v<H, dat::SetLightHook>) {
          // SetLightHook::Execute 0x00526FD0: the same state the Lighting bit drives.
          owner.set_lights(h.lights_on != 0, false);
        } else {
          // NoOp. AttackHook (CPhysicsObj::attack: the weenie's combat, not
          // an effect). AnimationDoneHook: retail's unpacker drops it; the
          // sequencer raises its own animation-done. TextureVelocity(Part):
          // UV scrolling has no PartArray setter yet.
        }
      },
      hook.payload);
  // What the hook changed (lights, Hidden, position) is what publish shows.
  touch(owner);
}

// --- publish ---------------------------------------------------------------------------

void Effects::publish(RenderSnapshot& snapshot) const {
  // A recycled snapshot's emitters are written over in order, each keeping
  // its particle list's storage; the ones past the last live emitter go.
  std::vector<EmitterSnapshot>& published = snapshot.emitters;
  std::size_t used = 0;
  for (const auto& [id, state] : owners_) {
    if (state.particles) {
      for (const auto& emitter : state.particles->emitters()) {
        if (emitter->no_draw()) continue;
        const dat::ParticleEmitterInfo* info = emitter->info();
        if (used == published.size()) published.emplace_back();
        EmitterSnapshot& out = published[used++];
        std::vector<ParticleSnapshot> kept = std::move(out.particles);
        out = EmitterSnapshot{};
        out.particles = std::move(kept);
        out.owner = id;
        out.emitter_info_id = emitter->info_id();
        out.logical_id = emitter->logical_id();
        out.gfx_obj = info != nullptr ? info->hw_gfx_obj_id : 0;
        out.world_space = info == nullptr || info->is_parent_local == 0;
        // The live slots in slot order, written in place: sized for every
        // slot, then cut to the live ones.
        const auto& particles = emitter->particles();
        const auto& live = emitter->live_flags();
        const std::size_t n = std::min(particles.size(), live.size());
        out.particles.resize(n);
        ParticleSnapshot* next = out.particles.data();
        for (std::size_t i = 0; i < n; ++i) {
          if (live[i] == 0) continue;
          const Particle& p = particles[i];
          next->position = p.frame.origin;
          next->scale = p.scale;
          next->alpha = 1.0f - p.translucency;
          next->orientation = p.frame.orientation();
          ++next;
        }
        out.particles.resize(static_cast<std::size_t>(next - out.particles.data()));
      }
    }
  }
  published.erase(published.begin() + static_cast<std::ptrdiff_t>(used), published.end());
  snapshot.sounds.insert(snapshot.sounds.end(), sounds_.begin(), sounds_.end());
}

}  // namespace dereth::sim
