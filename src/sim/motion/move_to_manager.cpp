#include "dereth/sim/motion/move_to_manager.hpp"

#include <cmath>
#include <limits>

#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace mc = motion_command;

namespace {

constexpr float kFltMax = std::numeric_limits<float>::max();
constexpr std::uint32_t kMoveToObject = 6;
constexpr std::uint32_t kMoveToPosition = 7;
constexpr std::uint32_t kTurnToObject = 8;
constexpr std::uint32_t kTurnToHeading = 9;

// The heading from the object to `target` relative to its own, folded into
// [0, 360) with retail's epsilon snaps (BeginMoveForward, MoveToPosition,
// MoveToObject_Internal repeat these lines).
float relative_heading(float to_target, float own) {
  float h = to_target - own;
  if (std::fabs(h) < MoveToManager::kEpsilon) h = 0.0f;
  if (-MoveToManager::kEpsilon > h) h += 360.0f;
  return h;
}

}  // namespace

// heading_greater 0x00528F60
bool heading_greater(float x, float y, std::uint32_t motion) noexcept {
  bool less = false;
  bool equal = false;
  if (std::fabs(x - y) <= 180.0f) {
    less = x < y;
    equal = x == y;
  } else {
    less = y < x;
    equal = y == x;
  }
  if (motion != mc::TurnRight) return less || equal;
  return !(less || equal);
}

// heading_diff 0x00528FB0
double heading_diff(float x, float y, std::uint32_t motion) noexcept {
  double result = static_cast<double>(x) - static_cast<double>(y);
  if (std::fabs(result) < MoveToManager::kEpsilon) result = 0.0;
  if (result < -MoveToManager::kEpsilon) result += 360.0;
  if (result > MoveToManager::kEpsilon && motion != mc::TurnRight) result = 360.0 - result;
  return result;
}

// Position::cylinder_distance 0x005A97F0: the horizontal gap between the
// sides and the vertical gap between the lower top and the higher base,
// combined as a diagonal when both are open and as a negative diagonal when
// both overlap; otherwise the open one.
float cylinder_distance(float r1, float h1, const Position& p1, float r2, float h2, const Position& p2) noexcept {
  const float reach = distance(p1, p2) - (r1 + r2);
  const double z1 = p1.frame.origin.z;
  const double z2 = p2.frame.origin.z;
  const double vertical = z1 <= z2 ? z2 - (z1 + static_cast<double>(h1)) : z1 - (z2 + static_cast<double>(h2));
  const double diagonal = std::sqrt(vertical * vertical + static_cast<double>(reach) * reach);
  if (vertical <= 0.0) return static_cast<float>(reach <= 0.0f ? -diagonal : static_cast<double>(reach));
  return static_cast<float>(reach > 0.0f ? diagonal : vertical);
}

// MoveToManager::Create 0x00529470 / MoveToManager::MoveToManager 0x005293B0
MoveToManager::MoveToManager(PhysicsObj* physics_obj) : physics_obj_(physics_obj) {
  initialize_local_variables();
}

double MoveToManager::now() const {
  return physics_obj_ != nullptr ? physics_obj_->context().now().count() : 0.0;
}

void MoveToManager::copy_params(const MovementParameters& params) noexcept {
  movement_params_ = params;
}

MovementParameters MoveToManager::motion_params() const {
  MovementParameters params;
  params.hold_key = movement_params_.hold_key;
  params.bitfield &= ~MovementParameters::kCancelMoveTo;
  params.speed = movement_params_.speed;
  return params;
}

// MoveToManager::_DoMotion 0x00529010
std::uint32_t MoveToManager::do_motion(std::uint32_t motion, const MovementParameters& params) {
  if (physics_obj_ == nullptr) return movement_error::NoPhysicsObject;
  MovementManager* manager = physics_obj_->get_minterp();
  MotionInterp* minterp = manager != nullptr ? manager->get_motion_interp() : nullptr;
  if (minterp == nullptr) return 11;
  MovementParameters adjusted = params;
  std::uint32_t adjusted_motion = motion;
  minterp->adjust_motion(adjusted_motion, adjusted.speed, static_cast<HoldKey>(params.hold_key));
  return minterp->do_interpreted_motion(adjusted_motion, adjusted);
}

