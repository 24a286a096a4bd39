#include "dereth/sim/motion/sequence.hpp"

#include <cmath>
#include <utility>

#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

// PhysicsGlobals EPSILON as CSequence and CSeqPrim compare it (a double).
constexpr double kEpsilon = core::kEpsilonDouble;

// update_internal carries overshoot time from node to node. Real data needs a
// handful of passes per quantum; a record with an absurd framerate could need
// millions (retail would stall the frame). Past this many passes the rest of
// the quantum is dropped.
constexpr int kMaxAdvancesPerUpdate = 1024;

}  // namespace

core::Frame to_core_frame(const dat::Frame& frame) noexcept {
  return core::Frame(frame.origin, frame.orientation);
}

// CPhysicsObj::Hook_AnimDone 0x0050FDA0, reached through the staged hook.
void AnimDoneHook::execute(PhysicsObj& owner) {
  owner.hook_anim_done();
}

// --- node pool -------------------------------------------------------------------

AnimSequenceNode* Sequence::make_node() {
  if (!free_.empty()) {
    AnimSequenceNode* node = free_.back();
    free_.pop_back();
    return node;
  }
  pool_.push_back(std::make_unique<AnimSequenceNode>());
  free_.reserve(pool_.size());
  return pool_.back().get();
}

void Sequence::unlink(AnimSequenceNode* node) noexcept {
  if (node->prev_ != nullptr) {
    node->prev_->next_ = node->next_;
  } else {
    head_ = node->next_;
  }
  if (node->next_ != nullptr) {
    node->next_->prev_ = node->prev_;
  } else {
    tail_ = node->prev_;
  }
  node->prev_ = nullptr;
  node->next_ = nullptr;
}

void Sequence::release(AnimSequenceNode* node) noexcept {
  unlink(node);
  node->anim_.reset();
  free_.push_back(node);  // capacity reserved in make_node: never allocates
}

std::size_t Sequence::size() const noexcept {
  std::size_t n = 0;
  for (const AnimSequenceNode* node = head_; node != nullptr; node = node->next_) ++n;
  return n;
}

// --- list operations --------------------------------------------------------------

// CSequence::append_animation 0x00525510
void Sequence::append_animation(const dat::AnimData& data) {
  std::shared_ptr<const dat::Animation> anim;
  if (data.anim_id != 0 && source_ != nullptr) anim = source_->get_animation(data.anim_id);
  // A node without an animation is discarded. An animation with no frames is
  // treated as absent too (retail would index frame -1 of it).
  if (anim == nullptr || anim->frames.empty()) return;
  AnimSequenceNode* node = make_node();
  node->set(data, std::move(anim));
  node->prev_ = tail_;
  node->next_ = nullptr;
  if (tail_ != nullptr) {
    tail_->next_ = node;
  } else {
    head_ = node;
  }
  tail_ = node;
  first_cyclic_ = tail_;
  if (curr_anim_ == nullptr) {
    curr_anim_ = head_;
    frame_number_ = head_->get_starting_frame();
  }
}

// CSequence::clear 0x005255B0
void Sequence::clear() {
  clear_animations();
  clear_physics();
  placement_frame_ = nullptr;
  placement_frame_id_ = 0;
}

// CSequence::clear_animations 0x00524DC0
void Sequence::clear_animations() {
  while (head_ != nullptr) release(head_);
  first_cyclic_ = nullptr;
  frame_number_ = 0.0;
  curr_anim_ = nullptr;
}

// CSequence::clear_physics 0x00524D50
void Sequence::clear_physics() noexcept {
  velocity_ = glm::vec3(0.0f);
  omega_ = glm::vec3(0.0f);
}

// CSequence::remove_cyclic_anims 0x00524E40
void Sequence::remove_cyclic_anims() {
  AnimSequenceNode* node = first_cyclic_;
  while (node != nullptr) {
    if (curr_anim_ == node) {
      curr_anim_ = node->prev_;
      frame_number_ = curr_anim_ != nullptr ? curr_anim_->get_ending_frame() : 0.0;
    }
    AnimSequenceNode* next = node->next_;
    release(node);
    node = next;
  }
  first_cyclic_ = tail_;
}

// CSequence::remove_link_animations 0x00524BE0
void Sequence::remove_link_animations(std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    if (first_cyclic_ == nullptr || first_cyclic_->prev_ == nullptr) break;
    if (first_cyclic_->prev_ == curr_anim_) {
      curr_anim_ = first_cyclic_;
      frame_number_ = curr_anim_->get_starting_frame();
    }
    release(first_cyclic_->prev_);
  }
}

