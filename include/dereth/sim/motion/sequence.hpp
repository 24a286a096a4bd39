#pragma once
// Sequence (retail CSequence, RE canim/CSequence.c; spec/physics.md section 1):
// the animation playback of one part array, a doubly linked list of nodes
// (anim_sequence_node.hpp) of which only the last loops; the links before it
// play once and apricot frees them. Nodes come from the sequence's own pool:
// once warm, appending and removing do not allocate, and update() never does.
// docs/sim.md "Animation (Sequence, MotionTable, PartArray)".

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/sim/motion/anim_sequence_node.hpp"
#include "dereth/sim/motion/animation_source.hpp"
#include "dereth/sim/object/seams.hpp"

namespace dereth::sim {

class PhysicsObj;

// Hook directions as CSequence::execute_hooks passes them.
inline constexpr std::int32_t kHookForward = 1;
inline constexpr std::int32_t kHookBackward = -1;

// The AnimDone hook CSequence::update_internal stages when a link node
// finishes (retail's static anim_done_hook): executing it runs
// CPhysicsObj::Hook_AnimDone on the owner.
class AnimDoneHook final : public AnimHook {
 public:
  void execute(PhysicsObj& owner) override;
};

class Sequence {
 public:
  Sequence() = default;
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;
  ~Sequence() = default;

  // CSequence::set_object 0x00524820: the object hooks are staged on.
  void set_object(PhysicsObj* object) noexcept { hook_obj_ = object; }
  [[nodiscard]] PhysicsObj* object() const noexcept { return hook_obj_; }
  // Not owned; must outlive the sequence's appends.
  void set_animation_source(AnimationSource* source) noexcept { source_ = source; }

  // --- list operations ------------------------------------------------------
  // CSequence::append_animation 0x00525510
  void append_animation(const dat::AnimData& data);
  // CSequence::clear 0x005255B0: animations, physics and the placement frame.
  void clear();
  // CSequence::clear_animations 0x00524DC0
  void clear_animations();
  // CSequence::clear_physics 0x00524D50
  void clear_physics() noexcept;
  // CSequence::remove_cyclic_anims 0x00524E40
  void remove_cyclic_anims();
  // CSequence::remove_link_animations 0x00524BE0
  void remove_link_animations(std::uint32_t n);
  // CSequence::remove_all_link_animations 0x00524CA0
  void remove_all_link_animations();
  // CSequence::apricot 0x00524B40: drop finished links from the head.
  void apricot();
  // CSequence::has_anims 0x00524BD0
  [[nodiscard]] bool has_anims() const noexcept { return head_ != nullptr; }
  // CSequence::multiply_cyclic_animation_fr 0x00524940
  void multiply_cyclic_animation_framerate(float multiplier) noexcept;

  // --- physics --------------------------------------------------------------
  // CSequence::set_velocity 0x00524880
  void set_velocity(const glm::vec3& v) noexcept { velocity_ = v; }
  // CSequence::set_omega 0x005248A0
  void set_omega(const glm::vec3& w) noexcept { omega_ = w; }
  // CSequence::combine_physics 0x005248C0
  void combine_physics(const glm::vec3& v, const glm::vec3& w) noexcept;
  // CSequence::subtract_physics 0x00524900
  void subtract_physics(const glm::vec3& v, const glm::vec3& w) noexcept;
  [[nodiscard]] const glm::vec3& velocity() const noexcept { return velocity_; }
  [[nodiscard]] const glm::vec3& omega() const noexcept { return omega_; }

  // --- pose -----------------------------------------------------------------
  // CSequence::get_curr_animframe 0x00524970: the keyframe at floor(frame) of
  // the current node, else the placement frame (no interpolation).
  [[nodiscard]] const dat::AnimationFrame* get_curr_animframe() const noexcept;
  // CSequence::set_placement_frame 0x005249B0 (not owned).
  void set_placement_frame(const dat::AnimationFrame* frame, std::uint32_t id) noexcept {
    placement_frame_ = frame;
    placement_frame_id_ = id;
  }
  [[nodiscard]] const dat::AnimationFrame* placement_frame() const noexcept { return placement_frame_; }
  [[nodiscard]] std::uint32_t placement_frame_id() const noexcept { return placement_frame_id_; }
  // CSequence::get_curr_frame_number 0x005249D0
  [[nodiscard]] std::int64_t get_curr_frame_number() const noexcept;

  // --- time -----------------------------------------------------------------
  // CSequence::update 0x00525B80: advance by `quantum`; with `offset`, root
  // motion accumulates into it (object-local).
  void update(double quantum, core::Frame* offset);
  // CSequence::apply_physics 0x00524AB0: |dt| with the sign of `sign`.
  void apply_physics(core::Frame& frame, double dt, double sign) const noexcept;

  // --- inspection -------------------------------------------------------------
  [[nodiscard]] AnimSequenceNode* head() const noexcept { return head_; }
  [[nodiscard]] AnimSequenceNode* tail() const noexcept { return tail_; }
  [[nodiscard]] AnimSequenceNode* curr_anim() const noexcept { return curr_anim_; }
  [[nodiscard]] AnimSequenceNode* first_cyclic() const noexcept { return first_cyclic_; }
  [[nodiscard]] double frame_number() const noexcept { return frame_number_; }
  void set_frame_number(double frame) noexcept { frame_number_ = frame; }
  [[nodiscard]] std::size_t size() const noexcept;

 private:
  // CSequence::update_internal 0x005255D0
  void update_internal(double quantum, AnimSequenceNode*& node, double& frame, core::Frame* offset);
  // CSequence::advance_to_next_animation 0x005252B0
  void advance_to_next_animation(double quantum, AnimSequenceNode*& node, double& frame, core::Frame* offset);
  // CSequence::execute_hooks 0x00524830
  void execute_hooks(const dat::AnimationFrame* frame, std::int32_t direction) const;
  void stage_anim_done() const;

  AnimSequenceNode* make_node();
  void unlink(AnimSequenceNode* node) noexcept;
  void release(AnimSequenceNode* node) noexcept;

  AnimSequenceNode* head_ = nullptr;
  AnimSequenceNode* tail_ = nullptr;
  AnimSequenceNode* first_cyclic_ = nullptr;
  AnimSequenceNode* curr_anim_ = nullptr;
  double frame_number_ = 0.0;
  glm::vec3 velocity_{0.0f};
  glm::vec3 omega_{0.0f};
  PhysicsObj* hook_obj_ = nullptr;
  const dat::AnimationFrame* placement_frame_ = nullptr;
  std::uint32_t placement_frame_id_ = 0;
  AnimationSource* source_ = nullptr;

  std::vector<std::unique_ptr<AnimSequenceNode>> pool_;
  std::vector<AnimSequenceNode*> free_;
};

// dat::Frame (file form) to core::Frame (normalised, cached matrix).
[[nodiscard]] core::Frame to_core_frame(const dat::Frame& frame) noexcept;

}  // namespace dereth::sim
