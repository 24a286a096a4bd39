#include "dereth/sim/motion_table.hpp"

#include <cmath>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/physics_obj.hpp"
#include "dereth/sim/sim_context.hpp"

namespace dereth::sim {

namespace mc = motion_command;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

constexpr double kEpsilon = 0.00019999999;
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

std::optional<std::uint32_t> motion_command_from_wire(std::uint16_t command) noexcept {
  // The command_ids[] entries for the commands dereth's motion code names.
  switch (command) {
    case 0x0003: return mc::Ready;
    case 0x0004: return mc::Stop;
    case 0x0005: return mc::WalkForward;
    case 0x0006: return mc::WalkBackwards;
    case 0x0007: return mc::RunForward;
    case 0x000D: return mc::TurnRight;
    case 0x000E: return mc::TurnLeft;
    case 0x000F: return mc::SideStepRight;
    case 0x0010: return mc::SideStepLeft;
    case 0x0011: return mc::Dead;
    case 0x0012: return mc::Crouch;
    case 0x0013: return mc::Sitting;
    case 0x0014: return mc::Sleeping;
    case 0x0015: return mc::Falling;
    case 0x003B: return mc::Jump;
    case 0x003C: return mc::HandCombat;
    case 0x003D: return mc::NonCombat;
    case 0x0153: return mc::LifestoneRecall;
    default: return std::nullopt;
  }
}

// --- MotionState -------------------------------------------------------------------

// MotionState::add_modifier 0x00526340
bool MotionState::add_modifier(std::uint32_t modifier, float speed_mod) {
  for (const MotionListEntry& m : modifiers_) {
    if (m.motion == modifier) return false;
  }
  if (substate == modifier) return false;
  add_modifier_no_check(modifier, speed_mod);
  return true;
}

// MotionState::add_modifier_no_check 0x00525FF0
void MotionState::add_modifier_no_check(std::uint32_t modifier, float speed_mod) {
  modifiers_.insert(modifiers_.begin(), MotionListEntry{modifier, speed_mod});
}

// MotionState::remove_modifier 0x00526040
void MotionState::remove_modifier(std::size_t index) {
  if (index < modifiers_.size()) modifiers_.erase(modifiers_.begin() + static_cast<std::ptrdiff_t>(index));
}

// MotionState::add_action 0x005260A0
void MotionState::add_action(std::uint32_t action, float speed_mod) {
  actions_.push_back(MotionListEntry{action, speed_mod});
}

// MotionState::remove_action_head 0x00526120
std::uint32_t MotionState::remove_action_head() {
  if (actions_.empty()) return 0;
  const std::uint32_t motion = actions_.front().motion;
  actions_.erase(actions_.begin());
  return motion;
}

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

// --- InterpretedMotionState --------------------------------------------------------

// InterpretedMotionState::ApplyMotion 0x0051EA40
void InterpretedMotionState::apply_motion(std::uint32_t motion, const MovementParameters& params) {
  if (motion == mc::TurnRight) {
    turn_command = mc::TurnRight;
    turn_speed = params.speed;
  } else if (motion == mc::SideStepRight) {
    sidestep_command = mc::SideStepRight;
    sidestep_speed = params.speed;
  } else if ((motion & motion_mask::SubState) != 0) {
    forward_command = motion;
    forward_speed = params.speed;
  } else if ((motion & motion_mask::Style) == 0) {
    if ((motion & motion_mask::Action) != 0) {
      add_action(motion, params.speed, params.action_stamp, (params.bitfield & MovementParameters::kAutonomous) != 0);
    }
  } else {
    forward_command = mc::Ready;
    current_style = motion;
  }
}

// InterpretedMotionState::RemoveMotion 0x0051E790
void InterpretedMotionState::remove_motion(std::uint32_t motion) {
  if (motion == mc::TurnRight) {
    turn_command = 0;
  } else if (motion == mc::SideStepRight) {
    sidestep_command = 0;
  } else if ((motion & motion_mask::SubState) != 0) {
    if (motion == forward_command) {
      forward_command = mc::Ready;
      forward_speed = 1.0f;
    }
  } else if ((motion & motion_mask::Style) != 0 && motion == current_style) {
    current_style = mc::NonCombat;
  }
}

// InterpretedMotionState::copy_movement_from 0x0051E750
void InterpretedMotionState::copy_movement_from(const InterpretedMotionState& other) {
  current_style = other.current_style;
  forward_command = other.forward_command;
  forward_speed = other.forward_speed;
  sidestep_command = other.sidestep_command;
  sidestep_speed = other.sidestep_speed;
  turn_command = other.turn_command;
  turn_speed = other.turn_speed;
}

// InterpretedMotionState::AddAction 0x0051E9E0
void InterpretedMotionState::add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous) {
  actions.push_back(Action{action, speed, stamp, autonomous});
}

