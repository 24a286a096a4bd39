#include "dereth/sim/object/physics_obj.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/log.hpp"
#include "dereth/core/timestamp.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/qualities.hpp"

namespace dereth::sim {

namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

// The share of the animation's root motion that moves the object: all of it
// (times its scale) while it stands on walkable ground, none otherwise.
float root_scale(std::uint32_t transient_state, float scale) noexcept {
  return (transient_state & ts::OnWalkable) != 0 ? scale : 0.0f;
}

// AC1Legacy::Vector3::operator== (and Vector3::operator!=): per-component
// within EPSILON.
bool nearly_equal(const glm::vec3& a, const glm::vec3& b) noexcept {
  return std::fabs(a.x - b.x) <= kPhysicsEpsilon && std::fabs(a.y - b.y) <= kPhysicsEpsilon &&
         std::fabs(a.z - b.z) <= kPhysicsEpsilon;
}

glm::vec3 to_glm(const std::optional<protocol::Vec3>& v) noexcept {
  return v ? glm::vec3(v->x, v->y, v->z) : glm::vec3(0.0f);
}

// Position::get_offset 0x00509F60 for the tick's player offset: within one
// landblock LandDefs::get_block_offset 0x0043E630 is (0, 0, 0) (its first
// test), so the same sums run here without the two calls.
glm::vec3 tick_offset(const Position& from, const Position& to) noexcept {
  if ((from.objcell_id >> 16) != (to.objcell_id >> 16)) return get_offset(from, to);
  return glm::vec3(0.0f, 0.0f, 0.0f) + to.frame.origin - from.frame.origin;
}

FloatSeconds to_float(core::Seconds s) noexcept {
  return FloatSeconds{static_cast<float>(s.count())};
}

}  // namespace

// CPhysicsObj::CPhysicsObj 0x005123F0
PhysicsObj::PhysicsObj(SimContext& context, std::uint32_t guid, LocalId local_id)
    : context_(&context), id_(guid), local_id_(local_id) {}

PhysicsObj::~PhysicsObj() {
  // CPhysicsObj::Destroy: a static animating object leaves CPhysics's list.
  auto& list = context_->static_animating_objects;
  list.erase(std::remove(list.begin(), list.end(), this), list.end());
  // Its shadows leave every cell (CPhysicsObj::leave_world on delete), and
  // it leaves its lost cell.
  if (context_->obj_maint != nullptr) context_->obj_maint->remove_from_lost_cell(*this);
  for (ShadowObj& shadow : shadow_objects_) {
    if (shadow.cell != nullptr) shadow.cell->remove_shadow_object(shadow);
  }
}

void PhysicsObj::add_hook_at_head(std::unique_ptr<PhysicsObjHook> hook) {
  if (hook) hooks_.insert(hooks_.begin(), std::move(hook));
}

void PhysicsObj::add_anim_hook(std::unique_ptr<AnimHook> hook) {
  if (hook) anim_hooks_.push_back(std::move(hook));
}

// CPhysicsObj::SetTranslucency
void PhysicsObj::set_translucency(float translucency) {
  translucency_ = translucency;
  if (part_array_) part_array_->set_translucency(translucency);
}

// CPhysicsObj::SetScaleStatic 0x00511BB0: the scale at once (the ramped
// CPhysicsObj::SetScale 0x005136A0 is the effects' set_scale).
void PhysicsObj::set_scale_static(float scale) {
  scale_ = scale;
  sphere_reach_ = kReachUnknown;
  if (part_array_) part_array_->set_scale(glm::vec3(scale));
}

// CAnimHook::Execute: every DAT hook runs through the world's effects.
void DatAnimHook::execute(PhysicsObj& owner) {
  owner.context().effects().execute_hook(owner, hook_);
}

// --- description -------------------------------------------------------------

// CPhysicsObj::InitDefaults 0x005139D0
void PhysicsObj::init_defaults(const SetupDefaults& setup) {
  if (setup.default_script_id != 0) {
    play_script_internal(setup.default_script_id);
  }
  if (setup.default_motion_table_id != 0) {
    // CPhysicsObj::SetMotionTableID 0x00512780
    if (part_array_ && part_array_->set_motion_table_id(setup.default_motion_table_id)) {
      movement_manager_.reset();
      make_movement_manager(true);
    }
    motion_table_id_ = setup.default_motion_table_id;
  }
  if (setup.default_sound_table_id != 0) {
    sound_table_id_ = setup.default_sound_table_id;
  }
  if (setup.default_script_table_id != 0) {
    physics_script_table_id_ = setup.default_script_table_id;
  }
  if ((state_ & ps::Static) != 0) {
    if (setup.default_anim_id != 0) state_ |= ps::HasDefaultAnim;
    if (setup.default_script_id != 0) state_ |= ps::HasDefaultScript;
    if ((state_ & (ps::HasDefaultAnim | ps::HasDefaultScript)) != 0) {
      // CPhysics::AddStaticAnimatingObject
      auto& list = context_->static_animating_objects;
      if (std::find(list.begin(), list.end(), this) == list.end()) list.push_back(this);
    }
  }
}

// CPhysicsObj::set_description 0x00514F40
bool PhysicsObj::set_description(const protocol::PhysicsDesc& desc, bool set_movement) {
  // CPhysicsObj::SetMotionTableID 0x00512780. Retail fails the whole
  // description when there is no part array; dereth describes objects whose
  // Setup it cannot load (docs/deviations.md N1).
  const std::uint32_t mtable = desc.motion_table_id.value_or(0);
  if (part_array_) {
    if (!part_array_->set_motion_table_id(mtable)) return false;
    movement_manager_.reset();
    if (mtable != 0) make_movement_manager(true);
  }
  motion_table_id_ = mtable;

  // Sound table and PhysicsScriptTable: released unconditionally, then the
  // network value (absent = none) installed. The Setup's table is not a
  // fallback (seed section 2).
  sound_table_id_ = desc.sound_table_id.value_or(0);
  physics_script_table_id_ = desc.physics_script_table_id.value_or(0);

  if (desc.movement && !desc.movement->bytes.empty()) {
    last_move_was_autonomous_ = desc.movement->autonomous.value_or(0) != 0;
    if (set_movement) {
      auto data = protocol::decode_movement_buffer(desc.movement->bytes);
      if (data) {
        unpack_movement(*data, last_move_was_autonomous_);
      } else {
        core::logger(core::Module::Sim)
            ->warn("object {:#010x}: movement buffer not decoded: {}", id_, data.error().message());
      }
    }
  } else if (part_array_) {
    // CPhysicsObj::SetPlacementFrameInternal
    part_array_->set_placement_frame(desc.animation_frame.value_or(0));
  }

  set_state(desc.state, true);

  scale_ = desc.object_scale.value_or(1.0f);
  sphere_reach_ = kReachUnknown;
  if (part_array_) part_array_->set_scale(glm::vec3(scale_));
  const float friction = desc.friction.value_or(kDefaultFriction);
  if (friction >= 0.0f && friction <= 1.0f) friction_ = friction;
  set_elasticity(desc.elasticity.value_or(kDefaultElasticity));
  const float translucency = desc.translucency.value_or(kDefaultTranslucency);
  translucency_original_ = translucency;
  if (translucency != 0.0f) {
    translucency_ = translucency;
    if (part_array_) part_array_->set_translucency(translucency);
  }
  set_velocity(to_glm(desc.velocity), true);
  // The network acceleration is unpacked but never installed (seed section 2).
  omega_ = to_glm(desc.omega);
  default_script_ = desc.default_script_type.value_or(0);
  default_script_intensity_ = desc.default_script_intensity.value_or(0.0f);
  update_times_ = desc.timestamps;
  return true;
}

