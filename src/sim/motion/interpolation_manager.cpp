#include "dereth/sim/motion/interpolation_manager.hpp"

#include <cmath>

#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

namespace {

using NodeType = InterpolationNodeType;

InterpolationNode position_node(const Position& p) {
  InterpolationNode node;
  node.type = NodeType::Position;
  node.p = p;
  return node;
}

}  // namespace

// InterpolationManager::StopInterpolating 0x00555950
void InterpolationManager::stop_interpolating() {
  queue_.clear();
  frame_counter_ = 0;
  progress_quantum_ = 0.0f;
  node_fail_counter_ = 0;
  original_distance_ = kBigDistance;
}

// InterpolationManager::NodeCompleted 0x005559A0: the head is done; a failed
// node becomes the blip-to position unless a Position node follows it.
void InterpolationManager::node_completed(bool success) {
  frame_counter_ = 0;
  progress_quantum_ = 0.0f;
  if (queue_.empty()) {
    // Nothing was popped: the binary returns here on either branch except a
    // successful completion, which resets the manager.
    original_distance_ = kBigDistance;
    if (success) stop_interpolating();
    return;
  }
  const InterpolationNode done = queue_.front();
  queue_.pop_front();
  if (!queue_.empty()) {
    if (queue_.front().type == NodeType::Position) {
      original_distance_ = distance(owner_->position(), queue_.front().p);
    } else if (!success) {
      blipto_position_ = done.p;
    }
    return;
  }
  original_distance_ = kBigDistance;
  if (success) {
    stop_interpolating();
  } else {
    blipto_position_ = done.p;
  }
}

// InterpolationManager::InterpolateTo 0x00555B20
void InterpolationManager::interpolate_to(const Position& p, bool keep_heading) {
  const bool tail_is_position = !queue_.empty() && queue_.back().type == NodeType::Position;
  const Position& from = tail_is_position ? queue_.back().p : owner_->position();
  if (!(owner_->get_autonomy_blip_distance() >= distance(from, p))) {
    // Too far behind: queue the node and force a blip on the next UseTime.
    // The heading rule reads the keep_heading stored by the previous call,
    // not this call's argument (the binary never stores it on this path).
    InterpolationNode node = position_node(p);
    if (keep_heading_) node.p.frame.set_heading(owner_->get_heading());
    queue_.push_back(node);
    node_fail_counter_ = kFarNodeFailures;
    return;
  }
  if (!(distance(owner_->position(), p) > kDesiredDistance)) {
    // Already there: take the heading (unless kept) and stop.
    if (!keep_heading) owner_->set_heading(p.frame.get_heading(), true);
    stop_interpolating();
    return;
  }
  // Drop queued Position nodes the new one makes redundant, then the oldest
  // nodes while the queue is full.
  while (!queue_.empty() && queue_.back().type == NodeType::Position &&
         distance(queue_.back().p, p) < kDesiredDistance) {
    queue_.pop_back();
  }
  while (queue_.size() >= kMaxQueue) queue_.pop_front();
  keep_heading_ = keep_heading;
  InterpolationNode node = position_node(p);
  if (keep_heading_) node.p.frame.set_heading(owner_->get_heading());
  queue_.push_back(node);
}

// InterpolationManager::adjust_offset 0x00555D30: replaces the frame's offset
// with a step toward the head node, at most twice the motion interpreter's
// (adjusted) max speed per second; every 5 frames the progress is checked and
// a stalled node fails.
void InterpolationManager::adjust_offset(core::Frame& offset, FloatSeconds quantum) {
  if (queue_.empty()) return;
  if ((owner_->transient_state() & transient_state::Contact) == 0) return;
  const InterpolationNode& head = queue_.front();
  if (head.type == NodeType::Jump || head.type == NodeType::Velocity) return;
  const float curr_distance = distance(owner_->position(), head.p);
  if (curr_distance < kDesiredDistance) {
    node_completed(true);
    return;
  }
  float my_max_speed = 0.0f;
  if (MovementManager* minterp = owner_->get_minterp()) {
    my_max_speed = (kUseAdjustedSpeed ? minterp->get_adjusted_max_speed() : minterp->get_max_speed()) * 2.0f;
  }
  if (my_max_speed < kPhysicsEpsilon) my_max_speed = kMaxInterpolatedVelocity;
  const float q = quantum.count();
  progress_quantum_ += q;
  ++frame_counter_;
  if (frame_counter_ >= kFramesPerProgressCheck) {
    const float progress_made = original_distance_ - curr_distance;
    const bool progressing =
        owner_->get_sticky_object_id() != 0 ||
        (progress_made >= kPhysicsEpsilon && progress_made / progress_quantum_ / my_max_speed >= kMinProgressRatio);
    if (!progressing) {
      if (curr_distance < kStalledButClose) {
        node_completed(true);
      } else {
        ++node_fail_counter_;
        node_completed(false);
      }
      return;
    }
    frame_counter_ = 0;
    progress_quantum_ = 0.0f;
    original_distance_ = curr_distance;
  }
  core::Frame adjustment = subtract2(head.p, owner_->position());
  const float max_step = my_max_speed * q;
  const glm::vec3& a = adjustment.origin;
  const float adjustment_distance = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
  // The node is reached this frame; the step toward it is still taken.
  if (adjustment_distance <= kDesiredDistance) node_completed(true);
  if (adjustment_distance > max_step) adjustment.origin *= max_step / adjustment_distance;
  if (keep_heading_) adjustment.set_heading(0.0f);
  offset = adjustment;
}

// InterpolationManager::UseTime 0x00555F20: after too many failed nodes (or
// a failed last node), blip to the last Position node (or the blip-to
// position) and stop; otherwise complete a Jump or Velocity head.
void InterpolationManager::use_time() {
  if (node_fail_counter_ <= kMaxNodeFailures) {
    if (!queue_.empty()) {
      const InterpolationNode head = queue_.front();
      if (head.type == NodeType::Velocity) {
        owner_->set_velocity(head.velocity, true);
        node_completed(true);
      } else if (head.type == NodeType::Jump) {
        node_completed(true);
      }
      return;
    }
    if (node_fail_counter_ == 0) return;
  }
  if (queue_.empty()) {
    if (owner_->set_position_simple(blipto_position_, true)) stop_interpolating();
    return;
  }
  const InterpolationNode tail = queue_.back();
  if (tail.type == NodeType::Position) {
    if (owner_->set_position_simple(tail.p, true)) stop_interpolating();
    return;
  }
  // The tail is a Jump or Velocity node: blip to the last Position node before
  // it and take the tail's velocity; with none, to the blip-to position.
  const InterpolationNode* last_position = nullptr;
  for (std::size_t i = 0; i + 1 < queue_.size(); ++i) {
    if (queue_[i].type == NodeType::Position) last_position = &queue_[i];
  }
  if (last_position == nullptr) {
    if (owner_->set_position_simple(blipto_position_, true)) stop_interpolating();
    return;
  }
  const Position target = last_position->p;
  if (!owner_->set_position_simple(target, true)) return;
  owner_->set_velocity(tail.velocity, true);
  stop_interpolating();
}

}  // namespace dereth::sim