// InterpretedMotionState::RemoveAction 0x0051EAD0
std::uint32_t InterpretedMotionState::remove_action() {
  if (actions.empty()) return 0;
  const std::uint32_t motion = actions.front().motion;
  actions.erase(actions.begin());
  return motion;
}

InterpretedMotionState interpreted_state_from_wire(const protocol::InterpretedMotionState& wire) {
  InterpretedMotionState state;
  const auto widen = [](std::optional<std::uint16_t> command, std::uint32_t& slot) {
    if (!command) return;
    if (const auto full = motion_command_from_wire(*command)) {
      slot = *full;
    } else {
      core::logger(core::Module::Sim)->debug("motion command {:#06x} is not in the command table", *command);
    }
  };
  widen(wire.current_style, state.current_style);
  widen(wire.forward_command, state.forward_command);
  widen(wire.sidestep_command, state.sidestep_command);
  widen(wire.turn_command, state.turn_command);
  state.forward_speed = wire.forward_speed.value_or(1.0f);
  state.sidestep_speed = wire.sidestep_speed.value_or(1.0f);
  state.turn_speed = wire.turn_speed.value_or(1.0f);
  for (const protocol::MotionItem& item : wire.commands) {
    const auto full = motion_command_from_wire(item.command);
    if (!full) {
      core::logger(core::Module::Sim)->debug("motion command {:#06x} is not in the command table", item.command);
      continue;
    }
    state.add_action(*full, item.speed, item.packed_sequence & 0x7FFFu, (item.packed_sequence & 0x8000u) != 0);
  }
  return state;
}

// --- MotionInterp -----------------------------------------------------------------------

bool MotionInterp::is_creature_or_unknown() const {
  const auto& weenie = owner_->weenie();
  return !weenie || weenie->is_creature;
}

void MotionInterp::remove_link_animations_when_cell_less() {
  if (!owner_->in_cell()) owner_->remove_link_animations();
}

// CMotionInterp::enter_default_state 0x00528C80
void MotionInterp::enter_default_state() {
  interpreted_ = InterpretedMotionState{};
  owner_->initialize_motion_tables();
  pending_.push_back(PendingMotion{0, mc::Ready, 0});
  initted_ = true;
  leave_ground();
}

// CMotionInterp::contact_allows_move 0x00528240
bool MotionInterp::contact_allows_move(std::uint32_t motion) const {
  if (motion > mc::Falling) {
    if (motion >= mc::TurnRight && motion <= mc::TurnLeft) return true;
  } else if (motion == mc::Falling || motion == mc::Dead) {
    return true;
  }
  if (!is_creature_or_unknown()) return true;
  if ((owner_->state() & ps::Gravity) == 0) return true;
  const std::uint32_t t = owner_->transient_state();
  return (t & ts::Contact) != 0 && (t & ts::OnWalkable) != 0;
}

// CMotionInterp::adjust_motion 0x00528010
void MotionInterp::adjust_motion(std::uint32_t& motion, float& speed) const {
  if (!is_creature_or_unknown()) return;
  switch (motion) {
    case mc::TurnLeft:
      motion = mc::TurnRight;
      speed *= -1.0f;
      break;
    case mc::RunForward: return;
    case mc::WalkBackwards:
      motion = mc::WalkForward;
      speed *= -0.64999998f;
      break;
    case mc::SideStepRight: speed *= static_cast<float>(3.1199999 / 1.25 * 0.5); break;
    case mc::SideStepLeft:
      motion = mc::SideStepRight;
      speed *= -1.0f;
      speed *= static_cast<float>(3.1199999 / 1.25 * 0.5);
      break;
    default: break;
  }
  // A Run hold key would apply apply_run_to_command here: hold keys are not
  // ported (remote objects never carry one).
}