// --- state -------------------------------------------------------------------

// CPhysicsObj::set_state 0x00514DD0
bool PhysicsObj::set_state(std::uint32_t new_state, bool /*send_event*/) {
  const std::uint32_t changed = new_state ^ state_;
  state_ = new_state;
  if ((changed & ps::Lighting) != 0) {
    if ((new_state & ps::Lighting) != 0) {
      state_ |= ps::Lighting;
      if (part_array_) part_array_->init_lights();
    } else {
      state_ &= ~ps::Lighting;
      if (part_array_) part_array_->destroy_lights();
    }
  }
  if ((changed & ps::NoDraw) != 0) {
    set_nodraw((state_ & ps::NoDraw) != 0, false);
  }
  if ((changed & ps::Hidden) != 0) {
    set_hidden((state_ & ps::Hidden) != 0, false);
  }
  return true;
}

// CPhysicsObj::set_hidden 0x00514C60
void PhysicsObj::set_hidden(bool hidden, bool /*send_event*/) {
  if (hidden) {
    state_ |= ps::Hidden;
    if (physics_script_table_id_ != 0) {
      play_script_internal(
          context_->effects().resolve_script_for(*this, physics_script_table_id_, script_type::Hidden, 1.0f));
    }
    for (auto& child : children_) {
      child.object->state_ |= ps::NoDraw;
      if (child.object->part_array_) child.object->part_array_->set_no_draw(true);
    }
    if ((state_ & ps::ReportCollisions) != 0) {
      report_collision_end(true);  // acclient.c 322121-322125
      state_ &= ~ps::ReportCollisions;
    }
    state_ |= ps::IgnoreCollisions;
    if (part_array_) {
      part_array_->handle_enter_world();
      republish_pose();
    }
  } else {
    state_ &= ~ps::Hidden;
    if (physics_script_table_id_ != 0) {
      play_script_internal(
          context_->effects().resolve_script_for(*this, physics_script_table_id_, script_type::UnHide, 1.0f));
    }
    // Unconditionally, as retail does: a child that was NoDraw on its own
    // becomes drawable too.
    for (auto& child : children_) {
      child.object->state_ &= ~ps::NoDraw;
      if (child.object->part_array_) child.object->part_array_->set_no_draw(false);
    }
    state_ &= ~ps::IgnoreCollisions;
    if ((state_ & ps::ReportCollisions) == 0) {
      state_ |= ps::ReportCollisions;  // report_collision_start
    }
    if (part_array_) {
      part_array_->handle_enter_world();
      republish_pose();
    }
  }
}

// Seed portal-completion section 1: HandleEnterWorld may have moved the
// sequence cursor (links removed). Hidden stops animation time, not pose
// composition: sample the current sequence without advancing it and repose
// every part and child now, as retail's next set_frame would.
void PhysicsObj::republish_pose() {
  set_frame(position_.frame);
}

// CPhysicsObj::set_nodraw 0x0050FCA0
bool PhysicsObj::set_nodraw(bool nodraw, bool /*send_event*/) {
  if (nodraw) {
    state_ |= ps::NoDraw;
  } else {
    state_ &= ~ps::NoDraw;
  }
  if (part_array_) part_array_->set_no_draw(nodraw);
  return true;
}

// CPhysicsObj::set_lights 0x0050FCF0
void PhysicsObj::set_lights(bool lights_on, bool /*send_event*/) {
  if (lights_on) {
    state_ |= ps::Lighting;
    if (part_array_) part_array_->init_lights();
  } else {
    state_ &= ~ps::Lighting;
    if (part_array_) part_array_->destroy_lights();
  }
}

// CPhysicsObj::set_elasticity 0x0050FD40
bool PhysicsObj::set_elasticity(float elasticity) {
  if (elasticity >= 0.0f) {
    elasticity_ = elasticity <= kMaxElasticity ? elasticity : kMaxElasticity;
  } else {
    elasticity_ = 0.0f;
  }
  return true;
}

// CPhysicsObj::set_velocity 0x005113F0
void PhysicsObj::set_velocity(const glm::vec3& velocity, bool /*send_event*/) {
  if (!nearly_equal(velocity, velocity_)) {
    velocity_ = velocity;
    if (glm::dot(velocity_, velocity_) > kMaxVelocity * kMaxVelocity) {
      velocity_ = glm::normalize(velocity_) * kMaxVelocity;
    }
    jumped_this_frame_ = true;
  }
  if ((state_ & ps::Static) == 0) {
    if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
    transient_state_ |= ts::Active;
  }
}

// CPhysicsObj::set_omega 0x0050F6D0
void PhysicsObj::set_omega(const glm::vec3& omega, bool /*send_event*/) {
  omega_ = omega;
}

// CPhysicsObj::set_active 0x0050FC40
bool PhysicsObj::set_active(bool active) {
  if (!active) {
    transient_state_ &= ~ts::Active;
    return true;
  }
  if ((state_ & ps::Static) != 0) return false;
  if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
  transient_state_ |= ts::Active;
  return true;
}

// CPhysicsObj::set_on_walkable 0x00511310
void PhysicsObj::set_on_walkable(bool on_walkable) {
  const bool was = (transient_state_ & ts::OnWalkable) != 0;
  if (on_walkable) {
    transient_state_ |= ts::OnWalkable;
  } else {
    transient_state_ &= ~ts::OnWalkable;
  }
  if (was && !on_walkable && movement_manager_) {
    movement_manager_->leave_ground();
  } else if (!was && on_walkable && movement_manager_) {
    movement_manager_->hit_ground();
  }
  calc_acceleration();
}

// CPhysicsObj::clear_transient_states 0x00511BF0
void PhysicsObj::clear_transient_states() {
  transient_state_ &= ~ts::Contact;
  calc_acceleration();
  const bool was_on_walkable = (transient_state_ & ts::OnWalkable) != 0;
  transient_state_ &= ~(ts::OnWalkable | ts::WaterContact);
  if (was_on_walkable && movement_manager_) movement_manager_->leave_ground();
  calc_acceleration();
  transient_state_ &= 0xFFFFFE0Bu;
}

// CPhysicsObj::newer_event 0x00451B10
bool PhysicsObj::newer_event(TimestampIndex channel, std::uint16_t stamp) noexcept {
  const auto i = static_cast<std::size_t>(channel);
  if (!core::is_newer(stamp, update_times_[i])) return false;
  update_times_[i] = stamp;
  return true;
}

// --- the update loop -----------------------------------------------------------

