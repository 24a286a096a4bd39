#pragma once
// PhysicsObjHook: the timed hooks CPhysicsObj::process_hooks runs first.

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

}  // namespace dereth::sim
