#include "dereth/sim/motion/anim_sequence_node.hpp"

#include <utility>

#include "dereth/core/frame.hpp"

namespace dereth::sim {

namespace {

// PhysicsGlobals EPSILON as CSeqPrim compares it (a double).
constexpr double kEpsilon = core::kEpsilonDouble;

}  // namespace

// AnimSequenceNode::AnimSequenceNode 0x00525F90
void AnimSequenceNode::set(const dat::AnimData& data, std::shared_ptr<const dat::Animation> anim) {
  framerate_ = data.framerate;
  low_frame_ = data.low_frame;
  high_frame_ = data.high_frame;
  anim_id_ = data.anim_id;
  // AnimSequenceNode::set_animation_id 0x00525D60: the clamps compare against
  // the unsigned frame count, so a negative low frame becomes the last frame.
  anim_ = std::move(anim);
  if (anim_ != nullptr) {
    const std::uint32_t n = num_frames();
    const auto last = static_cast<std::int32_t>(n - 1);
    if (high_frame_ < 0) high_frame_ = last;
    if (static_cast<std::uint32_t>(low_frame_) >= n) low_frame_ = last;
    if (static_cast<std::uint32_t>(high_frame_) >= n) high_frame_ = last;
    if (low_frame_ > high_frame_) high_frame_ = low_frame_;
  }
}

std::uint32_t AnimSequenceNode::num_frames() const noexcept {
  return anim_ != nullptr ? static_cast<std::uint32_t>(anim_->frames.size()) : 0;
}

// AnimSequenceNode::get_starting_frame 0x00525C80
double AnimSequenceNode::get_starting_frame() const noexcept {
  if (framerate_ < 0.0f) return static_cast<double>(high_frame_ + 1) - kEpsilon;
  return static_cast<double>(low_frame_);
}

// AnimSequenceNode::get_ending_frame 0x00525CB0
double AnimSequenceNode::get_ending_frame() const noexcept {
  if (framerate_ < 0.0f) return static_cast<double>(low_frame_);
  return static_cast<double>(high_frame_ + 1) - kEpsilon;
}

// AnimSequenceNode::multiply_framerate 0x00525BE0
void AnimSequenceNode::multiply_framerate(float multiplier) noexcept {
  if (multiplier < 0.0f) std::swap(low_frame_, high_frame_);
  framerate_ = multiplier * framerate_;
}

// AnimSequenceNode::get_part_frame 0x00525C40
const dat::AnimationFrame* AnimSequenceNode::get_part_frame(std::int64_t frame) const noexcept {
  if (anim_ == nullptr || frame < 0 || frame >= static_cast<std::int64_t>(anim_->frames.size())) return nullptr;
  return &anim_->frames[static_cast<std::size_t>(frame)];
}

// AnimSequenceNode::get_pos_frame 0x00525C10
const dat::Frame* AnimSequenceNode::get_pos_frame(std::int64_t frame) const noexcept {
  if (anim_ == nullptr || frame < 0 || frame >= static_cast<std::int64_t>(anim_->frames.size())) return nullptr;
  if ((anim_->flags & dat::Animation::kHasPosFrames) == 0) return nullptr;
  if (frame >= static_cast<std::int64_t>(anim_->pos_frames.size())) return nullptr;
  return &anim_->pos_frames[static_cast<std::size_t>(frame)];
}

}  // namespace dereth::sim