// CPhysicsObj::update_object 0x00515D10
void PhysicsObj::update_object() {
  if (parent_ != nullptr || !in_cell_ || (state_ & ps::Frozen) != 0) {
    transient_state_ &= ~ts::Active;
    return;
  }
  if (const PhysicsObj* player = context_->player; player != nullptr) {
    player_vector_ = tick_offset(player->position_, position_);
    player_distance_ = std::sqrt(glm::dot(player_vector_, player_vector_));
    if (player_distance_ > kActivityRadius && context_->object_maint_active) {
      transient_state_ &= ~ts::Active;
    } else if ((transient_state_ & ts::Active) == 0) {
      // set_active(true) changes nothing on an object already active.
      set_active(true);
    }
  }
  const core::Seconds now = context_->now();
  // The times as bare doubles, each comparison as std::chrono writes it
  // (a <= b is !(b < a), so a NaN step resynchronises): one branch each.
  double elapsed = (now - update_time_).count();
  double physics_time = update_time_.count();
  context_->physics_time = update_time_;
  // A step at or below EPSILON, or a gap over 2 s, only resynchronises.
  if (!(kTinyQuantum.count() < elapsed) || kHugeQuantum.count() < elapsed) {
    update_time_ = now;
    return;
  }
  // Up to MAX_QUANTUM the whole elapsed time runs, even at or below
  // MIN_QUANTUM (acclient.c 323080; the seed holds it: docs/deviations.md).
  // Only a remainder the catch-up loop leaves at or below MIN_QUANTUM stays
  // accumulated for the next tick.
  bool run_remainder = !(kMaxQuantum.count() < elapsed);
  while (kMaxQuantum.count() < elapsed) {
    physics_time += kMaxQuantum.count();
    context_->physics_time = core::Seconds{physics_time};
    update_object_internal(to_float(kMaxQuantum));
    elapsed -= kMaxQuantum.count();
    run_remainder = kMinQuantum.count() < elapsed;
  }
  if (run_remainder) {
    physics_time += elapsed;
    context_->physics_time = core::Seconds{physics_time};
    update_object_internal(to_float(core::Seconds{elapsed}));
  }
  update_time_ = context_->physics_time;
}

// CPhysicsObj::UpdateObjectInternal 0x005156B0
void PhysicsObj::update_object_internal(FloatSeconds quantum) {
  if ((transient_state_ & ts::Active) != 0) {
    // An active object with no cell returns before particles and scripts.
    if (!in_cell_) return;
    // CPhysicsObj::set_ethereal(0, 0) (acclient.c 322762): stays ethereal while it overlaps.
    if ((transient_state_ & ts::CheckEthereal) != 0) set_ethereal(false, false);
    jumped_this_frame_ = false;
    if (!part_array_ && !position_manager_ && (state_ & ps::Hidden) == 0 && hooks_.empty() && anim_hooks_.empty()) {
      // No parts, no position manager, no hooks: the candidate frame is the
      // whole frame committed below (the branch without spheres), so it is
      // built in place: position_step's combine and turn and motion_step on
      // the object's own frame, the same bits without the copies.
      core::Frame offset;
      offset.origin *= root_scale(transient_state_, scale_);
      position_.frame.combine_turn(offset, omega_ * quantum.count(), turns_);
      motion_step(quantum, position_.frame.origin);
      if (!movement_manager_ && (transient_state_ & ts::OnWalkable) != 0) {
        transient_state_ &= ~ts::Active;
      }
      cached_velocity_ = glm::vec3(0.0f);
    } else {
      step_and_commit(quantum);
    }
    // The DetectionManager is not ported.
    if (target_manager_) target_manager_->handle_targetting();
    if (movement_manager_) movement_manager_->use_time();
    if (part_array_) part_array_->handle_movement();
    if (position_manager_) position_manager_->use_time();
  }
  // Particles, then scripts (decisions item 2).
  context_->effects().update_particles(*this);
  context_->effects().update_scripts(*this);
}

// CPhysicsObj::UpdateObjectInternal 0x005156B0: the candidate frame
// (UpdatePositionInternal) and its commit, for an object with parts, a
// position manager, hooks or Hidden.
void PhysicsObj::step_and_commit(FloatSeconds quantum) {
  if (core::Frame new_frame = position_step(quantum); part_array_ && part_array_->num_spheres() != 0) {
    if (nearly_equal(new_frame.origin, position_.frame.origin)) {
      // Retail compares origins only: a pure rotation skips the sweep.
      new_frame.origin = position_.frame.origin;
      set_frame(new_frame);
      cached_velocity_ = glm::vec3(0.0f);
    } else {
      if ((state_ & ps::AlignPath) != 0) {
        // The full normalised 3D movement vector (seed section 9), not yaw only.
        glm::vec3 diff = new_frame.origin - position_.frame.origin;
        const float length = std::sqrt(glm::dot(diff, diff));
        if (length > 0.0f) diff /= length;
        new_frame.set_vector_heading(diff);
      } else if ((state_ & ps::Sledding) != 0 && !nearly_equal(velocity_, glm::vec3(0.0f))) {
        new_frame.set_heading(core::compass_heading(velocity_));
      }
      Position new_pos{position_.objcell_id, new_frame};
      if (context_->cells != nullptr && cell_ != nullptr) {
        // The sweep through the world's cells; a failed one keeps the
        // origin and takes the rotation.
        if (std::unique_ptr<Transition> t = transition(&position_, new_pos, false)) {
          const float q = quantum.count();
          cached_velocity_ = q > 0.0f ? get_offset(position_, t->sphere_path.curr_pos) / q : glm::vec3(0.0f);
          set_position_internal(*t);
        } else {
          new_frame.origin = position_.frame.origin;
          set_frame(new_frame);
          cached_velocity_ = glm::vec3(0.0f);
        }
      } else {
        // Without cells the candidate is committed as an unobstructed
        // transition (docs/deviations.md N3).
        const glm::vec3 moved = get_offset(position_, new_pos);
        const float q = quantum.count();
        cached_velocity_ = q > 0.0f ? moved / q : glm::vec3(0.0f);
        std::uint32_t cell = new_pos.objcell_id;
        if ((cell & 0xFFFFu) < 0x100u && cell != 0) {
          adjust_to_outside(cell, new_pos.frame.origin);
          if (cell != 0) set_cell_id_with_children(cell);
        }
        set_frame(new_pos.frame);
      }
    }
  } else {
    if (!movement_manager_ && (transient_state_ & ts::OnWalkable) != 0) {
      transient_state_ &= ~ts::Active;
    }
    // No physics spheres, no sweep: the object keeps its origin and takes
    // only the candidate's rotation (acclient.c 322718; seeds 9 and 10
    // commit the whole frame: docs/deviations.md). An object with no part
    // array at all (no DAT data, docs/deviations.md N1) commits the whole frame, so
    // headless runs without DATs still dead-reckon.
    if (part_array_) new_frame.origin = position_.frame.origin;
    set_frame(new_frame);
    cached_velocity_ = glm::vec3(0.0f);
  }
}

// CPhysicsObj::UpdatePositionInternal 0x00512C30
void PhysicsObj::update_position_internal(FloatSeconds quantum, core::Frame& new_frame) {
  new_frame = position_step(quantum);
}

// CPhysicsObj::UpdatePhysicsInternal 0x00510700
void PhysicsObj::update_physics_internal(FloatSeconds quantum, core::Frame& frame) {
  physics_step(quantum, frame);
}

// CPhysicsObj::UpdatePositionInternal 0x00512C30's body (inline: see the header)
inline core::Frame PhysicsObj::position_step(FloatSeconds quantum) {
  const bool hidden = (state_ & ps::Hidden) != 0;
  core::Frame offset;
  if (!hidden) {
    if (part_array_) part_array_->update(quantum, offset);
    offset.origin *= root_scale(transient_state_, scale_);
  }
  // The PositionManager offset applies even when Hidden.
  if (position_manager_) position_manager_->adjust_offset(offset, quantum);
  core::Frame new_frame;
  if (hidden) {
    new_frame = core::Frame::combine(position_.frame, offset);
  } else {
    // UpdatePhysicsInternal's grotate by omega * quantum joins combine, so
    // the matrix is formed once (motion_step changes only the velocity and
    // the origin, never omega or the orientation, so the order is free).
    new_frame = core::Frame::combine_turned(position_.frame, offset, omega_ * quantum.count(), turns_);
    motion_step(quantum, new_frame.origin);
  }
  // Timed hooks run even when Hidden.
  process_hooks();
  return new_frame;
}

