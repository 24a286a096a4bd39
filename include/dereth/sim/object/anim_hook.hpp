#pragma once
// AnimHook (retail CAnimHook): what the Sequence stages for process_hooks.

namespace dereth::sim {

class PhysicsObj;

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

}  // namespace dereth::sim
