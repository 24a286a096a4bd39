#pragma once
// Timed object hooks (PhysicsObjHook) and animation hooks (AnimHook,
// DatAnimHook) that CPhysicsObj::process_hooks runs.
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

// A timed object hook (PhysicsObjHook): Execute returns true when the hook is
// finished and must be removed (CPhysicsObj::process_hooks 0x00511550).
class PhysicsObjHook {
 public:
  PhysicsObjHook() = default;
  PhysicsObjHook(const PhysicsObjHook&) = delete;
  PhysicsObjHook& operator=(const PhysicsObjHook&) = delete;
  virtual ~PhysicsObjHook() = default;
  virtual bool execute(PhysicsObj& owner) = 0;
};

// An animation hook staged by the sequence (CAnimHook): executed once by
// process_hooks after the timed hooks, then the list is cleared.
class AnimHook {
 public:
  AnimHook() = default;
  AnimHook(const AnimHook&) = delete;
  AnimHook& operator=(const AnimHook&) = delete;
  virtual ~AnimHook() = default;
  virtual void execute(PhysicsObj& owner) = 0;
};

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