// CPhysicsObj::UpdatePhysicsInternal 0x00510700's body (inline: see the header)
inline void PhysicsObj::physics_step(FloatSeconds quantum, core::Frame& frame) {
  motion_step(quantum, frame.origin);
  frame.grotate(omega_ * quantum.count());
}

// UpdatePhysicsInternal 0x00510700 up to its grotate: the velocity and the
// origin.
inline void PhysicsObj::motion_step(FloatSeconds quantum, glm::vec3& origin) {
  const float q = quantum.count();
  float velocity_mag2 = glm::dot(velocity_, velocity_);
  if (velocity_mag2 <= 0.0f) {
    if (!movement_manager_ && (transient_state_ & ts::OnWalkable) != 0) {
      transient_state_ &= ~ts::Active;
    }
  } else {
    if (velocity_mag2 > kMaxVelocity * kMaxVelocity) {
      velocity_ = glm::normalize(velocity_) * kMaxVelocity;
      velocity_mag2 = kMaxVelocity * kMaxVelocity;
    }
    // Friction sees the (clamped) speed from before friction, and so does the
    // near-stop test (seed section 9, spec/physics.md correction 4).
    // calc_friction returns at once off walkable ground; asked here first.
    if ((transient_state_ & ts::OnWalkable) != 0) calc_friction(quantum, velocity_mag2);
    if (velocity_mag2 - kSmallVelocity * kSmallVelocity < kPhysicsEpsilon) {
      velocity_ = glm::vec3(0.0f);
    }
    origin += velocity_ * q + acceleration_ * 0.5f * q * q;
  }
  velocity_ += acceleration_ * q;
}

// CPhysicsObj::calc_acceleration 0x00510950
void PhysicsObj::calc_acceleration() {
  if ((transient_state_ & ts::Contact) != 0 && (transient_state_ & ts::OnWalkable) != 0 &&
      (state_ & ps::Sledding) == 0) {
    acceleration_ = glm::vec3(0.0f);
    omega_ = glm::vec3(0.0f);
  } else if ((state_ & ps::Gravity) != 0) {
    acceleration_ = glm::vec3(0.0f, 0.0f, kGravity);
  } else {
    acceleration_ = glm::vec3(0.0f);  // omega is kept
  }
}

// CPhysicsObj::calc_friction 0x0050EE70 (runs only on walkable ground)
void PhysicsObj::calc_friction(FloatSeconds quantum, float velocity_mag2) {
  if ((transient_state_ & ts::OnWalkable) == 0) return;
  const glm::vec3& n = contact_plane_.normal;
  const float into_plane = glm::dot(velocity_, n);
  if (into_plane >= 0.25f) return;
  velocity_ -= n * into_plane;
  float coefficient = friction_;
  if ((state_ & ps::Sledding) != 0) {
    if (velocity_mag2 < 1.5625f) {
      coefficient = 1.0f;
    } else if (velocity_mag2 < 6.25f || static_cast<double>(n.z) >= std::cos(0.1745329251994329)) {
      coefficient = friction_;
    } else {
      coefficient = 0.2f;
    }
  }
  const auto factor =
      static_cast<float>(std::pow(1.0 - static_cast<double>(coefficient), static_cast<double>(quantum.count())));
  velocity_ *= factor;
}

// CPhysicsObj::process_hooks 0x00511550 (the header returns at once when
// there are no hooks)
void PhysicsObj::run_hooks() {
  // Timed hooks, head to next; a hook that reports done is removed. A hook
  // inserted at the head while this runs waits for the next pass.
  std::vector<PhysicsObjHook*> pass;
  pass.reserve(hooks_.size());
  for (auto& hook : hooks_) pass.push_back(hook.get());
  for (PhysicsObjHook* hook : pass) {
    if (hook->execute(*this)) {
      auto it = std::find_if(hooks_.begin(), hooks_.end(), [hook](const auto& h) { return h.get() == hook; });
      if (it != hooks_.end()) hooks_.erase(it);
    }
  }
  // Animation hooks: each executes once (including any added while they
  // run), then the list is cleared.
  for (std::size_t i = 0; i < anim_hooks_.size(); ++i) {
    anim_hooks_[i]->execute(*this);
  }
  anim_hooks_.clear();
}

// CPhysicsObj::get_object_info 0x00511CC0
std::uint32_t PhysicsObj::get_object_info(bool admin_move, Transition* t) const {
  std::uint32_t info = 0;
  if ((state_ & ps::EdgeSlide) != 0) info = object_info_state::EdgeSlide;
  if (!admin_move) {
    if ((transient_state_ & ts::Contact) != 0) {
      // CPhysicsObj::check_contact 0x0050F5B0: moving away from the contact
      // plane faster than EPSILON is no contact.
      const bool contact = glm::dot(velocity_, contact_plane_.normal) <= kPhysicsEpsilon;
      const bool water = (transient_state_ & ts::WaterContact) != 0;
      if (contact) {
        if (t != nullptr) t->init_contact_plane(contact_plane_cell_id_, contact_plane_, water);
        info |= object_info_state::Contact;
        if ((transient_state_ & ts::OnWalkable) != 0) info |= object_info_state::OnWalkable;
      } else if (t != nullptr) {
        t->init_last_known_contact_plane(contact_plane_cell_id_, contact_plane_, water);
      }
    }
    if ((transient_state_ & ts::Sliding) != 0 && t != nullptr) t->init_sliding_normal(sliding_normal_);
  }
  if (part_array_ && part_array_->allows_free_heading()) info |= object_info_state::FreeRotate;
  // Missiles get PathClipped, never PerfectClip (seed section 9).
  if ((state_ & ps::Missile) != 0) info |= object_info_state::PathClipped;
  return info;
}

// --- position and world membership -------------------------------------------

// CPhysicsObj::set_frame 0x00514090 past the store (the header's): the
// parts, then the children (UpdateChildrenInternal needs the part array too).
void PhysicsObj::set_frame_parts() {
  if ((state_ & ps::ParticleEmitter) == 0) part_array_->set_frame(position_.frame);
  update_children_internal();
}

// CPhysicsObj::set_heading 0x00514160
void PhysicsObj::set_heading(float degrees, bool /*send_event*/) {
  core::Frame frame = position_.frame;
  frame.set_heading(degrees);
  set_frame(frame);
}

// CPhysicsObj::get_heading 0x00511540
float PhysicsObj::get_heading() const {
  return position_.frame.get_heading();
}

// CPhysicsObj::store_position 0x005141A0
void PhysicsObj::store_position(const Position& p) {
  Position stored = p;
  if ((stored.objcell_id & 0xFFFFu) < 0x100u) {
    adjust_to_outside(stored.objcell_id, stored.frame.origin);
  }
  position_.objcell_id = stored.objcell_id;
  set_frame(stored.frame);
}

