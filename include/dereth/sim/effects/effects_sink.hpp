#pragma once
// EffectsSink: the seam where PhysicsScriptTable resolution, the
// ScriptManager and the ParticleManager plug into the object loop
// (sim::Effects is the real one).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;

// PhysicsScriptTable, ScriptManager and ParticleManager, as the object loop
// reaches them. Calls name the owner; sinks key on owner.local_id().
class EffectsSink {
 public:
  EffectsSink() = default;
  EffectsSink(const EffectsSink&) = delete;
  EffectsSink& operator=(const EffectsSink&) = delete;
  virtual ~EffectsSink() = default;

  // PhysicsScriptTable::GetScript 0x00521E40: the script for (type,
  // intensity) in table `table_did`, or 0 when there is none. The intensity
  // arrives with its bits intact (NaN included).
  [[nodiscard]] virtual std::uint32_t resolve_script(std::uint32_t /*table_did*/, std::uint32_t /*script_type*/,
                                                     float /*intensity*/) {
    return 0;
  }
  // The same lookup on behalf of `owner` (so traces can name it). The
  // default forwards to resolve_script.
  [[nodiscard]] virtual std::uint32_t resolve_script_for(PhysicsObj& /*owner*/, std::uint32_t table_did,
                                                         std::uint32_t script_type, float intensity) {
    return resolve_script(table_did, script_type, intensity);
  }
  // ScriptManager::AddScript, reached from CPhysicsObj::play_script_internal
  // 0x00510CD0 with a non-zero DID: append to the owner's FIFO. Returns
  // whether the script was queued.
  virtual bool play_script(PhysicsObj& /*owner*/, std::uint32_t /*script_did*/) { return true; }
  // ParticleManager::UpdateParticles, then ScriptManager::UpdateScripts, at
  // the end of CPhysicsObj::UpdateObjectInternal 0x005156B0 (in that order).
  // CPhysicsObj::play_sound, reached from SmartBox::HandleSoundEvent 0x00451FC0.
  virtual bool play_sound(PhysicsObj& /*owner*/, std::uint32_t /*sound_type*/, float /*volume*/) { return true; }
  // CPhysicsObj::play_default_script 0x005132B0: the owner's PhysicsDesc
  // default script type through its table.
  virtual bool play_default_script(PhysicsObj& /*owner*/) { return false; }
  virtual void update_particles(PhysicsObj& /*owner*/) {}
  virtual void update_scripts(PhysicsObj& /*owner*/) {}
  // The owner is being destroyed (CPhysicsObj::Destroy): drop its queues.
  virtual void object_destroyed(PhysicsObj& /*owner*/) {}
  // CAnimHook::Execute for one DAT hook, whether an animation frame staged it
  // (DatAnimHook below) or a PhysicsScript reached it (ScriptManager). The
  // default does nothing, as an object with no effects attached.
  virtual void execute_hook(PhysicsObj& /*owner*/, const dat::AnimationHook& /*hook*/) {}
  // After a tick: write every live emitter to the snapshot being built,
  // replacing the emitters it holds (a recycled snapshot's, whose storage is
  // reused: SnapshotRecycler), and append the sound events since the last
  // clear_sound_events. Changes nothing else. The default: no emitters.
  virtual void publish(RenderSnapshot& snapshot) const { snapshot.emitters.clear(); }
  // The world has published the tick: forget its sound events.
  virtual void clear_sound_events() {}
};

}  // namespace dereth::sim
