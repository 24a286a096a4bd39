#pragma once
// Effects: the world's EffectsSink (seed retail-projectile-vfx sections 5 to
// 8, 11, 13 and 14; spec/physics.md sections 7 to 9). It owns each object's
// ScriptManager and ParticleManager (keyed by LocalId) and executes every DAT
// hook an animation frame or a PhysicsScript reaches, as retail's
// CAnimHook::Execute bodies do (which hook does what: docs/sim.md
// "PhysicsScripts, particles and effect hooks"). A missing record does
// nothing (never a substitute effect); randomness and time come only from
// the SimContext.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/sound_table.hpp"
#include "dereth/sim/effects/effects_trace_sink.hpp"
#include "dereth/sim/effects/particle_manager.hpp"
#include "dereth/sim/effects/script_manager.hpp"
#include "dereth/sim/object/seams.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::dat {
class DatFile;
}  // namespace dereth::dat

namespace dereth::sim {

class PhysicsObj;

class Effects final : public EffectsSink {
 public:
  // `records` is the world's record cache, never owned, and may be null (no
  // data: nothing resolves).
  explicit Effects(dat::RecordCache* records) noexcept;
  Effects(const Effects&) = delete;
  Effects& operator=(const Effects&) = delete;
  ~Effects() override;

  void set_trace_sink(EffectsTraceSink* sink) noexcept { trace_ = sink; }

  // --- EffectsSink ---------------------------------------------------------
  // PhysicsScriptTable::GetScript 0x00521E40 (the owner is not named: traced as None).
  [[nodiscard]] std::uint32_t resolve_script(std::uint32_t table_did, std::uint32_t script_type,
                                             float intensity) override;
  // ScriptManager::AddScript 0x0051B3A0: load the script and append it to the
  // owner's FIFO; false when it does not load.
  bool play_script(PhysicsObj& owner, std::uint32_t script_did) override;
  // CPhysicsObj::play_sound 0x0050F460: with a sound table, pick a wave
  // (SoundManager::PlaySound 0x00550AF0, the message's volume); true when the
  // object has a loaded sound table, whether or not a sound played.
  bool play_sound(PhysicsObj& owner, std::uint32_t sound_type, float volume) override;
  // ParticleManager::UpdateParticles 0x0051B800 for the owner.
  void update_particles(PhysicsObj& owner) override;
  // ScriptManager::UpdateScripts 0x0051B480 for the owner.
  void update_scripts(PhysicsObj& owner) override;
  // Drops the owner's scripts and emitters (each emitter traced Destroyed).
  void object_destroyed(PhysicsObj& owner) override;
  // CAnimHook::Execute for every hook type (see the table above).
  void execute_hook(PhysicsObj& owner, const dat::AnimationHook& hook) override;
  // Appends every drawable emitter with its live particles, every light of a
  // lit object, and this tick's sound events (then forgets those).
  void publish(RenderSnapshot& snapshot) const override;
  void clear_sound_events() override { sounds_.clear(); }

