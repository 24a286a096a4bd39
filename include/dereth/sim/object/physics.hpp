#pragma once
// Physics (retail CPhysics): the outer 30 Hz tick over every object
// (spec/physics.md section 0.2).

#include <cstdint>
#include <vector>

#include "dereth/core/clock.hpp"

namespace dereth::sim {

class ObjectMaint;
class PhysicsObj;
class SimContext;

class Physics {
 public:
  Physics(SimContext& context, ObjectMaint& objects) noexcept : context_(&context), objects_(&objects) {}
  Physics(const Physics&) = delete;
  Physics& operator=(const Physics&) = delete;

  // CPhysics::UseTime 0x00509950: when at least MIN_QUANTUM has passed since
  // the last tick, update_object every object (in local-id order), then
  // animate the static animating objects. A clock that went backwards only
  // resets the tick time. Returns whether a tick ran.
  bool use_time();

  [[nodiscard]] std::uint64_t tick_count() const noexcept { return ticks_; }
  [[nodiscard]] core::Seconds last_update() const noexcept { return last_update_; }

 private:
  SimContext* context_;
  ObjectMaint* objects_;
  // The tick's copy of the object order (and of the static animating
  // objects), kept between ticks so copying it allocates nothing.
  std::vector<PhysicsObj*> order_;
  core::Seconds last_update_{0.0};
  std::uint64_t ticks_ = 0;
};

// CPhysicsObj::animate_static_object 0x00513DF0
void animate_static_object(PhysicsObj& object);

}  // namespace dereth::sim