// CSequence::remove_all_link_animations 0x00524CA0
void Sequence::remove_all_link_animations() {
  while (first_cyclic_ != nullptr && first_cyclic_->prev_ != nullptr) {
    // A cursor on the link just before the cycle moves to the cycle's start;
    // a cursor on an earlier link gets there as the links are peeled off.
    if (first_cyclic_->prev_ == curr_anim_) {
      curr_anim_ = first_cyclic_;
      frame_number_ = curr_anim_->get_starting_frame();
    }
    release(first_cyclic_->prev_);
  }
}

// CSequence::apricot 0x00524B40
void Sequence::apricot() {
  while (head_ != nullptr && head_ != curr_anim_ && head_ != first_cyclic_) release(head_);
}

// CSequence::multiply_cyclic_animation_fr 0x00524940
void Sequence::multiply_cyclic_animation_framerate(float multiplier) noexcept {
  for (AnimSequenceNode* node = first_cyclic_; node != nullptr; node = node->next_) {
    node->multiply_framerate(multiplier);
  }
}

// CSequence::combine_physics 0x005248C0
void Sequence::combine_physics(const glm::vec3& v, const glm::vec3& w) noexcept {
  velocity_ += v;
  omega_ += w;
}

// CSequence::subtract_physics 0x00524900
void Sequence::subtract_physics(const glm::vec3& v, const glm::vec3& w) noexcept {
  velocity_ -= v;
  omega_ -= w;
}

// CSequence::get_curr_animframe 0x00524970
const dat::AnimationFrame* Sequence::get_curr_animframe() const noexcept {
  if (curr_anim_ == nullptr) return placement_frame_;
  return curr_anim_->get_part_frame(get_curr_frame_number());
}

// CSequence::get_curr_frame_number 0x005249D0
std::int64_t Sequence::get_curr_frame_number() const noexcept {
  const double f = std::floor(frame_number_);
  // Frame numbers stay within a node's range; a non-finite one names no frame.
  if (!std::isfinite(f)) return -1;
  return static_cast<std::int64_t>(f);
}

// --- time ---------------------------------------------------------------------

// CSequence::apply_physics 0x00524AB0
void Sequence::apply_physics(core::Frame& frame, double dt, double sign) const noexcept {
  double step = std::fabs(dt);
  if (sign < 0.0) step = -step;
  const auto s = static_cast<float>(step);
  frame.origin += velocity_ * s;
  frame.rotate(omega_ * s);
}

// CSequence::execute_hooks 0x00524830
void Sequence::execute_hooks(const dat::AnimationFrame* frame, std::int32_t direction) const {
  if (hook_obj_ == nullptr || frame == nullptr) return;
  for (const dat::AnimationHook& hook : frame->hooks) {
    // Retail's unpacker builds no AnimationDone hook from a record.
    if (hook.type() == dat::HookType::AnimationDone) continue;
    const auto d = static_cast<std::int32_t>(hook.direction);
    if (d == 0 || d == direction) hook_obj_->add_anim_hook(std::make_unique<DatAnimHook>(hook));
  }
}

void Sequence::stage_anim_done() const {
  if (hook_obj_ != nullptr && head_ != first_cyclic_) hook_obj_->add_anim_hook(std::make_unique<AnimDoneHook>());
}

// CSequence::update 0x00525B80
void Sequence::update(double quantum, core::Frame* offset) {
  if (head_ != nullptr) {
    update_internal(quantum, curr_anim_, frame_number_, offset);
    apricot();
  } else if (offset != nullptr) {
    apply_physics(*offset, quantum, quantum);
  }
}