// CPhysicsObj::SetPosition without CTransition: the object enters a cell when
// the position names a valid one (docs/sim.md, "Not yet ported").
bool PhysicsObj::set_position_internal(const Position& p) {
  store_position(p);
  if (!is_valid_cell(position_.objcell_id)) {
    // CPhysicsObj::SetPositionInternal's lost-cell branch.
    remove_shadows_from_cells();
    cell_ = nullptr;
    in_cell_ = false;
    transient_state_ &= ~ts::Active;
    return true;
  }
  in_cell_ = true;
  set_cell_id_with_children(position_.objcell_id);
  if (context_->cells != nullptr) {
    // Committed without a transition (N3), the object still lives in the
    // cells it overlaps, so later transitions start in the right cell and
    // others collide with it.
    remove_shadows_from_cells();
    cell_ = context_->cells->get_cell(position_.objcell_id);
    if (cell_ != nullptr) {
      std::array<dat::Sphere, 2> global{};
      std::uint32_t count = 0;
      if (part_array_) {
        for (const dat::Sphere& s : part_array_->spheres()) {
          if (count == global.size()) break;
          global[count].center = position_.frame.localtoglobal(s.center * scale_);
          global[count].radius = s.radius * scale_;
          ++count;
        }
      }
      CellArray cells;
      ObjCell* ignored = nullptr;
      context_->cells->find_cell_list(position_, count, global.data(), cells, ignored);
      add_shadows_to_cells(cells);
    }
  }
  calc_acceleration();
  return true;
}

// CPhysicsObj::enter_world 0x00516310
bool PhysicsObj::enter_world(const Position& p) {
  store_position(p);
  return enter_world(true);
}

// CPhysicsObj::enter_world 0x00516170: with the world's cells, the
// SetPosition flags 0x11 (Placement, and Slide when `slide`): the placement
// transition finds the nearest clear spot.
bool PhysicsObj::enter_world(bool slide) {
  if (parent_ != nullptr) return false;
  update_time_ = context_->now();
  const Position p = position_;
  if (context_->cells != nullptr) {
    if (!place(p, slide)) return false;
  } else if (!set_position_internal(p)) {
    return false;
  }
  if ((state_ & ps::Static) == 0) {
    if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
    transient_state_ |= ts::Active;
  }
  if (part_array_) part_array_->handle_enter_world();
  if (movement_manager_) movement_manager_->handle_enter_world();
  return true;
}

// CPhysicsObj::SetPositionInternal 0x00516040 (the placement form): a
// placement transition from `p` (CheckPositionInternal, AdjustPosition's
// cell lookup), committed through SetPositionInternal(transition).
bool PhysicsObj::place(const Position& p, bool slide) {
  if (cell_ == nullptr) prepare_to_enter_world();
  // AdjustPosition finds no cell (not loaded, or outside LScape's grid):
  // prepare_to_leave_visibility, store_position, GotoLostCell, and the
  // SetPosition succeeds.
  if (context_->cells->get_cell(p.objcell_id) == nullptr) {
    prepare_to_leave_visibility();
    store_position(p);
    if (context_->obj_maint != nullptr) context_->obj_maint->goto_lost_cell(*this, position_.objcell_id);
    transient_state_ &= ~ts::Active;
    return true;
  }
  std::unique_ptr<Transition> t = make_transition(nullptr, p, false, true);
  t->sphere_path.placement_allows_sliding = slide;
  if (!t->find_valid_position()) return false;
  // CPhysicsObj::CheckPositionInternal 0x00511E90: without Slide the result
  // must be in the same cell with signed x and y differences (the x87's
  // exact difference of two floats) below 0.05; z and moves toward -x or -y
  // are not tested.
  if (!slide) {
    const glm::vec3& found = t->sphere_path.curr_pos.frame.origin;
    const auto below = [](float a, float b) {
      return static_cast<double>(a) - static_cast<double>(b) < static_cast<double>(0.05f);
    };
    if (!(below(found.x, p.frame.origin.x) && below(found.y, p.frame.origin.y) &&
          t->sphere_path.curr_pos.objcell_id == p.objcell_id)) {
      return false;
    }
  }
  return set_position_internal(*t);
}

// CPhysicsObj::transition's set-up: object info, spheres (the dummy sphere
// without any), path, and the stationary counters.
std::unique_ptr<Transition> PhysicsObj::make_transition(const Position* old_pos, const Position& new_pos,
                                                        bool admin_move, bool placement) {
  auto t = std::make_unique<Transition>(*context_->cells);
  // CPhysicsObj::SetPosition 0x005160C0 calls init_object(this, 0): a
  // placement starts without Contact or OnWalkable, so a spot in the air is
  // as valid as one on the ground.
  t->init_object(*this, placement ? 0U : get_object_info(admin_move, t.get()));
  if (part_array_ && !part_array_->spheres().empty()) {
    const auto s = part_array_->spheres();
    t->init_sphere(static_cast<std::uint32_t>(s.size()), s.data(), scale_);
  } else {
    // The dummy sphere: 0.1 m at the origin, unscaled.
    const dat::Sphere dummy{glm::vec3(0.0f), 0.1f};
    t->init_sphere(1, &dummy, 1.0f);
  }
  ObjCell* begin = cell_ != nullptr ? cell_ : context_->cells->get_cell(new_pos.objcell_id);
  if (old_pos == nullptr) begin = context_->cells->get_cell(new_pos.objcell_id);
  t->init_path(begin, old_pos, new_pos);
  if ((transient_state_ & ts::StationaryStuck) != 0) {
    t->collision_info.frames_stationary_fall = 3;
  } else if ((transient_state_ & ts::StationaryStop) != 0) {
    t->collision_info.frames_stationary_fall = 2;
  } else if ((transient_state_ & ts::StationaryFall) != 0) {
    t->collision_info.frames_stationary_fall = 1;
  }
  return t;
}

// CPhysicsObj::transition 0x00512DC0
std::unique_ptr<Transition> PhysicsObj::transition(const Position* old_pos, const Position& new_pos, bool admin_move) {
  if (context_->cells == nullptr) return nullptr;
  std::unique_ptr<Transition> t = make_transition(old_pos, new_pos, admin_move);
  if (!t->find_valid_position()) return nullptr;
  return t;
}

// CPhysicsObj::GetStepUpHeight 0x0050EA00
float PhysicsObj::step_up_height() const {
  return part_array_ ? part_array_->step_up_height() : 0.0f;
}

// CPhysicsObj::GetStepDownHeight 0x0050EA20
float PhysicsObj::step_down_height() const {
  return part_array_ ? part_array_->step_down_height() : 0.0f;
}

// CPhysicsObj::SetPositionInternal 0x00515330: the cell first, then the
// frame, the contact plane, walkable state and sliding normal, then the
// shadows in the transition's cells.
bool PhysicsObj::set_position_internal(Transition& t) {
  const bool prev_on_walkable = (transient_state_ & ts::OnWalkable) != 0;
  const bool prev_has_contact = (transient_state_ & ts::Contact) != 0;
  ObjCell* new_cell = t.sphere_path.curr_cell;
  if (new_cell == nullptr) {
    prepare_to_leave_visibility();
    store_position(t.sphere_path.curr_pos);
    if (context_->obj_maint != nullptr) context_->obj_maint->goto_lost_cell(*this, position_.objcell_id);
    transient_state_ &= ~ts::Active;
    return true;
  }
  if (cell_ == new_cell) {
    // The same cell: the new cell id, every child's too (acclient.c 322548-322569).
    set_cell_id_with_children(t.sphere_path.curr_pos.objcell_id);
  } else {
    change_cell(new_cell);
    position_.objcell_id = t.sphere_path.curr_pos.objcell_id;
  }
  in_cell_ = true;
  set_frame(t.sphere_path.curr_pos.frame);
  const CollisionInfo& ci = t.collision_info;
  contact_plane_cell_id_ = ci.contact_plane_cell_id;
  contact_plane_ = ci.contact_plane;
  if (ci.contact_plane_valid) {
    transient_state_ |= ts::Contact;
  } else {
    transient_state_ &= ~ts::Contact;
  }
  calc_acceleration();
  if (ci.contact_plane_is_water) {
    transient_state_ |= ts::WaterContact;
  } else {
    transient_state_ &= ~ts::WaterContact;
  }
  if ((transient_state_ & ts::Contact) != 0) {
    set_on_walkable(contact_plane_.normal.z >= kFloorZ);
  } else {
    transient_state_ &= ~ts::OnWalkable;
    if (prev_on_walkable && movement_manager_) movement_manager_->leave_ground();
    calc_acceleration();
  }
  sliding_normal_ = ci.sliding_normal;
  if (ci.sliding_normal_valid) {
    transient_state_ |= ts::Sliding;
  } else {
    transient_state_ &= ~ts::Sliding;
  }
  handle_all_collisions(ci, prev_has_contact, prev_on_walkable);
  if (cell_ != nullptr) {
    if ((state_ & ps::HasPhysicsBsp) != 0) {
      calc_cross_cells();  // by its parts' boxes
    } else if (!t.cell_array.cells.empty()) {
      remove_shadows_from_cells();
      add_shadows_to_cells(t.cell_array);
    }
  }
  return true;
}

