#include "dereth/sim/object/physics.hpp"

#include "dereth/protocol/physics_desc.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

// How many objects ahead the tick loop prefetches.
constexpr std::size_t kPrefetchAhead = 4;

}  // namespace

// CPhysics::UseTime 0x00509950
bool Physics::use_time() {
  const core::Seconds now = context_->now();
  const core::Seconds quantum = now - last_update_;
  if (quantum < core::Seconds{0.0}) {
    last_update_ = now;
    return false;
  }
  if (quantum < kMinQuantum) return false;
  // Copy the order first: an object's update cannot add or remove objects
  // today, but hooks may once the effects work lands.
  // The copy reuses order_'s storage: no allocation a tick.
  order_.assign(objects_->objects().begin(), objects_->objects().end());
  const std::size_t count = order_.size();
  for (std::size_t i = 0; i < count; ++i) {
    // The objects lie apart on the heap: ask for a later one's hot lines
    // now, so they arrive while this one runs (docs/benchmarks.md, "The
    // object loop").
    if (i + kPrefetchAhead < count) PhysicsObj::prefetch_hot(order_[i + kPrefetchAhead]);
    order_[i]->update_object();
    // SmartBox::PlayerPhysicsUpdatedCallback (camera) is a render concern.
  }
  last_update_ = now;
  ++ticks_;
  order_.assign(context_->static_animating_objects.begin(), context_->static_animating_objects.end());
  for (PhysicsObj* object : order_) {
    animate_static_object(*object);
  }
  return true;
}

// CPhysicsObj::animate_static_object 0x00513DF0
void animate_static_object(PhysicsObj& object) {
  namespace ps = protocol::physics_state;
  if (!object.in_cell()) return;
  SimContext& context = object.context();
  const core::Seconds now = context.now();
  context.physics_time = now;
  const core::Seconds elapsed = now - object.last_update_time();
  if (elapsed <= kTinyQuantum) {
    object.set_last_update_time(now);
    return;
  }
  if (elapsed < kMinQuantum) return;
  if (elapsed <= kHugeQuantum) {
    if (PartArray* parts = object.part_array(); parts != nullptr) {
      if ((object.state() & ps::HasDefaultAnim) != 0) {
        core::Frame unused;
        parts->update(FloatSeconds{static_cast<float>(elapsed.count())}, unused);
        // Retail rotates by omega itself here, not omega * dt (spec/physics.md 0.7).
        core::Frame frame = object.position().frame;
        frame.grotate(object.omega());
        object.set_frame(frame);
      }
      if ((object.state() & ps::HasDefaultScript) != 0) context.effects().update_scripts(object);
      context.effects().update_particles(object);
      object.process_hooks();
    }
  }
  object.set_last_update_time(now);
}

}  // namespace dereth::sim
