#pragma once
// StickyManager (retail PORTAL/cpmanager/CStickyManager): holds an object at
// a fixed gap from a target (a creature's MoveTo with StickToObject).
#include <cstdint>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

class StickyManager {
 public:
  static constexpr float kStickyGap = 0.30000001f;     // the gap kept between the two cylinders
  static constexpr float kSpeedFactor = 5.0f;          // times the motion interpreter's max speed
  static constexpr float kDefaultSpeed = 15.0f;        // without a usable max speed
  static constexpr core::Seconds kStickyTimeout{1.0};  // StickTo: now + 1 s

  // StickyManager::Create 0x00555800
  explicit StickyManager(PhysicsObj& owner) noexcept : owner_(&owner) {}

  // StickyManager::StickTo 0x00555710
  void stick_to(std::uint32_t target_id, float target_radius, float target_height);
  // StickyManager::HandleExitWorld 0x00555400 (PositionManager::UnStick)
  void handle_exit_world();
  // StickyManager::HandleUpdateTarget 0x00555780
  void handle_update_target(const TargetInfo& info);
  // StickyManager::adjust_offset 0x00555430
  void adjust_offset(core::Frame& offset, FloatSeconds quantum);
  // StickyManager::UseTime 0x00555610
  void use_time();

  [[nodiscard]] std::uint32_t target_id() const noexcept { return target_id_; }
  [[nodiscard]] bool initialized() const noexcept { return initialized_; }
  [[nodiscard]] float target_radius() const noexcept { return target_radius_; }
  [[nodiscard]] core::Seconds sticky_timeout_time() const noexcept { return sticky_timeout_time_; }
  [[nodiscard]] const Position& target_position() const noexcept { return target_position_; }

 private:
  // The three-line unstick the binary repeats inline (target cleared,
  // CPhysicsObj::clear_target, CPhysicsObj::cancel_moveto).
  void clear();

  PhysicsObj* owner_;
  std::uint32_t target_id_ = 0;
  float target_radius_ = 0.0f;
  float target_height_ = 0.0f;
  Position target_position_;
  bool initialized_ = false;
  core::Seconds sticky_timeout_time_{0.0};
};

}  // namespace dereth::sim
