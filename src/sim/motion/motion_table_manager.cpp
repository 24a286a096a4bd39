#include "dereth/sim/motion/motion_table_manager.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace mc = motion_command;

// --- MotionTableManager ------------------------------------------------------------

// MotionTableManager::Create 0x0051BC50
MotionTableManager::MotionTableManager(PhysicsObj* owner, std::uint32_t table_id,
                                       std::shared_ptr<const MotionTable> table)
    : owner_(owner), table_id_(table_id), table_(std::move(table)) {
  pending_.reserve(8);
}

// MotionTableManager::PerformMovement 0x0051C0B0
std::uint32_t MotionTableManager::perform_movement(MovementKind kind, std::uint32_t motion, float speed,
                                                   Sequence& sequence) {
  if (!table_) return movement_error::NoMotionTable;
  std::uint32_t num_anims = 0;
  switch (kind) {
    case MovementKind::InterpretedCommand:
      if (!table_->do_object_motion(motion, state_, sequence, speed, num_anims)) return movement_error::NoMtableData;
      add_to_queue(motion, num_anims, sequence);
      return movement_error::None;
    case MovementKind::StopInterpretedCommand:
      if (!table_->stop_sequence_motion(motion, speed, state_, sequence, num_anims)) {
        return movement_error::NoMtableData;
      }
      add_to_queue(mc::Ready, num_anims, sequence);
      return movement_error::None;
    case MovementKind::StopCompletely:
      table_->stop_object_completely(state_, sequence, num_anims);
      add_to_queue(mc::Ready, num_anims, sequence);
      return movement_error::None;
    default: return movement_error::GeneralMovementFailure;
  }
}

// MotionTableManager::add_to_queue 0x0051BFE0
void MotionTableManager::add_to_queue(std::uint32_t motion, std::uint32_t num_anims, Sequence& sequence) {
  pending_.push_back(AnimNode{motion, num_anims});
  remove_redundant_links(sequence);
}

// MotionTableManager::remove_redundant_links 0x0051BF20
void MotionTableManager::remove_redundant_links(Sequence& sequence) {
  std::size_t end = pending_.size();
  while (end > 0 && pending_[end - 1].num_anims == 0) --end;
  if (end == 0) return;
  const std::size_t last = end - 1;
  const std::uint32_t motion = pending_[last].motion;
  if ((motion & motion_mask::SubState) != 0 && (motion & motion_mask::Modifier) == 0) {
    // Walk, Ready, Walk pressed quickly: the intermediate links go.
    for (std::size_t i = last; i-- > 0;) {
      const AnimNode& node = pending_[i];
      if (node.motion == motion && node.num_anims != 0) {
        truncate_animation_list(i, sequence);
        return;
      }
      if (node.num_anims != 0 && (node.motion & 0xB0000000u) != 0) return;
    }
    return;
  }
  if ((motion & motion_mask::Style) != 0) {
    for (std::size_t i = last; i-- > 0;) {
      const AnimNode& node = pending_[i];
      if (node.motion == motion) {
        truncate_animation_list(i, sequence);
        return;
      }
      if (node.num_anims != 0 && (node.motion & 0x70000000u) != 0) return;
    }
  }
}

// MotionTableManager::truncate_animation_list 0x0051BCA0
void MotionTableManager::truncate_animation_list(std::size_t node, Sequence& sequence) {
  if (node >= pending_.size()) return;
  std::uint32_t removed = 0;
  for (std::size_t i = pending_.size() - 1; i > node; --i) {
    removed += pending_[i].num_anims;
    pending_[i].num_anims = 0;
  }
  sequence.remove_link_animations(removed);
}

void MotionTableManager::pop_head() {
  if (!pending_.empty()) pending_.erase(pending_.begin());
}

// MotionTableManager::AnimationDone 0x0051BCE0
void MotionTableManager::animation_done(bool success) {
  if (pending_.empty()) return;
  ++animation_counter_;
  while (!pending_.empty()) {
    const AnimNode head = pending_.front();
    // Retail compares the count with the counter as unsigned values.
    if (head.num_anims > static_cast<std::uint32_t>(animation_counter_)) break;
    if ((head.motion & motion_mask::Action) != 0) state_.remove_action_head();  // before MotionDone
    if (owner_ != nullptr) owner_->motion_done(head.motion, success);
    animation_counter_ = static_cast<std::int32_t>(static_cast<std::uint32_t>(animation_counter_) - head.num_anims);
    pop_head();
  }
  if (animation_counter_ != 0 && pending_.empty()) animation_counter_ = 0;
}

// MotionTableManager::CheckForCompletedMotions 0x0051BE00
void MotionTableManager::check_for_completed_motions() {
  while (!pending_.empty() && pending_.front().num_anims == 0) {
    const std::uint32_t motion = pending_.front().motion;
    if ((motion & motion_mask::Action) != 0) state_.remove_action_head();
    if (owner_ != nullptr) owner_->motion_done(motion, true);
    pop_head();
  }
}

// MotionTableManager::HandleEnterWorld 0x0051BDD0
void MotionTableManager::handle_enter_world(Sequence& sequence) {
  sequence.remove_all_link_animations();
  handle_exit_world();
}

// MotionTableManager::HandleExitWorld 0x0051BDA0: AnimationDone(false) until
// the queue is empty.
void MotionTableManager::handle_exit_world() {
  while (!pending_.empty()) {
    const std::size_t before = pending_.size();
    const std::uint32_t needed = pending_.front().num_anims;
    animation_done(false);
    if (pending_.size() == before && needed > 0 && static_cast<std::uint32_t>(animation_counter_) < needed - 1) {
      // Calls that pop nothing only count up; jump to the last of them so a
      // corrupt count (an underflowed -1) cannot take four billion calls.
      animation_counter_ = static_cast<std::int32_t>(needed - 1);
    }
  }
}

// MotionTableManager::initialize_state 0x0051C030
void MotionTableManager::initialize_state(Sequence& sequence) {
  std::uint32_t num_anims = 0;
  if (table_) table_->set_default_state(state_, sequence, num_anims);
  add_to_queue(mc::Ready, num_anims, sequence);
}

}  // namespace dereth::sim
