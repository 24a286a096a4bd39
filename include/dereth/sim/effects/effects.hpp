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

// Trace records of the effects system. Every callback has an empty default.
// Emitter events (on_emitter, from EmitterEventSink) name the emitter by the
// manager's key: the hook's logical id, or the anonymous id from 0xFFFF0000.
class EffectsTraceSink : public EmitterEventSink {
 public:
  // A PhysicsScriptTable lookup: `intensity` exactly as given (NaN payloads
  // kept), `chosen` the script or 0. `owner` is None when the lookup came
  // through EffectsSink::resolve_script, which does not name the object.
  virtual void on_script_resolved(LocalId /*owner*/, std::uint32_t /*table*/, std::uint32_t /*script_type*/,
                                  float /*intensity*/, std::uint32_t /*chosen*/) {}
  // A script appended to the owner's FIFO, starting at `start` (frame clock).
  virtual void on_script_enqueued(LocalId /*owner*/, std::uint32_t /*script*/, core::Seconds /*start*/) {}
  // A hook executed on the owner (from a script or an animation frame), at
  // the frame clock's `time`.
  virtual void on_hook_executed(LocalId /*owner*/, dat::HookType /*type*/, core::Seconds /*time*/) {}
};

// --- timed hooks (retail FPHook, RE cphysobj/CPhysicsObjHooks.c) --------------------

// PhysicsObjHook::HookType as CPhysicsObj::process_fp_hook 0x005135C0 dispatches it.
enum class FPHookType : std::int32_t {
  Scale = 0,
  Translucency = 1,
  PartTranslucency = 2,
  Luminosity = 3,
  Diffusion = 4,
  PartLuminosity = 5,
  PartDiffusion = 6,
  CallPES = 7,
};

// A value ramped from start to end over `interpolation_time` seconds of the
// physics timer, applied each time the object's hooks run; removed once it
// reaches the end (CPhysicsObj::process_hooks deletes it when Execute says so).
class FPHook final : public PhysicsObjHook {
 public:
  // FPHook::FPHook 0x0051BA50
  FPHook(FPHookType type, core::Seconds time_created, double interpolation_time, float start_value, float end_value,
         std::uint32_t user_data) noexcept;
  // FPHook::Execute 0x0051BAA0: f = clamp((physics_time - created) / time,
  // 0, 1) (0 until time has passed); apply start + (end - start) * f; done when f == 1.
  bool execute(PhysicsObj& owner) override;

  [[nodiscard]] FPHookType type() const noexcept { return type_; }
  [[nodiscard]] core::Seconds time_created() const noexcept { return time_created_; }
  [[nodiscard]] double interpolation_time() const noexcept { return interpolation_time_; }
  [[nodiscard]] float start_value() const noexcept { return start_value_; }
  [[nodiscard]] float end_value() const noexcept { return end_value_; }
  [[nodiscard]] std::uint32_t user_data() const noexcept { return user_data_; }

 private:
  FPHookType type_;
  core::Seconds time_created_;
  double interpolation_time_;
  float start_value_;
  float end_value_;
  std::uint32_t user_data_;  // the part index, or the CallPES script
};

// --- CPhysicsObj's effect entry points -------------------------------------------------
// Retail keeps these on CPhysicsObj; they live here because the effects own
// their state. Each takes the object it acts on.

// CPhysicsObj::process_fp_hook 0x005135C0
void process_fp_hook(PhysicsObj& owner, FPHookType type, float value, std::uint32_t user_data);
// CPhysicsObj::SetTranslucencyInternal 0x0050F960: never below the described translucency.
void set_translucency_internal(PhysicsObj& owner, float translucency);
// CPhysicsObj::SetTranslucency2 0x0050FB50 (TransparentHook)
void set_translucency2(PhysicsObj& owner, float start, float end, double delta);
// CPhysicsObj::SetPartTranslucency 0x00511730 (TransparentPartHook)
void set_part_translucency(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta);
// CPhysicsObj::SetLuminosity 0x00511890 (LuminousHook)
void set_luminosity(PhysicsObj& owner, float start, float end, double delta);
// CPhysicsObj::SetPartLuminosity 0x005117E0 (LuminousPartHook)
void set_part_luminosity(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta);
// CPhysicsObj::SetDiffusion 0x005119E0 (DiffuseHook)
void set_diffusion(PhysicsObj& owner, float start, float end, double delta);
// CPhysicsObj::SetPartDiffusion 0x00511930 (DiffusePartHook)
void set_part_diffusion(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta);
// CPhysicsObj::SetScale 0x005136A0 (ScaleHook): from the current scale to `scale`.
void set_scale(PhysicsObj& owner, float scale, double delta);
// CPhysicsObj::CallPES 0x00511AF0: a pause under 0.0002 s enqueues `script`
// now when the object is in a cell; otherwise a timed hook, due after
// U(0, pause) seconds, goes to the head of the object's hooks and enqueues
// the script (in a cell) when it comes due.
void call_pes(PhysicsObj& owner, std::uint32_t script, float pause);
// CPhysicsObj::CallPESInternal 0x00511AC0
void call_pes_internal(PhysicsObj& owner, std::uint32_t script, float value);
// CPhysicsObj::set_ethereal 0x00511C40 (EtherealHook): PhysicsObj::set_ethereal;
// clearing fails, and the object stays ethereal, while it overlaps another.
bool set_ethereal(PhysicsObj& owner, bool ethereal);

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
