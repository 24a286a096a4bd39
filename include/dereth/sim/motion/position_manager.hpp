#pragma once
// PositionManager (retail PORTAL/cpmanager/CPositionManager): the owner of an
// object's InterpolationManager, StickyManager and ConstraintManager, each
// created on first use. Its methods are virtual so tests can watch the calls
// (tests/sim/fakes.hpp); the base class is the retail behaviour.
#include <cstdint>
#include <memory>

#include "dereth/core/frame.hpp"
#include "dereth/sim/motion/constraint_manager.hpp"
#include "dereth/sim/motion/interpolation_manager.hpp"
#include "dereth/sim/motion/sticky_manager.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

class PositionManager {
 public:
  // PositionManager::Create 0x005552D0: no sub-manager yet.
  explicit PositionManager(PhysicsObj& owner) noexcept : owner_(&owner) {}
  PositionManager(const PositionManager&) = delete;
  PositionManager& operator=(const PositionManager&) = delete;
  virtual ~PositionManager();

  // PositionManager::adjust_offset 0x00555190: interpolation, then sticky,
  // then constraint. Runs even for Hidden objects
  // (CPhysicsObj::UpdatePositionInternal 0x00512C30).
  virtual void adjust_offset(core::Frame& offset, FloatSeconds quantum);
  // PositionManager::UseTime 0x00555160: interpolation, constraint, sticky.
  virtual void use_time();
  // PositionManager::InterpolateTo 0x005551F0
  virtual void interpolate_to(const Position& p, bool keep_heading);
  // PositionManager::StopInterpolating 0x00555220
  virtual void stop_interpolating();
  // PositionManager::IsInterpolating 0x005553B0
  [[nodiscard]] virtual bool is_interpolating() const;
  // PositionManager::StickTo 0x00555230
  virtual void stick_to(std::uint32_t object_id, float radius, float height);
  // PositionManager::UnStick 0x005551E0
  virtual void unstick();
  // PositionManager::GetStickyObjectID 0x00555270
  [[nodiscard]] virtual std::uint32_t get_sticky_object_id() const;
  // PositionManager::ConstrainTo 0x00555280
  virtual void constrain_to(const Position& p, float start_distance, float max_distance);
  // PositionManager::UnConstrain 0x005552B0
  virtual void unconstrain();
  // PositionManager::IsFullyConstrained 0x005552C0
  [[nodiscard]] virtual bool is_fully_constrained() const;
  // PositionManager::HandleUpdateTarget 0x005553D0
  virtual void handle_update_target(const TargetInfo& info);

  // The sub-managers (null until first used).
  [[nodiscard]] InterpolationManager* interpolation_manager() const noexcept { return interpolation_.get(); }
  [[nodiscard]] StickyManager* sticky_manager() const noexcept { return sticky_.get(); }
  [[nodiscard]] ConstraintManager* constraint_manager() const noexcept { return constraint_.get(); }

 private:
  PhysicsObj* owner_;
  std::unique_ptr<InterpolationManager> interpolation_;
  std::unique_ptr<StickyManager> sticky_;
  std::unique_ptr<ConstraintManager> constraint_;
};

}  // namespace dereth::sim
