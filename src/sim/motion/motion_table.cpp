#include "dereth/sim/motion/motion_table.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

constexpr double kEpsilon = core::kEpsilonDouble;
// GetObjectSequence <-> StopSequenceMotion <-> re_modify nesting. Real tables
// nest two or three deep.
constexpr int kMaxDepth = 16;

std::uint32_t key(std::uint32_t style, std::uint32_t motion) noexcept {
  return (style << 16) | (motion & motion_mask::Command);
}

std::uint32_t anim_count(const dat::MotionData* data) noexcept {
  return data != nullptr ? static_cast<std::uint32_t>(data->anims.size()) : 0;
}

struct DepthGuard {
  explicit DepthGuard(int& depth) noexcept : depth_(&depth) { ++*depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  ~DepthGuard() { --*depth_; }
  [[nodiscard]] bool too_deep() const noexcept { return *depth_ > kMaxDepth; }
  int* depth_;
};

}  // namespace

// --- sequence helpers --------------------------------------------------------------

// add_motion 0x005224B0
void add_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod) {
  if (data == nullptr) return;
  sequence.set_velocity(data->velocity * speed_mod);
  sequence.set_omega(data->omega * speed_mod);
  for (const dat::AnimData& anim : data->anims) {
    dat::AnimData scaled = anim;
    scaled.framerate = anim.framerate * speed_mod;
    sequence.append_animation(scaled);
  }
}

// combine_motion 0x00522580
void combine_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod) {
  if (data == nullptr) return;
  sequence.combine_physics(data->velocity * speed_mod, data->omega * speed_mod);
}

// subtract_motion 0x00522600
void subtract_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod) {
  if (data == nullptr) return;
  sequence.subtract_physics(data->velocity * speed_mod, data->omega * speed_mod);
}

// change_cycle_speed 0x00522290
void change_cycle_speed(Sequence& sequence, float old_speed, float new_speed) {
  if (std::fabs(static_cast<double>(old_speed)) <= kEpsilon) {
    if (std::fabs(static_cast<double>(new_speed)) < kEpsilon) sequence.multiply_cyclic_animation_framerate(0.0f);
  } else {
    sequence.multiply_cyclic_animation_framerate(new_speed / old_speed);
  }
}

// same_sign 0x00522260: a NaN counts as negative on the left and matches
// either sign on the right, as the FPU compares fall.
bool same_sign(float a, float b) noexcept {
  if (!(a >= 0.0f)) return !(b >= 0.0f);
  return !(b < 0.0f);
}

// --- MotionTable -------------------------------------------------------------------

MotionTable::MotionTable(std::shared_ptr<const dat::MotionTable> data) : data_(std::move(data)) {
  for (const dat::MotionStyleDefault& d : data_->style_defaults) style_defaults_[d.style] = d.substate;
  for (const dat::MotionEntry& e : data_->cycles) cycles_[e.key] = &e.data;
  for (const dat::MotionEntry& e : data_->modifiers) modifiers_[e.key] = &e.data;
  for (const dat::MotionLinks& outer : data_->links) {
    auto& inner = links_[outer.outer_key];
    for (const dat::MotionEntry& e : outer.links) inner[e.key] = &e.data;
  }
}

std::optional<std::uint32_t> MotionTable::style_default(std::uint32_t style) const {
  if (auto it = style_defaults_.find(style); it != style_defaults_.end()) return it->second;
  return std::nullopt;
}

const dat::MotionData* MotionTable::cycle(std::uint32_t k) const {
  auto it = cycles_.find(k);
  return it != cycles_.end() ? it->second : nullptr;
}

const dat::MotionData* MotionTable::modifier(std::uint32_t k) const {
  auto it = modifiers_.find(k);
  return it != modifiers_.end() ? it->second : nullptr;
}

const dat::MotionData* MotionTable::link(std::uint32_t outer_key, std::uint32_t motion) const {
  auto outer = links_.find(outer_key);
  if (outer == links_.end()) return nullptr;
  auto inner = outer->second.find(motion);
  return inner != outer->second.end() ? inner->second : nullptr;
}