// CPhysicsObj::handle_all_collisions 0x00514780
bool PhysicsObj::handle_all_collisions(const CollisionInfo& ci, bool prev_has_contact, bool prev_on_walkable) {
  const bool apply_bounce =
      !prev_on_walkable || (transient_state_ & ts::OnWalkable) == 0 || (state_ & ps::Sledding) != 0;
  bool reported = false;
  for (PhysicsObj* object : ci.collide_objects) {
    if (object != nullptr && track_object_collision(*object, prev_has_contact)) reported = true;
  }
  report_collision_end(false);
  if (colliding_with_environment_) {
    colliding_with_environment_ = ci.collided_with_environment;
  } else if (ci.collided_with_environment || (!prev_on_walkable && (transient_state_ & ts::OnWalkable) != 0)) {
    // A landing counts as meeting the environment.
    if (report_environment_collision(prev_has_contact)) reported = true;
  }
  const int frames = ci.frames_stationary_fall;
  if (frames <= 1) {
    if (apply_bounce && ci.collision_normal_valid) {
      if ((state_ & ps::Inelastic) != 0) {
        velocity_ = glm::vec3(0.0f);
      } else {
        const float into = glm::dot(velocity_, ci.collision_normal);
        if (into < 0.0f) velocity_ += ci.collision_normal * -(into * (elasticity_ + 1.0f));
      }
    }
  } else {
    velocity_ = glm::vec3(0.0f);
  }
  // The stationary bits follow the counter; at 3 the binary clears them.
  transient_state_ &= ~(ts::StationaryFall | ts::StationaryStop | ts::StationaryStuck);
  if (frames == 1) {
    transient_state_ |= ts::StationaryFall;
  } else if (frames == 2) {
    transient_state_ |= ts::StationaryStop;
  } else if (frames > 3) {
    transient_state_ |= ts::StationaryStuck;
  }
  return reported;
}

// CPhysicsObj::track_object_collision 0x00513F10
bool PhysicsObj::track_object_collision(PhysicsObj& object, bool prev_has_contact) {
  if ((object.state() & ps::Static) != 0) return report_environment_collision(prev_has_contact);
  const CollisionRecord record{context_->physics_time.count(), (object.state() & ps::Ethereal) != 0};
  // LongNIValHash::clobber: a record already there is replaced, unreported.
  const auto [it, inserted] = collision_table_.insert_or_assign(object.id(), record);
  if (!inserted) return false;
  return report_object_collision(object, prev_has_contact);
}

// CPhysicsObj::report_object_collision 0x00513060. The client's weenie
// answers neither object-collision profile (CWeenieObject's defaults), so
// what remains is the missile's state and the answer.
bool PhysicsObj::report_object_collision(PhysicsObj& object, bool prev_has_contact) {
  if ((object.state() & ps::ReportAsEnvironment) != 0) return report_environment_collision(prev_has_contact);
  bool result = false;
  if ((object.state() & ps::IgnoreCollisions) == 0) {
    if ((state_ & ps::ReportCollisions) != 0 && weenie_) result = true;
    if ((state_ & ps::Missile) != 0) state_ &= ~(ps::Missile | ps::AlignPath | ps::PathClipped);
  }
  if ((object.state() & ps::ReportCollisions) != 0 && (state_ & ps::IgnoreCollisions) == 0 && object.weenie_) {
    result = true;
  }
  return result;
}

// CPhysicsObj::report_environment_collision 0x00512FC0
bool PhysicsObj::report_environment_collision(bool /*prev_has_contact*/) {
  if (colliding_with_environment_) return false;
  bool result = false;
  if ((state_ & ps::ReportCollisions) != 0 && weenie_) {
    // ACCWeenieObject::DoCollision 0x0058C3A0
    if ((state_ & ps::ScriptedCollision) != 0) context_->effects().play_default_script(*this);
    result = true;
  }
  colliding_with_environment_ = true;
  if ((state_ & ps::Missile) != 0) state_ &= ~(ps::Missile | ps::AlignPath | ps::PathClipped);
  return result;
}

// CPhysicsObj::report_collision_end 0x00514620 (report_object_collision_end
// reaches only the weenies' DoCollisionEnd, which the client's do not answer)
void PhysicsObj::report_collision_end(bool force_end) {
  const double now = context_->physics_time.count();
  std::erase_if(collision_table_, [&](const auto& entry) {
    const CollisionRecord& r = entry.second;
    return now - r.touched_time > 1.0 || (r.ethereal && now - r.touched_time > 0.0) || force_end;
  });
}

// CPhysicsObj::leave_world 0x005155A0
void PhysicsObj::leave_world() {
  report_collision_end(true);
  if (context_->obj_maint != nullptr) {
    context_->obj_maint->remove_from_lost_cell(*this);
    context_->obj_maint->remove_object_to_be_destroyed(id_);
  }
  transient_state_ &= ~ts::Active;
  remove_shadows_from_cells();
  cell_ = nullptr;
  in_cell_ = false;
  position_.objcell_id = 0;
  clear_transient_states();
}

// CPhysicsObj::prepare_to_leave_visibility 0x00511F40
void PhysicsObj::prepare_to_leave_visibility() {
  remove_shadows_from_cells();
  if (context_->obj_maint != nullptr) context_->obj_maint->remove_from_lost_cell(*this);
  cell_ = nullptr;  // leave_cell
  in_cell_ = false;
  if (context_->obj_maint != nullptr) {
    context_->obj_maint->add_object_to_be_destroyed(id_);
    for (const ChildAttachment& child : children_) context_->obj_maint->add_object_to_be_destroyed(child.object->id_);
  }
}

// CPhysicsObj::prepare_to_enter_world 0x00511FA0
void PhysicsObj::prepare_to_enter_world() {
  update_time_ = context_->now();
  if (context_->obj_maint != nullptr) {
    context_->obj_maint->remove_from_lost_cell(*this);
    context_->obj_maint->remove_object_to_be_destroyed(id_);
    for (const ChildAttachment& child : children_) {
      context_->obj_maint->remove_object_to_be_destroyed(child.object->id_);
    }
  }
  if ((state_ & ps::Static) == 0) {
    if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
    transient_state_ |= ts::Active;
  }
}

