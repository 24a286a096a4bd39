#pragma once
// ConstraintManager (retail PORTAL/cpmanager/CConstraintManager): keeps an
// object's self-driven motion near the last position the server confirmed.
#include "dereth/core/frame.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

class ConstraintManager {
 public:
  // ConstraintManager::Create 0x00556110
  explicit ConstraintManager(PhysicsObj& owner) noexcept : owner_(&owner) {}

  // ConstraintManager::ConstrainTo 0x00556240
  void constrain_to(const Position& p, float start_distance, float max_distance);
  // ConstraintManager::UnConstrain 0x005560C0
  void unconstrain() noexcept { is_constrained_ = false; }
  // ConstraintManager::IsFullyConstrained 0x005560D0
  [[nodiscard]] bool is_fully_constrained() const noexcept;
  // ConstraintManager::adjust_offset 0x00556180
  void adjust_offset(core::Frame& offset, FloatSeconds quantum);
  // ConstraintManager::UseTime: an empty function in the binary (folded with
  // other empty bodies; PositionManager::UseTime 0x00555160 calls it).
  void use_time() noexcept {}

  [[nodiscard]] bool is_constrained() const noexcept { return is_constrained_; }
  [[nodiscard]] const Position& constraint_pos() const noexcept { return constraint_pos_; }
  [[nodiscard]] float constraint_pos_offset() const noexcept { return constraint_pos_offset_; }
  [[nodiscard]] float constraint_distance_start() const noexcept { return constraint_distance_start_; }
  [[nodiscard]] float constraint_distance_max() const noexcept { return constraint_distance_max_; }

 private:
  PhysicsObj* owner_;
  bool is_constrained_ = false;
  Position constraint_pos_;
  float constraint_distance_start_ = 0.0f;
  float constraint_distance_max_ = 0.0f;
  float constraint_pos_offset_ = 0.0f;
};

}  // namespace dereth::sim