// CMotionTable::get_link 0x00522710
const dat::MotionData* MotionTable::get_link(std::uint32_t style, std::uint32_t substate, float substate_speed,
                                             std::uint32_t motion, float speed) const {
  if (speed < 0.0f || substate_speed < 0.0f) {
    // Reversed: the link from the target back to the source, played backwards.
    if (const dat::MotionData* found = link(key(style, motion), substate)) return found;
    if (const auto def = style_default(style)) return link(key(style, substate), *def);
    return nullptr;
  }
  if (const dat::MotionData* found = link(key(style, substate), motion)) return found;
  return link(style << 16, motion);
}

// CMotionTable::is_allowed 0x005226C0
bool MotionTable::is_allowed(std::uint32_t motion, const dat::MotionData* data, const MotionState& state) const {
  if (data == nullptr) return false;
  if ((data->bitfield & 0x2) != 0 && motion != state.substate) {
    const auto def = style_default(state.style);
    return def && *def == state.substate;
  }
  return true;
}

// CMotionTable::GetObjectSequence 0x00522860
bool MotionTable::get_object_sequence(std::uint32_t motion, MotionState& state, Sequence& sequence, float speed_mod,
                                      std::uint32_t& num_anims, bool stop_modifiers) const {
  num_anims = 0;
  if (state.style == 0 || state.substate == 0) return false;
  const DepthGuard guard(depth_);
  if (guard.too_deep()) {
    core::logger(core::Module::Sim)->warn("motion table {:#010x}: motion {:#010x} nests too deep", id(), motion);
    return false;
  }
  const std::uint32_t substate = state.substate;
  const std::uint32_t current_default = style_default(state.style).value_or(0);
  if (motion == current_default && !stop_modifiers && (substate & motion_mask::Modifier) != 0) return true;

  if ((motion & motion_mask::Style) != 0) {
    if (state.style == motion) return true;
    const dat::MotionData* pre_link = nullptr;
    if (substate != current_default) {
      pre_link = get_link(state.style, substate, state.substate_mod, current_default, speed_mod);
    }
    if (const auto new_substate = style_default(motion)) {
      if (const dat::MotionData* cyc = cycle(key(motion, *new_substate))) {
        if ((cyc->bitfield & 0x1) != 0) state.clear_modifiers();
        const dat::MotionData* link1 = get_link(state.style, current_default, state.substate_mod, motion, speed_mod);
        const dat::MotionData* link2 = nullptr;
        if (link1 == nullptr && motion != state.style) {
          // No direct link between the styles: go through the default style.
          link1 = get_link(state.style, current_default, 1.0f, default_style(), 1.0f);
          const std::uint32_t default_substate = style_default(default_style()).value_or(substate);
          link2 = get_link(default_style(), default_substate, 1.0f, motion, 1.0f);
        }
        sequence.clear_physics();
        sequence.remove_cyclic_anims();
        add_motion(sequence, pre_link, speed_mod);
        add_motion(sequence, link1, speed_mod);
        add_motion(sequence, link2, speed_mod);
        add_motion(sequence, cyc, speed_mod);
        state.substate = *new_substate;
        state.style = motion;
        state.substate_mod = speed_mod;
        re_modify(sequence, state);
        // The looping cycle never reports AnimDone: hence the -1 (unsigned,
        // as retail's count is).
        num_anims = anim_count(link1) + anim_count(link2) + anim_count(cyc) + anim_count(pre_link) - 1;
        return true;
      }
    }
  }

  if ((motion & motion_mask::SubState) != 0) {
    const dat::MotionData* cyc = cycle(key(state.style, motion));
    if (cyc == nullptr) cyc = cycle(key(default_style(), motion));
    if (cyc != nullptr && is_allowed(motion, cyc, state)) {
      if (motion == substate && same_sign(speed_mod, state.substate_mod) && sequence.has_anims()) {
        // The same cycle at a new speed: rescale it in place.
        change_cycle_speed(sequence, state.substate_mod, speed_mod);
        subtract_motion(sequence, cyc, state.substate_mod);
        combine_motion(sequence, cyc, speed_mod);
        state.substate_mod = speed_mod;
        return true;
      }
      if ((cyc->bitfield & 0x1) != 0) state.clear_modifiers();
      const dat::MotionData* link1 = get_link(state.style, state.substate, state.substate_mod, motion, speed_mod);
      const dat::MotionData* link2 = nullptr;
      if (link1 == nullptr || !same_sign(speed_mod, state.substate_mod)) {
        const std::uint32_t def = style_default(state.style).value_or(stop_modifiers ? 1u : 0u);
        link1 = get_link(state.style, state.substate, state.substate_mod, def, 1.0f);
        link2 = get_link(state.style, def, 1.0f, motion, speed_mod);
      }
      sequence.clear_physics();
      sequence.remove_cyclic_anims();
      if (link2 != nullptr) {
        add_motion(sequence, link1, state.substate_mod);
        add_motion(sequence, link2, speed_mod);
      } else {
        const float s = (state.substate_mod >= 0.0f || speed_mod <= 0.0f) ? speed_mod : -speed_mod;
        add_motion(sequence, link1, s);
      }
      add_motion(sequence, cyc, speed_mod);
      // Turning in place and then walking keeps the turn as a modifier.
      const std::uint32_t old_substate = state.substate;
      if (old_substate != motion && (old_substate & motion_mask::Modifier) != 0) {
        const std::uint32_t def = style_default(state.style).value_or(stop_modifiers ? 1u : 0u);
        if (def != motion) state.add_modifier_no_check(old_substate, state.substate_mod);
      }
      state.substate_mod = speed_mod;
      state.substate = motion;
      re_modify(sequence, state);
      num_anims = anim_count(link2) + anim_count(cyc) + anim_count(link1) - 1;
      return true;
    }
  }

  if ((motion & motion_mask::Action) != 0) {
    const std::uint32_t cycle_key = key(state.style, substate);
    if (const dat::MotionData* cyc = cycle(cycle_key)) {
      if (const dat::MotionData* direct = get_link(state.style, substate, state.substate_mod, motion, speed_mod)) {
        state.add_action(motion, speed_mod);
        sequence.clear_physics();
        sequence.remove_cyclic_anims();
        add_motion(sequence, direct, speed_mod);
        add_motion(sequence, cyc, state.substate_mod);  // resume the same cycle
        re_modify(sequence, state);
        num_anims = anim_count(direct);
        return true;
      }
      // Via the default substate, e.g. an action while running.
      const std::uint32_t def = style_default(state.style).value_or(current_default);
      const dat::MotionData* l1 = get_link(state.style, substate, state.substate_mod, def, 1.0f);
      const dat::MotionData* l2 = l1 != nullptr ? get_link(state.style, def, 1.0f, motion, speed_mod) : nullptr;
      const dat::MotionData* back = l2 != nullptr ? cycle(cycle_key) : nullptr;
      if (back != nullptr) {
        const dat::MotionData* l3 = get_link(state.style, def, 1.0f, substate, state.substate_mod);
        state.add_action(motion, speed_mod);
        sequence.clear_physics();
        sequence.remove_cyclic_anims();
        add_motion(sequence, l1, 1.0f);
        add_motion(sequence, l2, speed_mod);
        add_motion(sequence, l3, 1.0f);
        add_motion(sequence, back, state.substate_mod);
        re_modify(sequence, state);
        num_anims = anim_count(l1) + anim_count(l2) + anim_count(l3);
        return true;
      }
    }
  }

  if ((motion & motion_mask::Modifier) != 0) {
    const dat::MotionData* cyc = cycle(key(state.style, substate));
    if (cyc != nullptr && (cyc->bitfield & 0x1) == 0) {
      const dat::MotionData* data = modifier(key(state.style, motion));
      if (data == nullptr) data = modifier(motion & motion_mask::Command);
      if (data != nullptr) {
        bool added = state.add_modifier(motion, speed_mod);
        if (!added) {
          // Retail passes the address of its own count pointer here, so the
          // caller's count stays 0.
          std::uint32_t ignored = 0;
          stop_sequence_motion(motion, 1.0f, state, sequence, ignored);
          added = state.add_modifier(motion, speed_mod);
        }
        if (added) {
          // Only velocity and omega change; the animation is untouched.
          combine_motion(sequence, data, speed_mod);
          return true;
        }
      }
    }
  }
  return false;
}