// CPhysicsObj::leave_visibility 0x00514220
void PhysicsObj::leave_visibility() {
  prepare_to_leave_visibility();
  store_position(position_);
  if (context_->obj_maint != nullptr) context_->obj_maint->goto_lost_cell(*this, position_.objcell_id);
  transient_state_ &= ~ts::Active;
}

// CPhysicsObj::reenter_visibility 0x00516250
bool PhysicsObj::reenter_visibility() {
  prepare_to_enter_world();
  if (context_->cells == nullptr) return set_position_internal(position_);
  return place(position_, true);
}

// CPhysicsObj::exit_world 0x00514E60
void PhysicsObj::exit_world() {
  if (part_array_) part_array_->handle_exit_world();
  if (movement_manager_) movement_manager_->handle_exit_world();
  if (position_manager_) position_manager_->unstick();
  // The watch on a target ends and the voyeurs hear that this object left.
  if (target_manager_) {
    target_manager_->clear_target();
    target_manager_->notify_voyeur_of_event(target_status::ExitWorld);
  }
}

// CPhysicsObj::SetPositionSimple 0x005162B0
// With the world's cells this is SetPosition with Teleport | SendPositionEvent
// (| Slide when `sliding`), flags 0x1002 / 0x1012: the placement transition's
// CheckPositionInternal path (place). Without cells the position is committed
// as told (N3).
bool PhysicsObj::set_position_simple(const Position& p, bool sliding) {
  if (context_->cells != nullptr) return place(p, sliding);
  return set_position_internal(p);
}

// CPhysicsObj::MoveOrTeleport 0x00516330
bool PhysicsObj::move_or_teleport(const Position& p, std::uint16_t teleport_timestamp, bool contact,
                                  const glm::vec3& /*velocity*/) {
  // A stored Teleport newer than the packet's rejects the move.
  if (core::is_newer(update_time(TimestampIndex::Teleport), teleport_timestamp)) return false;
  if (newer_event(TimestampIndex::Teleport, teleport_timestamp) || !in_cell_) {
    teleport_hook(true);
    // SetPosition flags 0x1012: Teleport | Slide | SendPositionEvent.
    if (context_->cells != nullptr) {
      place(p, true);
    } else {
      set_position_internal(p);
    }
    // No-data fallback N4 only where no collision cell holds the object: in one,
    // Contact and OnWalkable come from the transitions.
    if (contact) land_on_server_contact();
    return true;
  }
  if (!contact) return false;
  if (player_distance_ >= kActivityRadius) {
    stop_interpolating();
    set_position_simple(p, true);
  } else {
    interpolate_to(p, movement_manager_ && movement_manager_->is_moving_to());
  }
  land_on_server_contact();  // no-data fallback N4, no collision cell only
  return true;
}

// No-data fallback N4 (docs/deviations.md): with no collision transition to find the
// ground, a server position that says the object has contact sets Contact
// and OnWalkable and stops a fall, as landing would (set_on_walkable runs
// HitGround). Inside a collision cell the transitions decide: nothing here.
void PhysicsObj::land_on_server_contact() {
  if (cell_ != nullptr) return;
  if ((transient_state_ & ts::Contact) != 0 && (transient_state_ & ts::OnWalkable) != 0) return;
  transient_state_ |= ts::Contact;
  // The ground stops the fall (what the transition's collision response does).
  if (velocity_.z < 0.0f) velocity_.z = 0.0f;
  set_on_walkable(true);
}

// CPhysicsObj::teleport_hook 0x00514ED0
void PhysicsObj::teleport_hook(bool /*hide*/) {
  if (movement_manager_) movement_manager_->cancel_move_to();
  if (position_manager_) {
    position_manager_->unstick();
    position_manager_->stop_interpolating();
    position_manager_->unconstrain();
  }
  if (target_manager_) {
    target_manager_->clear_target();
    target_manager_->notify_voyeur_of_event(target_status::Teleported);
  }
}

// CPhysicsObj::SetPlacementFrame 0x0050F690
bool PhysicsObj::set_placement_frame(std::uint32_t frame_id, bool /*send_event*/) {
  bool result = false;
  if (part_array_) result = part_array_->set_placement_frame(frame_id);
  if ((state_ & ps::ParticleEmitter) == 0 && part_array_) part_array_->set_frame(position_.frame);
  return result;
}

// CPhysicsObj::HasAnims 0x0050F770
bool PhysicsObj::has_anims() const {
  return part_array_ && part_array_->has_anims();
}

// --- parenting -----------------------------------------------------------------

void PhysicsObj::add_child(PhysicsObj& child, const HoldingLocation& where, std::uint32_t location) {
  children_.push_back(ChildAttachment{&child, where.part_index, where.frame, location});
}

// SetPositionInternal 0x00515330's same-cell branch: the cell id, and each
// child's (the no-transition commits, N3, update the cell ids so too).
void PhysicsObj::set_cell_id_with_children(std::uint32_t cell_id) noexcept {
  position_.objcell_id = cell_id;
  for (const ChildAttachment& child : children_) child.object->position_.objcell_id = cell_id;
}

// CPhysicsObj::change_cell 0x00513390
void PhysicsObj::change_cell(ObjCell* new_cell) {
  if (cell_ != nullptr) leave_cell();
  if (new_cell != nullptr) {
    enter_cell(*new_cell);
  } else {
    position_.objcell_id = 0;
    cell_ = nullptr;
  }
}

// CPhysicsObj::enter_cell 0x00510ED0 (children first, acclient.c 318216-318234).
// Retail enters only an object with a part array; dereth keeps objects
// without one (no-data fallback N1) in their cells as before.
void PhysicsObj::enter_cell(ObjCell& new_cell) {
  for (const ChildAttachment& child : children_) {
    child.object->enter_cell(new_cell);
    child.object->in_cell_ = true;
  }
  position_.objcell_id = new_cell.id();
  cell_ = &new_cell;
}

// CPhysicsObj::leave_cell 0x00510F50
void PhysicsObj::leave_cell() {
  if (cell_ == nullptr) return;
  for (const ChildAttachment& child : children_) child.object->leave_cell();
  cell_ = nullptr;
}

void PhysicsObj::remove_child(const PhysicsObj& child) noexcept {
  auto it = std::find_if(children_.begin(), children_.end(), [&](const auto& c) { return c.object == &child; });
  if (it != children_.end()) children_.erase(it);
}

// CPhysicsObj::set_parent 0x00515A90
bool PhysicsObj::set_parent(PhysicsObj& parent, std::uint32_t where) {
  // CPhysicsObj::add_child 0x0050F870: needs the parent's holding location.
  if (&parent == this || !parent.part_array_) return false;
  const std::optional<HoldingLocation> location = parent.part_array_->holding_location(where);
  if (!location) return false;
  parent.add_child(*this, *location, where);
  unset_parent();
  leave_world();
  parent_ = &parent;
  parent_location_ = where;
  if (parent.in_cell_) {
    // change_cell: the child shares the parent's cell (its collision cell too).
    if (parent.cell_ != nullptr) change_cell(parent.cell_);
    in_cell_ = true;
    position_.objcell_id = parent.position_.objcell_id;
    parent.update_child(*this, location->part_index, location->frame);
  }
  if ((parent.state_ & ps::Hidden) != 0) {
    state_ |= ps::NoDraw;
    if (part_array_) part_array_->set_no_draw(true);
  }
  return true;
}