// MoveToManager::_StopMotion 0x00529080
std::uint32_t MoveToManager::stop_motion(std::uint32_t motion, const MovementParameters& params) {
  if (physics_obj_ == nullptr) return movement_error::NoPhysicsObject;
  MovementManager* manager = physics_obj_->get_minterp();
  MotionInterp* minterp = manager != nullptr ? manager->get_motion_interp() : nullptr;
  if (minterp == nullptr) return 11;
  MovementParameters adjusted = params;
  std::uint32_t adjusted_motion = motion;
  minterp->adjust_motion(adjusted_motion, adjusted.speed, static_cast<HoldKey>(params.hold_key));
  return minterp->stop_interpreted_motion(adjusted_motion, adjusted);
}

// MoveToManager::CheckProgressMade 0x005290F0: after more than a second,
// progress since the last check and since the start must both average
// 0.25 m/s; the last-check distance moves on only when the first holds.
bool MoveToManager::check_progress_made(float curr_distance) {
  const double t = now();
  const double elapsed = t - previous_distance_time_;
  if (elapsed <= 1.0) return true;
  const double since_last = moving_away_ ? static_cast<double>(curr_distance) - previous_distance_
                                         : static_cast<double>(previous_distance_) - curr_distance;
  if (since_last / elapsed < kProgressRate) return false;
  previous_distance_ = curr_distance;
  previous_distance_time_ = t;
  const double since_start = moving_away_ ? static_cast<double>(curr_distance) - original_distance_
                                          : static_cast<double>(original_distance_) - curr_distance;
  return since_start / (t - original_distance_time_) >= kProgressRate;
}

// MoveToManager::GetCurrentDistance 0x005291B0
float MoveToManager::get_current_distance() const {
  if (physics_obj_ == nullptr) return kFltMax;
  if ((movement_params_.bitfield & MovementParameters::kUseSpheres) != 0) {
    return cylinder_distance(physics_obj_->get_radius(), physics_obj_->get_height(), physics_obj_->position(),
                             sought_object_radius_, sought_object_height_, current_target_position_);
  }
  return distance(physics_obj_->position(), current_target_position_);
}

// MoveToManager::InitializeLocalVariables 0x00529250: only the bitfield and
// context id of the parameters are reset.
void MoveToManager::initialize_local_variables() {
  movement_type_ = 0;
  movement_params_.bitfield = 0;
  movement_params_.context_id = 0;
  const double t = now();
  previous_distance_ = kFltMax;
  previous_distance_time_ = t;
  original_distance_ = kFltMax;
  original_distance_time_ = t;
  previous_heading_ = 0.0f;
  fail_progress_count_ = 0;
  current_command_ = 0;
  aux_command_ = 0;
  moving_away_ = false;
  initialized_ = false;
  sought_position_ = Position{};
  current_target_position_ = Position{};
  sought_object_id_ = 0;
  top_level_object_id_ = 0;
  sought_object_radius_ = 0.0f;
  sought_object_height_ = 0.0f;
}

// MoveToManager::RemovePendingActionsHead 0x00529380
void MoveToManager::remove_pending_actions_head() {
  if (!pending_actions_.empty()) pending_actions_.pop_front();
}

// MoveToManager::AddTurnToHeadingNode 0x00529530
void MoveToManager::add_turn_to_heading_node(float global_heading) {
  pending_actions_.push_back(Node{MovementKind::TurnToHeading, global_heading});
}

// MoveToManager::AddMoveToPositionNode 0x00529580
void MoveToManager::add_move_to_position_node() {
  pending_actions_.push_back(Node{MovementKind::MoveToPosition, 0.0f});
}

// MoveToManager::CleanUp 0x005295C0: the motions it started stop, an object
// target is released; the pending nodes stay.
void MoveToManager::clean_up() {
  MovementParameters params;
  params.hold_key = movement_params_.hold_key;
  params.bitfield &= ~MovementParameters::kCancelMoveTo;
  if (physics_obj_ != nullptr) {
    if (current_command_ != 0) stop_motion(current_command_, params);
    if (aux_command_ != 0) stop_motion(aux_command_, params);
    if (top_level_object_id_ != 0 && movement_type_ != 0) physics_obj_->clear_target();
  }
  initialize_local_variables();
}