// CMotionTable::DoObjectMotion 0x00523E90
bool MotionTable::do_object_motion(std::uint32_t motion, MotionState& state, Sequence& sequence, float speed_mod,
                                   std::uint32_t& num_anims) const {
  return get_object_sequence(motion, state, sequence, speed_mod, num_anims, false);
}

// CMotionTable::StopSequenceMotion 0x00522FC0
bool MotionTable::stop_sequence_motion(std::uint32_t motion, float /*speed*/, MotionState& state, Sequence& sequence,
                                       std::uint32_t& num_anims) const {
  num_anims = 0;
  if ((motion & motion_mask::SubState) != 0 && motion == state.substate) {
    // Back to the style's default substate at speed 1, modifiers stopped.
    const std::uint32_t def = style_default(state.style).value_or(0);
    get_object_sequence(def, state, sequence, 1.0f, num_anims, true);
    return true;
  }
  if ((motion & motion_mask::Modifier) == 0) return false;
  const auto& mods = state.modifiers();
  for (std::size_t i = 0; i < mods.size(); ++i) {
    if (mods[i].motion != motion) continue;
    const dat::MotionData* data = modifier(key(state.style, motion));
    if (data == nullptr) data = modifier(motion & motion_mask::Command);
    if (data == nullptr) return false;
    subtract_motion(sequence, data, mods[i].speed_mod);
    state.remove_modifier(i);
    return true;
  }
  return false;
}