// CPhysicsObj::unset_parent 0x00513470
void PhysicsObj::unset_parent() {
  if (parent_ == nullptr) return;
  parent_->remove_child(*this);
  if ((parent_->state_ & ps::Hidden) != 0) {
    state_ &= ~ps::NoDraw;
    if (part_array_) part_array_->set_no_draw(false);
  }
  parent_ = nullptr;
  update_time_ = context_->now();
  clear_transient_states();
}

// CPhysicsObj::unparent_children 0x005134E0
void PhysicsObj::unparent_children() {
  while (!children_.empty()) {
    PhysicsObj* child = children_.front().object;
    if (child->parent_ == nullptr) {
      // Retail would spin here forever; drop the stray entry instead.
      children_.erase(children_.begin());
      continue;
    }
    child->unset_parent();
  }
}

// CPhysicsObj::UpdateChild 0x00512D50
void PhysicsObj::update_child(PhysicsObj& child, std::uint32_t part_index, const core::Frame& child_frame) {
  std::optional<core::Frame> part;
  if (part_array_) part = part_array_->part_frame(part_index);
  child.set_frame(core::Frame::combine(part ? *part : position_.frame, child_frame));
  context_->effects().update_particles(child);
  context_->effects().update_scripts(child);
}

// CPhysicsObj::UpdateChildrenInternal 0x00513DA0
void PhysicsObj::update_children_internal() {
  if (!part_array_) return;
  for (std::size_t i = 0; i < children_.size(); ++i) {
    const ChildAttachment c = children_[i];
    update_child(*c.object, c.part_index, c.frame);
  }
}

// --- scripts -----------------------------------------------------------------

// CPhysicsObj::play_script 0x00510D30
bool PhysicsObj::play_script(std::uint32_t script_did) {
  if (!in_cell_) return true;
  return play_script_internal(script_did);
}

// CPhysicsObj::play_script 0x00513260
bool PhysicsObj::play_script(std::uint32_t type, float mod) {
  if (!in_cell_) return true;
  if (physics_script_table_id_ == 0) return false;
  return play_script_internal(context_->effects().resolve_script_for(*this, physics_script_table_id_, type, mod));
}

// CPhysicsObj::play_script_internal 0x00510CD0
bool PhysicsObj::play_script_internal(std::uint32_t script_did) {
  if (script_did == 0) return false;
  return context_->effects().play_script(*this, script_did);
}

// --- movement ------------------------------------------------------------------

// CPhysicsObj::unpack_movement 0x00512040
void PhysicsObj::unpack_movement(const protocol::MovementData& data, bool autonomous) {
  make_movement_manager(false);
  if (movement_manager_) movement_manager_->unpack_movement(data, autonomous);
}

// CPhysicsObj::MakeMovementManager 0x00510270
void PhysicsObj::make_movement_manager(bool init_motion) {
  if (movement_manager_) return;
  movement_manager_ = context_->factory().make_movement_manager(*this);
  if (!movement_manager_) return;
  if (init_motion) movement_manager_->enter_default_state();
  if ((state_ & ps::Static) == 0) {
    if ((transient_state_ & ts::Active) == 0) update_time_ = context_->now();
    transient_state_ |= ts::Active;
  }
}

// --- animation and motion --------------------------------------------------------

// CPhysicsObj::Hook_AnimDone 0x0050FDA0
void PhysicsObj::hook_anim_done() {
  if (part_array_) part_array_->animation_done(true);
}

// CPhysicsObj::MotionDone 0x0050FDB0
void PhysicsObj::motion_done(std::uint32_t motion, bool success) {
  if (movement_manager_) movement_manager_->motion_done(motion, success);
}

// CPhysicsObj::RemoveLinkAnimations 0x0050FE20
void PhysicsObj::remove_link_animations() {
  if (part_array_) part_array_->handle_enter_world();
}

// CPhysicsObj::CheckForCompletedMotions 0x0050FE30
void PhysicsObj::check_for_completed_motions() {
  if (part_array_) part_array_->check_for_completed_motions();
}

// CPhysicsObj::InitializeMotionTables 0x0050EA60
void PhysicsObj::initialize_motion_tables() {
  if (part_array_) part_array_->initialize_motion_tables();
}

// CPhysicsObj::DoInterpretedMotion 0x0050EA70
std::uint32_t PhysicsObj::do_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  return part_array_ ? part_array_->do_interpreted_motion(motion, params) : 71;
}

// CPhysicsObj::StopInterpretedMotion 0x0050EA90
std::uint32_t PhysicsObj::stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  return part_array_ ? part_array_->stop_interpreted_motion(motion, params) : 71;
}

// CPhysicsObj::StopCompletely_Internal 0x0050EAD0
void PhysicsObj::stop_completely_internal() {
  if (part_array_) part_array_->stop_completely_internal();
}

// CPhysicsObj::DoMotion 0x00510020
std::uint32_t PhysicsObj::do_motion(std::uint32_t motion, const MovementParameters& params) {
  last_move_was_autonomous_ = true;
  if (!movement_manager_) return movement_error::NoMotionTable;
  return movement_manager_->perform_movement(MovementKind::RawCommand, motion, params);
}

// CPhysicsObj::StopMotion 0x005100D0
std::uint32_t PhysicsObj::stop_motion(std::uint32_t motion, const MovementParameters& params) {
  last_move_was_autonomous_ = true;
  if (!movement_manager_) return movement_error::NoMotionTable;
  return movement_manager_->perform_movement(MovementKind::StopRawCommand, motion, params);
}

// CPhysicsObj::StopCompletely 0x00510180
std::uint32_t PhysicsObj::stop_completely() {
  if (!movement_manager_) return movement_error::NoMotionTable;
  return movement_manager_->perform_movement(MovementKind::StopCompletely, 0, MovementParameters{});
}

// CPhysicsObj::InqRawMotionState 0x0050FDE0
const RawMotionState* PhysicsObj::inq_raw_motion_state() const {
  MotionInterp* minterp = motion_interp();
  return minterp != nullptr ? &minterp->raw_state() : nullptr;
}

MotionInterp* PhysicsObj::motion_interp() const {
  return movement_manager_ ? movement_manager_->get_motion_interp() : nullptr;
}

// CPhysicsObj::get_local_physics_velocity 0x00512140
glm::vec3 PhysicsObj::get_local_physics_velocity() const {
  return position_.frame.globaltolocalvec(velocity_);
}

// ACCWeenieObject::InqRunRate 0x0058C560: IsThePlayer and the qualities.
bool PhysicsObj::weenie_inq_run_rate(float& rate) const {
  if (!weenie_ || this != context_->player || context_->player_qualities == nullptr) return false;
  return context_->player_qualities->inq_run_rate(rate);
}

// ACCWeenieObject::InqJumpVelocity 0x0058C520
bool PhysicsObj::weenie_inq_jump_velocity(float extent, float& v_z) const {
  if (!weenie_ || this != context_->player || context_->player_qualities == nullptr) return false;
  return context_->player_qualities->inq_jump_velocity(extent, v_z);
}

// ACCWeenieObject::CanJump 0x0058C400
bool PhysicsObj::weenie_can_jump(float extent) const {
  if (!weenie_ || this != context_->player || context_->player_qualities == nullptr) return false;
  return context_->player_qualities->can_jump(extent);
}

// ACCWeenieObject::JumpStaminaCost 0x0058C440
bool PhysicsObj::weenie_jump_stamina_cost(float extent, int& cost) const {
  if (!weenie_ || this != context_->player || context_->player_qualities == nullptr) return false;
  return context_->player_qualities->jump_stamina_cost(extent, context_->now().count(), cost);
}

}  // namespace dereth::sim