  // --- entry points that name the owner -------------------------------------
  // PhysicsScriptTable::GetScript 0x00521E40 through the table DID, traced with `owner`.
  // The seam's owner-aware lookup: traced with the owner's local id.
  [[nodiscard]] std::uint32_t resolve_script_for(PhysicsObj& owner, std::uint32_t table_did, std::uint32_t script_type,
                                                 float intensity) override;
  [[nodiscard]] std::uint32_t resolve_script(LocalId owner, std::uint32_t table_did, std::uint32_t script_type,
                                             float intensity);
  // CPhysicsObj::play_default_script 0x005132B0: the PhysicsDesc default type
  // and intensity through the owner's table (in a cell only).
  bool play_default_script(PhysicsObj& owner) override;
  // CPhysicsObj::play_default_script 0x00513300: the same for the first child
  // attached at `part_index`, through the child's own table and default.
  bool play_default_script(PhysicsObj& owner, std::uint32_t part_index);
  // CPhysicsObj::create_particle_emitter 0x0050F360
  std::uint32_t create_particle_emitter(PhysicsObj& owner, std::uint32_t info_id, std::uint32_t part_index,
                                        const dat::Frame& offset, std::uint32_t emitter_id);
  // CPhysicsObj::create_blocking_particle_emitter 0x0050F3B0
  std::uint32_t create_blocking_particle_emitter(PhysicsObj& owner, std::uint32_t info_id, std::uint32_t part_index,
                                                 const dat::Frame& offset, std::uint32_t emitter_id);
  // CPhysicsObj::destroy_particle_emitter 0x0050F400
  bool destroy_particle_emitter(PhysicsObj& owner, std::uint32_t emitter_id);
  // CPhysicsObj::stop_particle_emitter 0x0050F420
  bool stop_particle_emitter(PhysicsObj& owner, std::uint32_t emitter_id);
  // SoundManager::PlaySound(SoundType, CPhysicsObj*) 0x00550B70 (SoundTableHook):
  // the owner's table picks the wave and gives the volume.
  void play_sound_type(PhysicsObj& owner, std::uint32_t sound_type);
  // SoundManager::PlaySound(gid, CPhysicsObj*) 0x00550730 (SoundHook): the
  // wave at the effect volume (1 here: the audio side applies its slider).
  void play_wave(PhysicsObj& owner, std::uint32_t wave);
  // SoundManager::PlaySound(gid, CPhysicsObj*, prio, prob, vol) 0x005507A0
  // (SoundTweakedHook): the wave when a roll falls under `probability`.
  void play_wave(PhysicsObj& owner, std::uint32_t wave, float priority, float probability, float volume);
  // SoundManager::GetSound 0x00550680: the entry floor((n - 1) * U(0, 1)) of
  // the table's list for `sound_type` (the last of several is never picked,
  // as in retail); none for no list, an empty one or a zero wave.
  [[nodiscard]] static std::optional<dat::SoundEntry> get_sound(const dat::SoundTable& table, std::uint32_t sound_type,
                                                                core::Rng& rng);

  // --- inspection --------------------------------------------------------------
  [[nodiscard]] const ScriptManager* script_manager(LocalId owner) const;
  [[nodiscard]] const ParticleManager* particle_manager(LocalId owner) const;
  // The sound events since the last clear_sound_events.
  [[nodiscard]] const std::vector<SoundEvent>& sound_events() const noexcept { return sounds_; }

 private:
  // What the effects keep per object. The object itself is never kept: what
  // publish needs is captured whenever the object reaches the effects.
  struct OwnerState {
    std::unique_ptr<ScriptManager> scripts;
    std::unique_ptr<ParticleManager> particles;
    bool hidden = false;
  };

  // The records, through the world's cache; null without one.
  std::shared_ptr<const dat::PhysicsScript> physics_script(std::uint32_t did) {
    return records_ != nullptr ? records_->physics_script(did) : nullptr;
  }
  std::shared_ptr<const dat::PhysicsScriptTable> physics_script_table(std::uint32_t did) {
    return records_ != nullptr ? records_->physics_script_table(did) : nullptr;
  }
  std::shared_ptr<const dat::ParticleEmitterInfo> particle_emitter_info(std::uint32_t did) {
    return records_ != nullptr ? records_->particle_emitter_info(did) : nullptr;
  }
  std::shared_ptr<const dat::SoundTable> sound_table(std::uint32_t did) {
    return records_ != nullptr ? records_->sound_table(did) : nullptr;
  }

  OwnerState& touch(const PhysicsObj& owner);
  OwnerState* find(LocalId owner);
  ParticleManager& particles_for(const PhysicsObj& owner);
  void push_sound(const PhysicsObj& owner, std::uint32_t wave, std::uint32_t sound_type, float volume, float priority);

  dat::RecordCache* records_;
  EffectsTraceSink* trace_ = nullptr;
  std::map<LocalId, OwnerState> owners_;  // ordered: publish goes in owner order
  std::vector<SoundEvent> sounds_;
};

}  // namespace dereth::sim