// CMotionInterp::add_to_queue 0x00527B80
void MotionInterp::add_to_queue(std::uint32_t context_id, std::uint32_t motion, std::uint32_t jump_error) {
  pending_.push_back(PendingMotion{context_id, motion, jump_error});
}

// CMotionInterp::DoMotion 0x00528D20
std::uint32_t MotionInterp::do_motion(std::uint32_t motion, const MovementParameters& params) {
  MovementParameters adjusted = params;
  std::uint32_t adjusted_motion = motion;
  adjust_motion(adjusted_motion, adjusted.speed);
  if (interpreted_.current_style != mc::NonCombat) {
    if (motion == mc::Crouch) return movement_error::CantCrouchInCombat;
    if (motion == mc::Sitting) return movement_error::CantSitInCombat;
    if (motion == mc::Sleeping) return movement_error::CantLieDownInCombat;
    if ((motion & motion_mask::ChatEmote) != 0) return movement_error::CantChatEmoteInCombat;
  }
  if ((motion & motion_mask::Action) != 0 && interpreted_.actions.size() >= 6) {
    return movement_error::TooManyActions;
  }
  return do_interpreted_motion(adjusted_motion, adjusted);
}

// CMotionInterp::DoInterpretedMotion 0x00528360
std::uint32_t MotionInterp::do_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  std::uint32_t result = movement_error::None;
  const bool modify = (params.bitfield & MovementParameters::kModifyInterpretedState) != 0;
  if (contact_allows_move(motion)) {
    const bool longjump_locked =
        standing_longjump && (motion == mc::WalkForward || motion == mc::RunForward || motion == mc::SideStepRight);
    if (!longjump_locked) {
      if (motion == mc::Dead) owner_->remove_link_animations();
      result = owner_->do_interpreted_motion(motion, params);
      if (result == movement_error::None) {
        // motion_allows_jump is not ported: only the link-jump lock is kept.
        const std::uint32_t jump_error = (params.bitfield & MovementParameters::kDisableJumpDuringLink) != 0 ? 72 : 0;
        add_to_queue(params.context_id, motion, jump_error);
        if (modify) interpreted_.apply_motion(motion, params);
      }
    } else if (modify) {
      interpreted_.apply_motion(motion, params);
    }
  } else if ((motion & motion_mask::Action) != 0) {
    result = movement_error::YouCantJumpFromThisPosition;
  } else if (modify) {
    // Airborne: remembered, applied on landing.
    interpreted_.apply_motion(motion, params);
  }
  remove_link_animations_when_cell_less();
  return result;
}

// CMotionInterp::StopInterpretedMotion 0x00528470
std::uint32_t MotionInterp::stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  std::uint32_t result = movement_error::None;
  const bool modify = (params.bitfield & MovementParameters::kModifyInterpretedState) != 0;
  const bool longjump_locked =
      standing_longjump && (motion == mc::WalkForward || motion == mc::RunForward || motion == mc::SideStepRight);
  if (!contact_allows_move(motion) || longjump_locked) {
    if (modify) interpreted_.remove_motion(motion);
  } else {
    result = owner_->stop_interpreted_motion(motion, params);
    if (result == movement_error::None) {
      add_to_queue(params.context_id, mc::Ready, 0);
      if (modify) interpreted_.remove_motion(motion);
    }
  }
  remove_link_animations_when_cell_less();
  return result;
}

// CMotionInterp::StopCompletely 0x00527E40
std::uint32_t MotionInterp::stop_completely() {
  interpreted_.forward_command = mc::Ready;
  interpreted_.forward_speed = 1.0f;
  interpreted_.sidestep_command = 0;
  interpreted_.turn_command = 0;
  owner_->stop_completely_internal();
  add_to_queue(0, mc::Ready, 0);
  remove_link_animations_when_cell_less();
  return movement_error::None;
}

