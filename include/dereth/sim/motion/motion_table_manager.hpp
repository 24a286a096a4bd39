#pragma once
// MotionTableManager (retail MotionTableManager, cphysobj/CMTableManager.c):
// keeps the object's MotionState and the queue of pending motions whose link
// animations have not finished; AnimDone hooks drain it
// (motion_table_manager.cpp).

#include <cstdint>
#include <memory>
#include <vector>

#include "dereth/sim/motion/motion_state.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/motion/movement_manager.hpp"
#include "dereth/sim/motion/sequence.hpp"

namespace dereth::sim {

class PhysicsObj;

// MotionTableManager::AnimNode: a motion and how many link animations must
// finish before it is done.
struct AnimNode {
  std::uint32_t motion = 0;
  std::uint32_t num_anims = 0;
  bool operator==(const AnimNode&) const = default;
};

class MotionTableManager {
 public:
  // MotionTableManager::Create 0x0051BC50 (the table may be absent).
  MotionTableManager(PhysicsObj* owner, std::uint32_t table_id, std::shared_ptr<const MotionTable> table);

  // MotionTableManager::GetMotionTableID 0x0051BC10: 0 without a table.
  [[nodiscard]] std::uint32_t get_motion_table_id() const noexcept { return table_ ? table_->id() : 0; }
  [[nodiscard]] const MotionTable* table() const noexcept { return table_.get(); }
  [[nodiscard]] const MotionState& state() const noexcept { return state_; }
  [[nodiscard]] MotionState& state() noexcept { return state_; }
  [[nodiscard]] const std::vector<AnimNode>& pending_animations() const noexcept { return pending_; }
  [[nodiscard]] std::int32_t animation_counter() const noexcept { return animation_counter_; }

  // MotionTableManager::PerformMovement 0x0051C0B0
  std::uint32_t perform_movement(MovementKind kind, std::uint32_t motion, float speed, Sequence& sequence);
  // MotionTableManager::add_to_queue 0x0051BFE0
  void add_to_queue(std::uint32_t motion, std::uint32_t num_anims, Sequence& sequence);
  // MotionTableManager::remove_redundant_links 0x0051BF20
  void remove_redundant_links(Sequence& sequence);
  // MotionTableManager::truncate_animation_list 0x0051BCA0
  void truncate_animation_list(std::size_t node, Sequence& sequence);
  // MotionTableManager::AnimationDone 0x0051BCE0
  void animation_done(bool success);
  // MotionTableManager::CheckForCompletedMotions 0x0051BE00
  void check_for_completed_motions();
  // MotionTableManager::UseTime 0x0051CB00 (the address an AC bindings
  // listing gives; the 11.4186 split lacks its body): CheckForCompletedMotions.
  void use_time() { check_for_completed_motions(); }
  // MotionTableManager::HandleEnterWorld 0x0051BDD0
  void handle_enter_world(Sequence& sequence);
  // MotionTableManager::HandleExitWorld 0x0051BDA0
  void handle_exit_world();
  // MotionTableManager::initialize_state 0x0051C030
  void initialize_state(Sequence& sequence);

 private:
  void pop_head();

  PhysicsObj* owner_;
  std::uint32_t table_id_;
  std::shared_ptr<const MotionTable> table_;
  MotionState state_;
  std::vector<AnimNode> pending_;
  std::int32_t animation_counter_ = 0;
};

}  // namespace dereth::sim