// MoveToManager::CleanUpAndCallWeenie 0x00529650
void MoveToManager::clean_up_and_call_weenie(std::uint32_t /*status*/) {
  clean_up();
  if (physics_obj_ != nullptr) physics_obj_->stop_completely();
}

// MoveToManager::MoveToObject 0x00529680: the object stops and watches the
// target (its top-level object); the nodes are laid once the target reports.
void MoveToManager::move_to_object(std::uint32_t object_id, std::uint32_t top_level_id, float object_radius,
                                   float object_height, const MovementParameters& params) {
  if (physics_obj_ == nullptr) return;
  physics_obj_->stop_completely();
  starting_position_ = physics_obj_->position();
  sought_object_id_ = object_id;
  sought_object_radius_ = object_radius;
  sought_object_height_ = object_height;
  movement_type_ = kMoveToObject;
  top_level_object_id_ = top_level_id;
  copy_params(params);
  initialized_ = false;
  if (top_level_id != physics_obj_->id()) {
    physics_obj_->set_target(0, top_level_object_id_, 0.5f, 0.0);
    return;
  }
  clean_up();
  physics_obj_->stop_completely();
}

// MoveToManager::TurnToObject 0x005297D0: the desired heading goes into the
// target position's frame, which the target's report then replaces (so
// TurnToObject_Internal faces the target).
void MoveToManager::turn_to_object(std::uint32_t object_id, std::uint32_t top_level_id,
                                   const MovementParameters& params) {
  if (physics_obj_ == nullptr) {
    movement_params_.context_id = params.context_id;
    return;
  }
  if ((params.bitfield & MovementParameters::kStopCompletely) != 0) physics_obj_->stop_completely();
  movement_type_ = kTurnToObject;
  sought_object_id_ = object_id;
  current_target_position_.frame.set_heading(params.desired_heading);
  top_level_object_id_ = top_level_id;
  copy_params(params);
  if (top_level_id != physics_obj_->id()) {
    initialized_ = false;
    physics_obj_->set_target(0, top_level_id, 0.5f, 0.0);
    return;
  }
  clean_up();
  physics_obj_->stop_completely();
}

// MoveToManager::CancelMoveTo 0x00529930
void MoveToManager::cancel_move_to(std::uint32_t /*retval*/) {
  if (movement_type_ == 0) return;
  pending_actions_.clear();
  clean_up();
  if (physics_obj_ != nullptr) physics_obj_->stop_completely();
}

// MoveToManager::BeginMoveForward 0x00529A00
void MoveToManager::begin_move_forward() {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  const float curr_distance = get_current_distance();
  const float curr_heading =
      relative_heading(heading(physics_obj_->position(), current_target_position_), physics_obj_->get_heading());
  std::uint32_t motion = 0;
  std::uint32_t hold_key = 0;
  bool move_away = false;
  movement_params_.get_command(curr_distance, curr_heading, motion, hold_key, move_away);
  if (motion == 0) {
    remove_pending_actions_head();
    begin_next_node();
    return;
  }
  MovementParameters params;
  params.hold_key = hold_key;
  params.bitfield &= ~MovementParameters::kCancelMoveTo;
  params.speed = movement_params_.speed;
  if (const std::uint32_t result = do_motion(motion, params); result != 0) {
    cancel_move_to(result);
    return;
  }
  current_command_ = motion;
  moving_away_ = move_away;
  movement_params_.hold_key = hold_key;
  const double t = now();
  previous_distance_ = curr_distance;
  previous_distance_time_ = t;
  original_distance_ = curr_distance;
  original_distance_time_ = t;
}