// CMotionInterp::apply_interpreted_movement 0x00528600
void MotionInterp::apply_interpreted_movement(bool cancel_moveto, bool disallow_jump) {
  MovementParameters params;
  // Neither the hold key nor the interpreted state is modified: the state is
  // what is being applied.
  params.bitfield = (params.bitfield & 0xFFFD37FFu) | (((cancel_moveto ? 1u : 0u) | (disallow_jump ? 4u : 0u)) << 15);
  if (interpreted_.forward_command == mc::RunForward) my_run_rate = interpreted_.forward_speed;
  do_interpreted_motion(interpreted_.current_style, params);
  if (contact_allows_move(interpreted_.forward_command)) {
    if (standing_longjump) {
      params.speed = 1.0f;
      do_interpreted_motion(mc::Ready, params);
      stop_interpreted_motion(mc::SideStepRight, params);
    } else {
      params.speed = interpreted_.forward_speed;
      do_interpreted_motion(interpreted_.forward_command, params);
      if (interpreted_.sidestep_command != 0) {
        params.speed = interpreted_.sidestep_speed;
        do_interpreted_motion(interpreted_.sidestep_command, params);
      } else {
        stop_interpreted_motion(mc::SideStepRight, params);
      }
    }
  } else {
    params.speed = 1.0f;
    do_interpreted_motion(mc::Falling, params);
  }
  if (interpreted_.turn_command != 0) {
    params.speed = interpreted_.turn_speed;
    do_interpreted_motion(interpreted_.turn_command, params);
  } else {
    if (owner_->stop_interpreted_motion(mc::TurnRight, params) == movement_error::None) {
      add_to_queue(params.context_id, mc::Ready, 0);
      if ((params.bitfield & MovementParameters::kModifyInterpretedState) != 0) {
        interpreted_.remove_motion(mc::TurnRight);
      }
    }
    remove_link_animations_when_cell_less();
  }
}

// CMotionInterp::apply_current_movement 0x00528870: remote objects apply the
// interpreted state (raw input is not ported).
void MotionInterp::apply_current_movement(bool cancel_moveto, bool disallow_jump) {
  if (!initted_) return;
  apply_interpreted_movement(cancel_moveto, disallow_jump);
}

// CMotionInterp::move_to_interpreted_state 0x005289C0
bool MotionInterp::move_to_interpreted_state(const InterpretedMotionState& state) {
  interpreted_.copy_movement_from(state);
  apply_current_movement(true, false);
  MovementParameters params;
  const bool remote = owner_->weenie().has_value() && owner_ != owner_->context().player;
  for (const InterpretedMotionState::Action& action : state.actions) {
    // 15-bit action stamps, newer within half the range.
    const std::uint32_t incoming = action.stamp & 0x7FFFu;
    const std::uint32_t stored = server_action_stamp & 0x7FFFu;
    const std::uint32_t distance = incoming <= stored ? stored - incoming : incoming - stored;
    const bool newer = distance <= 0x3FFFu ? stored < incoming : incoming < stored;
    if (!newer) continue;
    // The local player's own (autonomous) actions already played.
    if (!remote && action.autonomous) continue;
    server_action_stamp = action.stamp;
    params.speed = action.speed;
    params.bitfield = (params.bitfield & ~MovementParameters::kAutonomous) |
                      (action.autonomous ? MovementParameters::kAutonomous : 0u);
    do_interpreted_motion(action.motion, params);
  }
  return true;
}

// CMotionInterp::MotionDone 0x00527EC0
void MotionInterp::motion_done(bool /*success*/) {
  if (pending_.empty()) return;
  if ((pending_.front().motion & motion_mask::Action) != 0) {
    // unstick_from_object: sticky movement is not ported.
    interpreted_.remove_action();
  }
  pending_.erase(pending_.begin());
}

// CMotionInterp::HandleExitWorld 0x00527F30
void MotionInterp::handle_exit_world() {
  while (!pending_.empty()) motion_done(false);
}

// CMotionInterp::HitGround 0x00528AC0
void MotionInterp::hit_ground() {
  if (!is_creature_or_unknown() || (owner_->state() & ps::Gravity) == 0) return;
  owner_->remove_link_animations();
  apply_current_movement(false, false);
}

// CMotionInterp::get_state_velocity 0x00527D50
glm::vec3 MotionInterp::get_state_velocity() const {
  glm::vec3 v{0.0f};
  if (interpreted_.sidestep_command == mc::SideStepRight) v.x = 1.25f * interpreted_.sidestep_speed;
  if (interpreted_.forward_command == mc::WalkForward) {
    v.y = 3.1199999f * interpreted_.forward_speed;
  } else if (interpreted_.forward_command == mc::RunForward) {
    v.y = 4.0f * interpreted_.forward_speed;
  }
  // No weenie answers InqRunRate here: an object with a weenie uses the run
  // rate the last RunForward carried, one without uses 1.
  const float rate = owner_->weenie().has_value() ? my_run_rate : 1.0f;
  const float cap = rate * 4.0f;
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (length > cap) v *= cap / length;
  return v;
}

