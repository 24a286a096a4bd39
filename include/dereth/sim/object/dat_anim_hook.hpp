#pragma once
// DatAnimHook: an animation frame's DAT hook, run through the EffectsSink.

#include <utility>

#include "dereth/dat/animation_hook.hpp"
#include "dereth/sim/object/anim_hook.hpp"

namespace dereth::sim {

class PhysicsObj;

// An animation-frame hook staged by the Sequence: executes through the
// world's EffectsSink (CPhysicsObj::process_hooks runs it after the timed hooks).
class DatAnimHook final : public AnimHook {
 public:
  explicit DatAnimHook(dat::AnimationHook hook) : hook_(std::move(hook)) {}
  void execute(PhysicsObj& owner) override;
  [[nodiscard]] const dat::AnimationHook& hook() const noexcept { return hook_; }

 private:
  dat::AnimationHook hook_;
};

}  // namespace dereth::sim
