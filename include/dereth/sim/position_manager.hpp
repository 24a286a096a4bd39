#pragma once
// PositionManager: the seam for interpolation, sticky and constraint
// managers (none is ported yet: docs/deviations.md D2).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/position.hpp"
#include "dereth/sim/render_snapshot.hpp"
#include "dereth/sim/types.hpp"

namespace dereth::sim {

class PhysicsObj;

// PositionManager: interpolation, sticky and constraint managers.
class PositionManager {
 public:
  PositionManager() = default;
  PositionManager(const PositionManager&) = delete;
  PositionManager& operator=(const PositionManager&) = delete;
  virtual ~PositionManager() = default;

  // PositionManager::adjust_offset: runs even for Hidden objects
  // (CPhysicsObj::UpdatePositionInternal 0x00512C30).
  virtual void adjust_offset(core::Frame& /*offset*/, FloatSeconds /*quantum*/) {}
  virtual void use_time() {}                                                    // PositionManager::UseTime
  virtual void interpolate_to(const Position& /*p*/, bool /*keep_heading*/) {}  // InterpolationManager::InterpolateTo
  virtual void constrain_to(const Position& /*p*/) {}                           // ConstraintManager::ConstrainTo
  virtual void stop_interpolating() {}
  virtual void unstick() {}
  virtual void unconstrain() {}
};

}  // namespace dereth::sim
