#pragma once
// AnimSequenceNode (retail CSeqPrim, RE canim/CSeqPrim.c): one animation of a
// Sequence, its frame range and framerate, linked in the sequence's list.

#include <cstdint>
#include <memory>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/motion_table.hpp"

namespace dereth::sim {

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

}  // namespace dereth::sim
