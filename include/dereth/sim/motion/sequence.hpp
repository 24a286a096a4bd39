#pragma once
// Sequence (retail CSequence) and AnimSequenceNode (CSeqPrim): the animation
// playback of one part array (spec/physics.md section 1, RE canim/CSequence.c
// and canim/CSeqPrim.c).
//
// A sequence is a doubly linked list of animation nodes. Every append moves
// first_cyclic to the new tail, so only the last node loops; earlier nodes
// (links) play once and are garbage-collected by apricot. update() advances
// the frame cursor, stages the hooks of every frame it leaves on the owning
// object, and accumulates root motion (pos frames plus frame-quantised
// velocity and omega) into an object-local offset frame.
//
// Nodes come from a pool owned by the sequence: once warm, appending and
// removing nodes does not allocate, and update() never does.

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/sim/object/seams.hpp"

namespace dereth::sim {

class PhysicsObj;

// Where a sequence gets its Animation records (DBObj::Get for 0x03 ids).
// nullptr means absent or unreadable; the node is then discarded, as retail
// discards a node whose animation did not load.
class AnimationSource {
 public:
  AnimationSource() = default;
  AnimationSource(const AnimationSource&) = delete;
  AnimationSource& operator=(const AnimationSource&) = delete;
  virtual ~AnimationSource() = default;
  [[nodiscard]] virtual std::shared_ptr<const dat::Animation> get_animation(std::uint32_t did) = 0;
};

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

// AnimSequenceNode (CSeqPrim): one animation in the sequence with its frame
// range and framerate.
class AnimSequenceNode {
 public:
  AnimSequenceNode() = default;

  // AnimSequenceNode::AnimSequenceNode(AnimData) 0x00525F90, which ends in
  // AnimSequenceNode::set_animation_id 0x00525D60 (the range clamp).
  void set(const dat::AnimData& data, std::shared_ptr<const dat::Animation> anim);

  [[nodiscard]] bool has_anim() const noexcept { return anim_ != nullptr; }
  [[nodiscard]] const dat::Animation* anim() const noexcept { return anim_.get(); }
  [[nodiscard]] std::uint32_t anim_id() const noexcept { return anim_id_; }
  [[nodiscard]] float framerate() const noexcept { return framerate_; }
  [[nodiscard]] std::int32_t low_frame() const noexcept { return low_frame_; }
  [[nodiscard]] std::int32_t high_frame() const noexcept { return high_frame_; }
  [[nodiscard]] std::uint32_t num_frames() const noexcept;

  // AnimSequenceNode::get_starting_frame 0x00525C80
  [[nodiscard]] double get_starting_frame() const noexcept;
  // AnimSequenceNode::get_ending_frame 0x00525CB0
  [[nodiscard]] double get_ending_frame() const noexcept;
  // AnimSequenceNode::multiply_framerate 0x00525BE0: a negative multiplier
  // also swaps low and high (retail quirk).
  void multiply_framerate(float multiplier) noexcept;
  // AnimSequenceNode::get_part_frame 0x00525C40: null outside [0, num_frames).
  [[nodiscard]] const dat::AnimationFrame* get_part_frame(std::int64_t frame) const noexcept;
  // AnimSequenceNode::get_pos_frame 0x00525C10: null outside [0, num_frames)
  // or when the animation has no pos frames.
  [[nodiscard]] const dat::Frame* get_pos_frame(std::int64_t frame) const noexcept;

  // AnimSequenceNode::GetNext 0x00525DE0 / GetPrev 0x00525DF0
  [[nodiscard]] AnimSequenceNode* next() const noexcept { return next_; }
  [[nodiscard]] AnimSequenceNode* prev() const noexcept { return prev_; }

 private:
  friend class Sequence;

  std::shared_ptr<const dat::Animation> anim_;
  std::uint32_t anim_id_ = 0;
  float framerate_ = 30.0f;
  std::int32_t low_frame_ = -1;
  std::int32_t high_frame_ = -1;
  AnimSequenceNode* prev_ = nullptr;
  AnimSequenceNode* next_ = nullptr;
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
