#pragma once
// MoveToManager (retail PORTAL/canim/CMoveToManager): walks or runs an object
// to a position or another object and turns it to a heading through its
// CMotionInterp, working a queue of turn and move nodes head first; the
// server's Movement types 6-9 start it. docs/sim.md "MoveTo and TurnTo".
#include <cstdint>
#include <deque>

#include "dereth/sim/motion/movement_manager.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class PhysicsObj;

// heading_greater 0x00528F60: whether heading x is past y in the direction
// of `motion` (TurnRight: clockwise; anything else: counter-clockwise),
// across the 0/360 seam when they are more than 180 degrees apart.
[[nodiscard]] bool heading_greater(float x, float y, std::uint32_t motion) noexcept;
// heading_diff 0x00528FB0: how far x lies from y turning the way `motion`
// turns, in [0, 360).
[[nodiscard]] double heading_diff(float x, float y, std::uint32_t motion) noexcept;
// Position::cylinder_distance 0x005A97F0: the gap between two upright
// cylinders (negative when they overlap both across and up).
[[nodiscard]] float cylinder_distance(float r1, float h1, const Position& p1, float r2, float h2,
                                      const Position& p2) noexcept;

class MoveToManager {
 public:
  // A pending action: a MoveToPosition (7) or a TurnToHeading (9) node.
  struct Node {
    MovementKind type = MovementKind::MoveToPosition;
    float heading = 0.0f;
    bool operator==(const Node&) const = default;
  };

  static constexpr float kEpsilon = core::kEpsilon;  // PhysicsGlobals EPSILON
  static constexpr float kAuxTurnThreshold = 20.0f;  // HandleMoveToPosition steers beyond 20 degrees
  static constexpr double kProgressRate = 0.25;      // CheckProgressMade: metres per second at least

  // MoveToManager::Create 0x00529470 (MoveToManager::MoveToManager 0x005293B0)
  explicit MoveToManager(PhysicsObj* physics_obj);

  // MoveToManager::_DoMotion 0x00529010: the hold key's adjust_motion, then
  // CMotionInterp::DoInterpretedMotion; 8 without an object, 11 without an
  // interpreter.
  std::uint32_t do_motion(std::uint32_t motion, const MovementParameters& params);
  // MoveToManager::_StopMotion 0x00529080
  std::uint32_t stop_motion(std::uint32_t motion, const MovementParameters& params);
  // MoveToManager::CheckProgressMade 0x005290F0
  bool check_progress_made(float curr_distance);
  // MoveToManager::GetCurrentDistance 0x005291B0: cylinder distance with
  // UseSpheres, else the centre distance; FLT_MAX without an object.
  [[nodiscard]] float get_current_distance() const;
  // MoveToManager::is_moving_to 0x00529220
  [[nodiscard]] bool is_moving_to() const noexcept { return movement_type_ != 0; }
  // MoveToManager::InitializeLocalVariables 0x00529250
  void initialize_local_variables();
  // MoveToManager::RemovePendingActionsHead 0x00529380
  void remove_pending_actions_head();
  // MoveToManager::AddTurnToHeadingNode 0x00529530
  void add_turn_to_heading_node(float global_heading);
  // MoveToManager::AddMoveToPositionNode 0x00529580
  void add_move_to_position_node();
  // MoveToManager::CleanUp 0x005295C0
  void clean_up();
  // MoveToManager::CleanUpAndCallWeenie 0x00529650 (no weenie callback on
  // the client: the status goes nowhere)
  void clean_up_and_call_weenie(std::uint32_t status);
  // MoveToManager::MoveToObject 0x00529680
  void move_to_object(std::uint32_t object_id, std::uint32_t top_level_id, float object_radius, float object_height,
                      const MovementParameters& params);
  // MoveToManager::TurnToObject 0x005297D0
  void turn_to_object(std::uint32_t object_id, std::uint32_t top_level_id, const MovementParameters& params);
  // MoveToManager::CancelMoveTo 0x00529930 (retval goes nowhere)
  void cancel_move_to(std::uint32_t retval);
  // MoveToManager::BeginMoveForward 0x00529A00
  void begin_move_forward();
  // MoveToManager::BeginTurnToHeading 0x00529B90
  void begin_turn_to_heading();
  // MoveToManager::BeginNextNode 0x00529CB0
  void begin_next_node();
  // MoveToManager::HitGround 0x00529D70
  void hit_ground();
  // MoveToManager::HandleMoveToPosition 0x00529D80
  void handle_move_to_position();
  // MoveToManager::HandleTurnToHeading 0x0052A0C0
  void handle_turn_to_heading();
  // MoveToManager::MoveToPosition 0x0052A240
  void move_to_position(const Position& p, const MovementParameters& params);
  // MoveToManager::MoveToObject_Internal 0x0052A400
  void move_to_object_internal(const Position& target_position, const Position& interpolated_position);
  // MoveToManager::TurnToObject_Internal 0x0052A550
  void turn_to_object_internal(const Position& target_position);
  // MoveToManager::TurnToHeading 0x0052A630
  void turn_to_heading(const MovementParameters& params);
  // MoveToManager::UseTime 0x0052A780: the head node, while the object has
  // Contact (and an object target has reported).
  void use_time();
  // MoveToManager::HandleUpdateTarget 0x0052A7D0
  void handle_update_target(const TargetInfo& info);
  // MoveToManager::PerformMovement 0x0052A900
  std::uint32_t perform_movement(const MovementStruct& mvs);