// CMotionInterp::get_leave_ground_velocity 0x005280C0 (no jumps are ported:
// the jump extent is 0, so z is 0).
glm::vec3 MotionInterp::get_leave_ground_velocity() const {
  glm::vec3 v = get_state_velocity();
  const auto tiny = [](float f) { return std::fabs(static_cast<double>(f)) < kEpsilon; };
  if (tiny(v.x) && tiny(v.y) && tiny(v.z)) v = owner_->position().frame.globaltolocalvec(owner_->velocity());
  return v;
}

// CMotionInterp::LeaveGround 0x00528B00
void MotionInterp::leave_ground() {
  if (!is_creature_or_unknown() || (owner_->state() & ps::Gravity) == 0) return;
  // CPhysicsObj::set_local_velocity: the state's velocity in world axes.
  owner_->set_velocity(owner_->position().frame.localtoglobalvec(get_leave_ground_velocity()), true);
  standing_longjump = false;
  owner_->remove_link_animations();
  apply_current_movement(false, false);
}

// --- DatMovementManager ---------------------------------------------------------------

// MovementManager::get_minterp 0x005242A0
MotionInterp& DatMovementManager::get_minterp() {
  if (!minterp_) {
    minterp_ = std::make_unique<MotionInterp>(*owner_);
    minterp_->enter_default_state();
  }
  return *minterp_;
}

// MovementManager::EnterDefaultState 0x005241C0: a new interpreter enters its
// default state twice, as retail's does.
void DatMovementManager::enter_default_state() {
  get_minterp().enter_default_state();
}

// MovementManager::MotionDone 0x005242D0
void DatMovementManager::motion_done(std::uint32_t /*motion*/, bool success) {
  if (minterp_) minterp_->motion_done(success);
}

// MovementManager::HandleExitWorld 0x00524350
void DatMovementManager::handle_exit_world() {
  if (minterp_) minterp_->handle_exit_world();
}

// MovementManager::HitGround 0x00524300
void DatMovementManager::hit_ground() {
  if (minterp_) minterp_->hit_ground();
}

// MovementManager::LeaveGround 0x00524320
void DatMovementManager::leave_ground() {
  if (minterp_) minterp_->leave_ground();
}

// MovementManager::PerformMovement 0x005240D0
std::uint32_t DatMovementManager::perform_movement(MovementKind kind, std::uint32_t motion,
                                                   const MovementParameters& params) {
  owner_->set_active(true);
  MotionInterp& minterp = get_minterp();
  std::uint32_t result = movement_error::GeneralMovementFailure;
  switch (kind) {
    case MovementKind::InterpretedCommand: result = minterp.do_interpreted_motion(motion, params); break;
    case MovementKind::StopInterpretedCommand: result = minterp.stop_interpreted_motion(motion, params); break;
    case MovementKind::StopCompletely: result = minterp.stop_completely(); break;
    case MovementKind::RawCommand: result = minterp.do_motion(motion, params); break;
    default: return movement_error::GeneralMovementFailure;
  }
  owner_->check_for_completed_motions();
  return result;
}

// MovementManager::unpack_movement 0x00524440
void DatMovementManager::unpack_movement(const protocol::MovementData& data, bool /*autonomous*/) {
  // Retail unpacks nothing for an object whose interpreter was never made
  // (no motion table).
  if (!minterp_) return;
  if (const auto style = motion_command_from_wire(data.current_style); style && minterp_->inq_style() != *style) {
    minterp_->do_motion(*style, MovementParameters{});
  }
  if (const auto* interpreted = std::get_if<protocol::InterpretedMovement>(&data.payload)) {
    minterp_->move_to_interpreted_state(interpreted_state_from_wire(interpreted->state));
    minterp_->standing_longjump = (data.motion_flags & protocol::kMotionFlagStandingLongJump) != 0;
    return;
  }
  core::logger(core::Module::Sim)
      ->debug("object {:#010x}: movement type {} is not ported", owner_->id(), static_cast<int>(data.type()));
}

}  // namespace dereth::sim
