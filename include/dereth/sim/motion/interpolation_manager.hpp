#pragma once
// InterpolationManager (retail PORTAL/cpmanager/CInterpolationManager): the
// queue of server positions a remote object walks through between updates,
// and the rule that blips it to the last one when it falls too far behind.
#include <cstddef>
#include <cstdint>
#include <deque>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class PhysicsObj;

// InterpolationNode::type. InterpolateTo only ever queues Position nodes; the
// Jump and Velocity kinds are handled by UseTime/adjust_offset as the binary
// does, though nothing in the 2013 client queues them.
enum class InterpolationNodeType : std::uint32_t { Invalid = 0, Position = 1, Jump = 2, Velocity = 3 };

// InterpolationNode 0x00555A50: the node type, a position, and the velocity a
// Velocity node installs.
struct InterpolationNode {
  InterpolationNodeType type = InterpolationNodeType::Invalid;
  Position p;
  glm::vec3 velocity{0.0f};
};

class InterpolationManager {
 public:
  // The retail constants (CInterpolationManager.c; acclient_data.h).
  static constexpr std::size_t kMaxQueue = 0x14;               // InterpolateTo: at most 20 nodes
  static constexpr float kMaxInterpolatedVelocity = 7.5f;      // MAX_INTERPOLATED_VELOCITY
  static constexpr float kBigDistance = 999999.0f;             // BIG_DISTANCE
  static constexpr float kDesiredDistance = 0.050000001f;      // a node closer than this is reached
  static constexpr float kMinProgressRatio = 0.30000001f;      // progress / time / max speed
  static constexpr float kStalledButClose = 0.2f;              // a stalled node this close counts as reached
  static constexpr std::uint32_t kFramesPerProgressCheck = 5;  // frame_counter
  static constexpr std::uint32_t kMaxNodeFailures = 3;         // UseTime blips above this
  static constexpr std::uint32_t kFarNodeFailures = 4;         // InterpolateTo past the blip distance
  // InterpolationManager::fUseAdjustedSpeed_ (1 in the binary).
  static constexpr bool kUseAdjustedSpeed = true;

  // InterpolationManager::InterpolationManager 0x005558D0
  explicit InterpolationManager(PhysicsObj& owner) noexcept : owner_(&owner) {}

  // InterpolationManager::InterpolateTo 0x00555B20
  void interpolate_to(const Position& p, bool keep_heading);
  // InterpolationManager::adjust_offset 0x00555D30
  void adjust_offset(core::Frame& offset, FloatSeconds quantum);
  // InterpolationManager::UseTime 0x00555F20
  void use_time();
  // InterpolationManager::StopInterpolating 0x00555950
  void stop_interpolating();
  // InterpolationManager::NodeCompleted 0x005559A0
  void node_completed(bool success);

  [[nodiscard]] bool is_interpolating() const noexcept { return !queue_.empty(); }
  [[nodiscard]] const std::deque<InterpolationNode>& queue() const noexcept { return queue_; }
  [[nodiscard]] std::uint32_t node_fail_counter() const noexcept { return node_fail_counter_; }
  [[nodiscard]] std::uint32_t frame_counter() const noexcept { return frame_counter_; }
  [[nodiscard]] float progress_quantum() const noexcept { return progress_quantum_; }
  [[nodiscard]] float original_distance() const noexcept { return original_distance_; }
  [[nodiscard]] bool keep_heading() const noexcept { return keep_heading_; }
  [[nodiscard]] const Position& blipto_position() const noexcept { return blipto_position_; }

 private:
  PhysicsObj* owner_;
  std::deque<InterpolationNode> queue_;  // head first
  float original_distance_ = kBigDistance;
  std::uint32_t frame_counter_ = 0;
  float progress_quantum_ = 0.0f;
  std::uint32_t node_fail_counter_ = 0;
  bool keep_heading_ = false;
  Position blipto_position_;
};

}  // namespace dereth::sim
