#pragma once
// EmitterEventSink: the emitter lifetimes a ParticleManager reports to a
// trace (EmitterEvent's to_string is in particle_emitter.cpp).

#include <cstdint>

#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

// What happened to an emitter (trace records).
enum class EmitterEvent : std::uint8_t {
  Created,               // a new emitter (anonymous, or a logical id not live)
  Replaced,              // a CreateParticle took over a live logical id
  SuppressedByBlocking,  // a CreateBlockingParticle found its logical id live
  Stopped,               // StopParticle: no more births, live particles finish
  Retired,               // stopped (or finished) and out of particles: removed
  Destroyed,             // DestroyParticle, or a replace whose new emitter failed, or the owner went away
};

[[nodiscard]] const char* to_string(EmitterEvent event) noexcept;

// Receives emitter events. `emitter_id` is the manager's key: the hook's
// logical id, or the id allocated for an anonymous emitter (0xFFFF0000 up).
class EmitterEventSink {
 public:
  EmitterEventSink() = default;
  EmitterEventSink(const EmitterEventSink&) = delete;
  EmitterEventSink& operator=(const EmitterEventSink&) = delete;
  virtual ~EmitterEventSink() = default;
  virtual void on_emitter(LocalId /*owner*/, std::uint32_t /*emitter_info_id*/, std::uint32_t /*emitter_id*/,
                          EmitterEvent /*event*/) {}
};

}  // namespace dereth::sim