  // Read access for the tests and the callers.
  [[nodiscard]] std::uint32_t movement_type() const noexcept { return movement_type_; }
  [[nodiscard]] const MovementParameters& movement_params() const noexcept { return movement_params_; }
  [[nodiscard]] const std::deque<Node>& pending_actions() const noexcept { return pending_actions_; }
  [[nodiscard]] const Position& sought_position() const noexcept { return sought_position_; }
  [[nodiscard]] const Position& current_target_position() const noexcept { return current_target_position_; }
  [[nodiscard]] const Position& starting_position() const noexcept { return starting_position_; }
  [[nodiscard]] std::uint32_t current_command() const noexcept { return current_command_; }
  [[nodiscard]] std::uint32_t aux_command() const noexcept { return aux_command_; }
  [[nodiscard]] bool moving_away() const noexcept { return moving_away_; }
  [[nodiscard]] bool initialized() const noexcept { return initialized_; }
  [[nodiscard]] std::uint32_t fail_progress_count() const noexcept { return fail_progress_count_; }
  [[nodiscard]] float previous_heading() const noexcept { return previous_heading_; }
  [[nodiscard]] float previous_distance() const noexcept { return previous_distance_; }
  [[nodiscard]] double previous_distance_time() const noexcept { return previous_distance_time_; }
  [[nodiscard]] float original_distance() const noexcept { return original_distance_; }
  [[nodiscard]] double original_distance_time() const noexcept { return original_distance_time_; }
  [[nodiscard]] std::uint32_t sought_object_id() const noexcept { return sought_object_id_; }
  [[nodiscard]] std::uint32_t top_level_object_id() const noexcept { return top_level_object_id_; }
  [[nodiscard]] float sought_object_radius() const noexcept { return sought_object_radius_; }
  [[nodiscard]] float sought_object_height() const noexcept { return sought_object_height_; }

 private:
  // The parameters every internal motion is issued with: the defaults with
  // CancelMoveTo cleared, this MoveTo's speed and hold key.
  [[nodiscard]] MovementParameters motion_params() const;
  [[nodiscard]] double now() const;
  // MoveToManager copies these fields of the caller's parameters.
  void copy_params(const MovementParameters& params) noexcept;

  std::uint32_t movement_type_ = 0;
  Position sought_position_;
  Position current_target_position_;
  Position starting_position_;
  MovementParameters movement_params_;
  float previous_heading_ = 0.0f;
  float previous_distance_ = 0.0f;
  double previous_distance_time_ = 0.0;
  float original_distance_ = 0.0f;
  double original_distance_time_ = 0.0;
  std::uint32_t fail_progress_count_ = 0;
  std::uint32_t sought_object_id_ = 0;
  std::uint32_t top_level_object_id_ = 0;
  float sought_object_radius_ = 0.0f;
  float sought_object_height_ = 0.0f;
  std::uint32_t current_command_ = 0;
  std::uint32_t aux_command_ = 0;
  bool moving_away_ = false;
  bool initialized_ = false;
  std::deque<Node> pending_actions_;
  PhysicsObj* physics_obj_;
};

}  // namespace dereth::sim