// CMotionTable::StopObjectCompletely 0x00523ED0
bool MotionTable::stop_object_completely(MotionState& state, Sequence& sequence, std::uint32_t& num_anims) const {
  bool stopped = false;
  while (!state.modifiers().empty()) {
    const MotionListEntry head = state.modifiers().front();
    if (stop_sequence_motion(head.motion, head.speed_mod, state, sequence, num_anims)) {
      stopped = true;
    } else {
      // A modifier without data: retail would retry it forever.
      state.remove_modifier(0);
    }
  }
  const bool substate_stopped = stop_sequence_motion(state.substate, state.substate_mod, state, sequence, num_anims);
  return substate_stopped || stopped;
}

// CMotionTable::SetDefaultState 0x005230A0
bool MotionTable::set_default_state(MotionState& state, Sequence& sequence, std::uint32_t& num_anims) const {
  const auto def = style_default(default_style());
  if (!def) return false;
  state.clear_modifiers();
  state.clear_actions();
  const dat::MotionData* cyc = cycle(key(default_style(), *def));
  if (cyc == nullptr) return false;
  state.style = default_style();
  state.substate = *def;
  state.substate_mod = 1.0f;
  num_anims = anim_count(cyc) - 1;
  sequence.clear_physics();
  sequence.clear_animations();
  add_motion(sequence, cyc, state.substate_mod);
  return true;
}

// CMotionTable::re_modify 0x005222E0. Retail snapshots the modifier list and
// loops once per snapshot entry, but each pass takes the live head, which the
// re-issued modifier has just become again: with two or more modifiers the
// newest is recombined once per entry and the older ones are not recombined
// (spec/physics.md correction 9; ported as the decompilation reads).
void MotionTable::re_modify(Sequence& sequence, MotionState& state) const {
  const std::size_t passes = state.modifiers().size();
  for (std::size_t i = 0; i < passes; ++i) {
    if (state.modifiers().empty()) break;  // a re-issue refused: retail would read a null head
    const MotionListEntry head = state.modifiers().front();
    state.remove_modifier(0);
    std::uint32_t ignored = 0;
    get_object_sequence(head.motion, state, sequence, head.speed_mod, ignored, false);
  }
}

}  // namespace dereth::sim