// CSequence::update_internal 0x005255D0
void Sequence::update_internal(double quantum, AnimSequenceNode*& node, double& frame, core::Frame* offset) {
  for (int pass = 0; node != nullptr; ++pass) {
    const auto framerate = static_cast<double>(node->framerate_);
    const double frame_quantum = framerate * quantum;
    // A NaN framerate (untrusted record) or a cursor that is not finite moves
    // nothing; retail's FPU compares would leave it in place too.
    if (std::isnan(frame_quantum) || !std::isfinite(frame)) return;
    auto last = static_cast<std::int64_t>(std::floor(frame));
    double time_left = 0.0;
    bool advance = false;
    frame += frame_quantum;
    if (frame_quantum > 0.0) {
      const auto high = static_cast<double>(node->high_frame_);
      if (std::floor(frame) > high) {
        double over = frame - high - 1.0;
        if (over < 0.0) over = 0.0;
        time_left = std::fabs(framerate) > kEpsilon ? over / framerate : 0.0;
        advance = true;
        frame = high;
      }
      // One pass per frame boundary crossed; the frame being left fires.
      while (std::floor(frame) > static_cast<double>(last)) {
        if (offset != nullptr) {
          if (const dat::Frame* pos = node->get_pos_frame(last)) {
            *offset = core::Frame::combine(*offset, to_core_frame(*pos));
          }
          if (std::fabs(framerate) > kEpsilon) apply_physics(*offset, 1.0 / framerate, quantum);
        }
        execute_hooks(node->get_part_frame(last), kHookForward);
        ++last;
      }
    } else if (frame_quantum < 0.0) {
      const auto low = static_cast<double>(node->low_frame_);
      if (std::floor(frame) < low) {
        double over = frame - low;
        if (over > 0.0) over = 0.0;
        time_left = std::fabs(framerate) > kEpsilon ? over / framerate : 0.0;
        advance = true;
        frame = low;
      }
      while (std::floor(frame) < static_cast<double>(last)) {
        if (offset != nullptr) {
          if (const dat::Frame* pos = node->get_pos_frame(last)) {
            *offset = core::Frame::subtract1(*offset, to_core_frame(*pos));
          }
          if (std::fabs(framerate) > kEpsilon) apply_physics(*offset, 1.0 / framerate, quantum);
        }
        execute_hooks(node->get_part_frame(last), kHookBackward);
        --last;
      }
    } else {
      // Framerate 0 (or no time): the real quantum of sequence physics.
      if (offset != nullptr && std::fabs(quantum) > kEpsilon) apply_physics(*offset, quantum, quantum);
      return;
    }
    if (!advance) return;
    stage_anim_done();
    advance_to_next_animation(quantum, node, frame, offset);
    // Carry the overshoot into the next node. It always shrinks for real data;
    // a non-shrinking (or NaN) remainder is dropped instead of looping forever.
    if (!(std::fabs(time_left) < std::fabs(quantum)) || pass + 1 >= kMaxAdvancesPerUpdate) return;
    quantum = time_left;
  }
}

// CSequence::advance_to_next_animation 0x005252B0
void Sequence::advance_to_next_animation(double quantum, AnimSequenceNode*& node, double& frame, core::Frame* offset) {
  const auto physics_step = [&](const AnimSequenceNode& n) {
    const auto framerate = static_cast<double>(n.framerate_);
    if (std::fabs(framerate) > kEpsilon) apply_physics(*offset, 1.0 / framerate, quantum);
  };
  const auto frame_index = [](double f) { return static_cast<std::int64_t>(std::floor(f)); };
  if (quantum < 0.0) {
    if (node->framerate_ >= 0.0f && offset != nullptr) {
      if (const dat::Frame* pos = node->get_pos_frame(frame_index(frame))) {
        *offset = core::Frame::subtract1(*offset, to_core_frame(*pos));
      }
      physics_step(*node);
    }
    node = node->prev_ != nullptr ? node->prev_ : tail_;
    if (node == nullptr) return;
    frame = node->get_ending_frame();
    if (node->framerate_ < 0.0f && offset != nullptr) {
      if (const dat::Frame* pos = node->get_pos_frame(frame_index(frame))) {
        *offset = core::Frame::combine(*offset, to_core_frame(*pos));
      }
      physics_step(*node);
    }
  } else {
    if (node->framerate_ < 0.0f && offset != nullptr) {
      if (const dat::Frame* pos = node->get_pos_frame(frame_index(frame))) {
        *offset = core::Frame::subtract1(*offset, to_core_frame(*pos));
      }
      physics_step(*node);
    }
    node = node->next_ != nullptr ? node->next_ : first_cyclic_;
    if (node == nullptr) return;
    frame = node->get_starting_frame();
    // The entry frame's pos delta is applied here and again when the frame is
    // left (retail behaviour, spec/physics.md section 1.3).
    if (node->framerate_ > 0.0f && offset != nullptr) {
      if (const dat::Frame* pos = node->get_pos_frame(frame_index(frame))) {
        *offset = core::Frame::combine(*offset, to_core_frame(*pos));
      }
      physics_step(*node);
    }
  }
}

}  // namespace dereth::sim