// MoveToManager::BeginTurnToHeading 0x00529B90: the shorter way round
// (TurnRight up to 180 degrees); a heading already reached ends the node.
void MoveToManager::begin_turn_to_heading() {
  if (pending_actions_.empty() || physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  if (physics_obj_->motions_pending()) return;
  const double diff = heading_diff(pending_actions_.front().heading, physics_obj_->get_heading(), mc::TurnRight);
  std::uint32_t command = 0;
  if (diff <= 180.0) {
    if (diff > kEpsilon) command = mc::TurnRight;
  } else if (diff + kEpsilon < 360.0) {
    command = mc::TurnLeft;
  }
  if (command == 0) {
    remove_pending_actions_head();
    begin_next_node();
    return;
  }
  MovementParameters params;
  params.bitfield &= ~MovementParameters::kCancelMoveTo;
  params.speed = movement_params_.speed;
  params.hold_key = movement_params_.hold_key;
  if (const std::uint32_t result = do_motion(command, params); result != 0) {
    cancel_move_to(result);
    return;
  }
  current_command_ = command;
  // Retail stores the heading difference here, not the heading.
  previous_heading_ = static_cast<float>(diff);
}

// MoveToManager::BeginNextNode 0x00529CB0: the head node starts; with none
// left the MoveTo ends (a Sticky one then sticks to its object).
void MoveToManager::begin_next_node() {
  if (!pending_actions_.empty()) {
    if (pending_actions_.front().type == MovementKind::MoveToPosition) {
      begin_move_forward();
    } else if (pending_actions_.front().type == MovementKind::TurnToHeading) {
      begin_turn_to_heading();
    }
    return;
  }
  if ((movement_params_.bitfield & MovementParameters::kSticky) == 0) {
    clean_up();
    if (physics_obj_ != nullptr) physics_obj_->stop_completely();
    return;
  }
  const float height = sought_object_height_;
  const std::uint32_t top_level = top_level_object_id_;
  const float radius = sought_object_radius_;
  clean_up();
  if (physics_obj_ == nullptr) return;
  physics_obj_->stop_completely();
  physics_obj_->get_position_manager()->stick_to(top_level, radius, height);
}

// MoveToManager::HitGround 0x00529D70
void MoveToManager::hit_ground() {
  if (movement_type_ != 0) begin_next_node();
}

// MoveToManager::HandleMoveToPosition 0x00529D80: steer with an auxiliary
// turn when more than 20 degrees off, then check progress and arrival.
void MoveToManager::handle_move_to_position() {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  const Position curr_pos = physics_obj_->position();
  const MovementParameters params = motion_params();
  if (physics_obj_->motions_pending()) {
    if (aux_command_ != 0) {
      stop_motion(aux_command_, params);
      aux_command_ = 0;
    }
  } else {
    const float to_target = heading(curr_pos, current_target_position_);
    float desired = MovementParameters::get_desired_heading(current_command_, moving_away_) + to_target;
    if (desired >= 360.0f) desired -= 360.0f;
    double off = static_cast<double>(desired) - physics_obj_->get_heading();
    if (std::fabs(off) < kEpsilon) off = 0.0;
    if (off < -kEpsilon) off += 360.0;
    if (off <= kAuxTurnThreshold || off >= 360.0 - kAuxTurnThreshold) {
      if (aux_command_ != 0) {
        stop_motion(aux_command_, params);
        aux_command_ = 0;
      }
    } else {
      const std::uint32_t turn = off >= 180.0 ? mc::TurnLeft : mc::TurnRight;
      if (turn != aux_command_) {
        do_motion(turn, params);
        aux_command_ = turn;
      }
    }
  }

  const float dist = get_current_distance();
  if (!check_progress_made(dist)) {
    if (!physics_obj_->is_interpolating() && !physics_obj_->motions_pending()) ++fail_progress_count_;
  } else {
    fail_progress_count_ = 0;
    const bool arrived =
        moving_away_ ? !(dist < movement_params_.min_distance) : dist <= movement_params_.distance_to_object;
    if (arrived) {
      remove_pending_actions_head();
      stop_motion(current_command_, params);
      current_command_ = 0;
      if (aux_command_ != 0) {
        stop_motion(aux_command_, params);
        aux_command_ = 0;
      }
      begin_next_node();
    } else if (distance(starting_position_, physics_obj_->position()) > movement_params_.fail_distance) {
      cancel_move_to(0x3D);
    }
  }

  // An object target is asked for reports as often as the object would
  // take to reach it.
  if (top_level_object_id_ != 0 && movement_type_ != 0) {
    const glm::vec3 v = physics_obj_->cached_velocity();
    const double speed =
        std::sqrt(static_cast<double>(v.x) * v.x + static_cast<double>(v.y) * v.y + static_cast<double>(v.z) * v.z);
    if (speed > 0.1) {
      const double time_to_get_there = dist / speed;
      if (std::fabs(time_to_get_there - physics_obj_->get_target_quantum()) > 1.0) {
        physics_obj_->set_target_quantum(time_to_get_there);
      }
    }
  }
}

// MoveToManager::HandleTurnToHeading 0x0052A0C0: once the heading passes the
// node's, it is snapped to it exactly and the turn stops.
void MoveToManager::handle_turn_to_heading() {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  if (current_command_ != mc::TurnLeft && current_command_ != mc::TurnRight) {
    begin_turn_to_heading();
    return;
  }
  if (pending_actions_.empty()) return;
  const float curr_heading = physics_obj_->get_heading();
  const float target = pending_actions_.front().heading;
  if (heading_greater(curr_heading, target, current_command_)) {
    fail_progress_count_ = 0;
    physics_obj_->set_heading(target, true);
    remove_pending_actions_head();
    MovementParameters params;
    params.bitfield &= ~MovementParameters::kCancelMoveTo;
    params.hold_key = movement_params_.hold_key;
    stop_motion(current_command_, params);
    current_command_ = 0;
    begin_next_node();
    return;
  }
  const double turned = heading_diff(curr_heading, previous_heading_, current_command_);
  previous_heading_ = curr_heading;
  if (turned >= 180.0 || turned <= kEpsilon) {
    if (!physics_obj_->is_interpolating() && !physics_obj_->motions_pending()) ++fail_progress_count_;
  } else {
    fail_progress_count_ = 0;
  }
}

// MoveToManager::MoveToPosition 0x0052A240: a turn to face the point and a
// move node when out of range, a final turn with UseFinalHeading. The
// distance is measured before the new parameters are copied (so never with
// spheres: InitializeLocalVariables cleared the bitfield).
void MoveToManager::move_to_position(const Position& p, const MovementParameters& params) {
  if (physics_obj_ == nullptr) return;
  physics_obj_->stop_completely();
  current_target_position_ = p;
  sought_object_radius_ = 0.0f;
  const float dist = get_current_distance();
  const float to_target = heading(physics_obj_->position(), p);
  const float rel = relative_heading(to_target, physics_obj_->get_heading());
  std::uint32_t command = 0;
  std::uint32_t hold_key = 0;
  bool move_away = false;
  params.get_command(dist, rel, command, hold_key, move_away);
  if (command != 0) {
    add_turn_to_heading_node(heading(physics_obj_->position(), p));
    add_move_to_position_node();
  }
  if ((params.bitfield & MovementParameters::kUseFinalHeading) != 0) add_turn_to_heading_node(params.desired_heading);
  sought_position_ = p;
  starting_position_ = physics_obj_->position();
  movement_type_ = kMoveToPosition;
  copy_params(params);
  movement_params_.bitfield &= ~MovementParameters::kSticky;
  begin_next_node();
}

// MoveToManager::MoveToObject_Internal 0x0052A400: the target's first report
// lays the nodes (the final heading is relative to the heading to it).
void MoveToManager::move_to_object_internal(const Position& target_position, const Position& interpolated_position) {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  sought_position_ = interpolated_position;
  current_target_position_ = target_position;
  const float to_object = heading(physics_obj_->position(), interpolated_position);
  const float dist = get_current_distance();
  const float rel = relative_heading(to_object, physics_obj_->get_heading());
  std::uint32_t command = 0;
  std::uint32_t hold_key = 0;
  bool move_away = false;
  movement_params_.get_command(dist, rel, command, hold_key, move_away);
  if (command != 0) {
    add_turn_to_heading_node(to_object);
    add_move_to_position_node();
  }
  if ((movement_params_.bitfield & MovementParameters::kUseFinalHeading) != 0) {
    float final_heading = to_object + movement_params_.desired_heading;
    if (final_heading >= 360.0f) final_heading -= 360.0f;
    add_turn_to_heading_node(final_heading);
  }
  initialized_ = true;
  begin_next_node();
}

// MoveToManager::TurnToObject_Internal 0x0052A550
void MoveToManager::turn_to_object_internal(const Position& target_position) {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  current_target_position_ = target_position;
  const float sought_heading = sought_position_.frame.get_heading();
  const auto target_heading = static_cast<float>(std::fmod(
      static_cast<double>(heading(physics_obj_->position(), current_target_position_)) + sought_heading, 360.0));
  sought_position_.frame.set_heading(target_heading);
  add_turn_to_heading_node(target_heading);
  initialized_ = true;
  begin_next_node();
}

// MoveToManager::TurnToHeading 0x0052A630
void MoveToManager::turn_to_heading(const MovementParameters& params) {
  if (physics_obj_ == nullptr) {
    movement_params_.context_id = params.context_id;
    return;
  }
  if ((params.bitfield & MovementParameters::kStopCompletely) != 0) physics_obj_->stop_completely();
  copy_params(params);
  movement_params_.bitfield &= ~MovementParameters::kSticky;
  sought_position_.frame.set_heading(params.desired_heading);
  movement_type_ = kTurnToHeading;
  add_turn_to_heading_node(params.desired_heading);
  begin_next_node();
}

// MoveToManager::UseTime 0x0052A780
void MoveToManager::use_time() {
  if (physics_obj_ == nullptr) return;
  if ((physics_obj_->transient_state() & transient_state::Contact) == 0) return;
  if (pending_actions_.empty()) return;
  if (top_level_object_id_ != 0 && movement_type_ != 0 && !initialized_) return;
  if (pending_actions_.front().type == MovementKind::MoveToPosition) {
    handle_move_to_position();
  } else if (pending_actions_.front().type == MovementKind::TurnToHeading) {
    handle_turn_to_heading();
  }
}

// MoveToManager::HandleUpdateTarget 0x0052A7D0
void MoveToManager::handle_update_target(const TargetInfo& info) {
  if (physics_obj_ == nullptr) {
    cancel_move_to(movement_error::NoPhysicsObject);
    return;
  }
  if (top_level_object_id_ != info.object_id) return;
  if (initialized_) {
    if (info.status != target_status::Ok) {
      cancel_move_to(0x37);
      return;
    }
    if (movement_type_ == kMoveToObject) {
      sought_position_ = info.interpolated_position;
      current_target_position_ = info.target_position;
      const double t = now();
      previous_distance_ = kFltMax;
      previous_distance_time_ = t;
      original_distance_ = kFltMax;
      original_distance_time_ = t;
    }
  } else if (top_level_object_id_ == physics_obj_->id()) {
    sought_position_ = physics_obj_->position();
    current_target_position_ = physics_obj_->position();
    clean_up_and_call_weenie(0);
  } else if (info.status == target_status::Ok) {
    if (movement_type_ == kMoveToObject) {
      move_to_object_internal(info.target_position, info.interpolated_position);
    } else if (movement_type_ == kTurnToObject) {
      turn_to_object_internal(info.target_position);
    }
  } else {
    cancel_move_to(0x38);
  }
}

// MoveToManager::PerformMovement 0x0052A900: any MoveTo first cancels the
// current one and unsticks.
std::uint32_t MoveToManager::perform_movement(const MovementStruct& mvs) {
  cancel_move_to(0x36);
  if (physics_obj_ != nullptr) physics_obj_->unstick_from_object();
  switch (mvs.type) {
    case MovementKind::MoveToObject:
      move_to_object(mvs.object_id, mvs.top_level_id, mvs.radius, mvs.height, mvs.params);
      break;
    case MovementKind::MoveToPosition: move_to_position(mvs.pos, mvs.params); break;
    case MovementKind::TurnToObject: turn_to_object(mvs.object_id, mvs.top_level_id, mvs.params); break;
    case MovementKind::TurnToHeading: turn_to_heading(mvs.params); break;
    default: break;
  }
  return 0;
}

}  // namespace dereth::sim
