#pragma once
// EffectsTraceSink: what the effects system reports to a trace (the replay
// and QA tools); every callback has an empty default.

#include <cstdint>

#include "dereth/core/clock.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/sim/effects/particle_emitter.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

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

}  // namespace dereth::sim
