#pragma once
// PhysicsObj (retail CPhysicsObj): one object's physics state and its
// fixed-quantum update (seed retail-projectile-vfx sections 2, 3, 9 and 10;
// spec/physics.md section 0).
//
// Functions keep the retail names in snake_case; each definition cites the
// retail function and address. The members are defined in parts, a file each
// (src/sim/object/ unless named):
//   physics_obj.cpp            the object itself: state, update loop, motion,
//                              children, hooks, the commit;
//   physics_obj_cells.cpp      as an obstacle: FindObjCollisions, its shadows
//                              in the cells it crosses, the cell searches;
//   physics_obj_move_to.cpp    its side of the MoveToManager;
//   physics_obj_targets.cpp    its side of the TargetManager and voyeurs;
//   physics_obj_positions.cpp  its side of the position managers;
//   physics_obj_effects.cpp    the effect entry points (FPHook ramps,
//                              CallPES, set_ethereal);
//   cells/restriction_db.cpp   the weenie's move-restriction answers.
// Without collision cells (no cell DAT) a position commit stores the frame
// directly (docs/deviations.md N3).

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/protocol/obj_desc.hpp"
#include "dereth/protocol/physics_desc.hpp"
#include "dereth/sim/cells/restriction_db.hpp"
#include "dereth/sim/collision/plane.hpp"
#include "dereth/sim/motion/raw_motion_state.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/seams.hpp"
#include "dereth/sim/object/shadow_obj.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class ObjCell;
class CellSource;
class Transition;
struct CellArray;
struct CollisionInfo;
enum class TransitionState : std::uint8_t;

class SimContext;
class PhysicsObj;
class TargetManager;
enum class FPHookType : std::int32_t;

// What OBJECTINFO::init and missile_ignore ask of the weenie (CWeenieObject).
// An object without a weenie has none.
struct WeenieTraits {
  bool is_creature = false;
  bool is_impenetrable = false;
  bool is_player = false;
  bool is_pk = false;
  bool is_pklite = false;
  bool is_attackable = false;  // ObjectDescriptionFlags Attackable (0x10)
  bool is_free_pk = false;     // ObjectDescriptionFlags FreePkStatus (0x200000)
  std::string name;            // the weenie's name (the HUD's selected target)
  // What the cells' entry restrictions ask (docs/sim.md "Collision"):
  std::uint32_t bitfield = 0;         // pwd._bitfield, the ObjectDescriptionFlags
  std::uint32_t house_owner_iid = 0;  // pwd._house_owner_iid (WeenieDesc HouseOwner)
  std::optional<RestrictionDB> db{};  // pwd._db (WeenieDesc HouseRestrictions)
  std::uint32_t pscript = 0;          // pwd._pscript (WeenieDesc PScript)
  std::uint32_t monarch = 0;          // pwd._monarch (WeenieDesc Monarch)
  std::uint8_t house_ts = 0;          // the stamper's _house_ts (UpdateRestrictions' gate)
  // What the radar asks (gmRadarUI): pwd._blipColor and pwd._radar_enum (0 when not sent).
  std::uint8_t blip_color = 0;
  std::uint8_t radar_enum = 0;
};

// One attached child (CHILDLIST entry).
struct ChildAttachment {
  PhysicsObj* object = nullptr;
  std::uint32_t part_index = 0;
  core::Frame frame;
  std::uint32_t location = 0;
};

class alignas(64) PhysicsObj {
 public:
  using TimestampIndex = protocol::TimestampIndex;

  // CPhysicsObj::CPhysicsObj 0x005123F0: state 0x00400C08, zero vectors,
  // default friction/elasticity/translucency, scale 1, all nine stamps 0.
  PhysicsObj(SimContext& context, std::uint32_t guid, LocalId local_id);
  PhysicsObj(const PhysicsObj&) = delete;
  PhysicsObj& operator=(const PhysicsObj&) = delete;
  ~PhysicsObj();

  // --- identity and read access -------------------------------------------
  [[nodiscard]] std::uint32_t id() const noexcept { return id_; }
  [[nodiscard]] LocalId local_id() const noexcept { return local_id_; }
  [[nodiscard]] SimContext& context() const noexcept { return *context_; }
  [[nodiscard]] std::uint32_t state() const noexcept { return state_; }
  [[nodiscard]] std::uint32_t transient_state() const noexcept { return transient_state_; }
  [[nodiscard]] const Position& position() const noexcept { return position_; }
  // Whether the object is in a cell (retail `cell != 0`).
  [[nodiscard]] bool in_cell() const noexcept { return in_cell_; }
  [[nodiscard]] const glm::vec3& velocity() const noexcept { return velocity_; }
  [[nodiscard]] const glm::vec3& acceleration() const noexcept { return acceleration_; }
  [[nodiscard]] const glm::vec3& omega() const noexcept { return omega_; }
  [[nodiscard]] const glm::vec3& cached_velocity() const noexcept { return cached_velocity_; }
  [[nodiscard]] float friction() const noexcept { return friction_; }
  [[nodiscard]] float elasticity() const noexcept { return elasticity_; }
  [[nodiscard]] float translucency() const noexcept { return translucency_; }
  [[nodiscard]] float translucency_original() const noexcept { return translucency_original_; }
  [[nodiscard]] float scale() const noexcept { return scale_; }
  [[nodiscard]] std::uint32_t motion_table_id() const noexcept { return motion_table_id_; }
  [[nodiscard]] std::uint32_t sound_table_id() const noexcept { return sound_table_id_; }
  // The current PhysicsScriptTable (0 = none).
  [[nodiscard]] std::uint32_t physics_script_table_id() const noexcept { return physics_script_table_id_; }
  [[nodiscard]] std::uint32_t setup_id() const noexcept { return setup_id_; }
  [[nodiscard]] std::uint32_t default_script_type() const noexcept { return default_script_; }
  [[nodiscard]] float default_script_intensity() const noexcept { return default_script_intensity_; }
  [[nodiscard]] bool last_move_was_autonomous() const noexcept { return last_move_was_autonomous_; }
  [[nodiscard]] bool jumped_this_frame() const noexcept { return jumped_this_frame_; }
  // The nine channel stamps, in PhysicsDesc wire order.
  [[nodiscard]] const std::array<std::uint16_t, protocol::kTimestampCount>& update_times() const noexcept {
    return update_times_;
  }
  [[nodiscard]] std::uint16_t update_time(TimestampIndex i) const noexcept {
    return update_times_[static_cast<std::size_t>(i)];
  }
  void set_update_time(TimestampIndex i, std::uint16_t stamp) noexcept {
    update_times_[static_cast<std::size_t>(i)] = stamp;
  }
  [[nodiscard]] std::uint16_t instance() const noexcept { return update_time(TimestampIndex::Instance); }
  // The simulated time of the last update (retail `update_time`, a double).
  [[nodiscard]] core::Seconds last_update_time() const noexcept { return update_time_; }
  void set_last_update_time(core::Seconds t) noexcept { update_time_ = t; }
  [[nodiscard]] PhysicsObj* parent() const noexcept { return parent_; }
  [[nodiscard]] std::uint32_t parent_location() const noexcept { return parent_location_; }
  [[nodiscard]] const std::vector<ChildAttachment>& children() const noexcept { return children_; }
  [[nodiscard]] float player_distance() const noexcept { return player_distance_; }
  [[nodiscard]] const glm::vec3& player_vector() const noexcept { return player_vector_; }
  [[nodiscard]] const Plane& contact_plane() const noexcept { return contact_plane_; }
  [[nodiscard]] const std::optional<WeenieTraits>& weenie() const noexcept { return weenie_; }
  [[nodiscard]] const protocol::ObjDesc& visual_desc() const noexcept { return visual_desc_; }

  // --- writers the collision and weenie sides use --------------------------
  void set_transient_state(std::uint32_t bits) noexcept { transient_state_ = bits; }
  void set_contact_plane(const Plane& plane) noexcept { contact_plane_ = plane; }
  void set_weenie(std::optional<WeenieTraits> traits) noexcept { weenie_ = std::move(traits); }
  // ACCWeenieObject::InqRunRate 0x0058C560 / InqJumpVelocity 0x0058C520:
  // only the player answers, from the qualities its PlayerDescription gave
  // (SimContext::player_qualities); false otherwise.
  bool weenie_inq_run_rate(float& rate) const;
  bool weenie_inq_jump_velocity(float extent, float& v_z) const;
  // ACCWeenieObject::CanJump 0x0058C400 / JumpStaminaCost 0x0058C440: the
  // same guard (the player, with qualities), then CACQualities::CanJump /
  // JumpStaminaCost (at SimContext::now, Timer::cur_time).
  [[nodiscard]] bool weenie_can_jump(float extent) const;
  // ACCWeenieObject::CanBypassMoveRestrictions 0x0058C500: the weenie is
  // both Admin (0x100000) and ImmuneCellRestrictions (0x400000); false
  // without a weenie.
  [[nodiscard]] bool weenie_can_bypass_move_restrictions() const noexcept;
  // ACCWeenieObject::CanMoveInto 0x0058DA40 (this object's weenie is a
  // house): whether `mover` may enter the cells it restricts; a refusal
  // plays the house's pscript on the mover (restriction_db.cpp).
  bool weenie_can_move_into(PhysicsObj* mover) const;
  bool weenie_jump_stamina_cost(float extent, int& cost) const;
  void set_visual_desc(const protocol::ObjDesc& desc) { visual_desc_ = desc; }
  void set_setup_id(std::uint32_t setup_did) noexcept { setup_id_ = setup_did; }

  // --- seams ---------------------------------------------------------------
  [[nodiscard]] PartArray* part_array() const noexcept { return part_array_.get(); }
  void set_part_array(std::unique_ptr<PartArray> parts) noexcept {
    part_array_ = std::move(parts);
    sphere_reach_ = kReachUnknown;
  }
  // The broad phase's reach of this object's shapes (shapes_reach,
  // collision/reach.hpp, issue 35 section 4): that of its part array's
  // spheres at its scale, or -1 when it has cylinders or no part array
  // (CObjCell's search then tests it in full). Cached: a part array's shapes
  // are fixed for its life (part_array.hpp), and set_part_array and the
  // scale's writers forget it. Not retail's: retail keeps no such bound.
  [[nodiscard]] float sphere_reach() const noexcept {
    if (sphere_reach_ == kReachUnknown) [[unlikely]]
      sphere_reach_ = compute_sphere_reach();
    return sphere_reach_;
  }
  [[nodiscard]] MovementManager* movement_manager() const noexcept { return movement_manager_.get(); }
  void set_movement_manager(std::unique_ptr<MovementManager> m) noexcept { movement_manager_ = std::move(m); }
  [[nodiscard]] PositionManager* position_manager() const noexcept { return position_manager_.get(); }
  void set_position_manager(std::unique_ptr<PositionManager> m) noexcept { position_manager_ = std::move(m); }
  // Timed object hooks, head first (CallPES inserts at the head).
  void add_hook_at_head(std::unique_ptr<PhysicsObjHook> hook);
  [[nodiscard]] std::size_t hook_count() const noexcept { return hooks_.size(); }
  void add_anim_hook(std::unique_ptr<AnimHook> hook);

  // --- description ---------------------------------------------------------
  // CPhysicsObj::InitDefaults 0x005139D0
  void init_defaults(const SetupDefaults& setup);
  // CPhysicsObj::set_description 0x00514F40. The network PeTable replaces the
  // current table even when absent; the network acceleration is not installed.
  bool set_description(const protocol::PhysicsDesc& desc, bool set_movement);

  // --- state ---------------------------------------------------------------
  // CPhysicsObj::set_state 0x00514DD0: Lighting, then NoDraw, then Hidden.
  bool set_state(std::uint32_t new_state, bool send_event);
  // CPhysicsObj::set_hidden 0x00514C60
  void set_hidden(bool hidden, bool send_event);
  // CPhysicsObj::set_ethereal 0x00511C40: clearing Ethereal fails, and the
  // object stays Ethereal with CheckEthereal set (UpdateObjectInternal
  // retries each quantum), while ethereal_check_for_collisions finds an
  // overlap; a parented or cell-less object skips the check.
  bool set_ethereal(bool ethereal, bool send_event);
  // CPhysicsObj::set_nodraw 0x0050FCA0
  bool set_nodraw(bool nodraw, bool send_event);
  // CPhysicsObj::set_lights 0x0050FCF0
  void set_lights(bool lights_on, bool send_event);
  // CPhysicsObj::SetTranslucency: the object's current translucency, through
  // the part array (Transparent hooks; the original stays as described).
  void set_translucency(float translucency);
  // CPhysicsObj::SetScaleStatic 0x00511BB0: the object scale at once, through
  // the part array (the ramped SetScale 0x005136A0 is set_scale).
  void set_scale_static(float scale);

  // --- effect entry points (physics_obj_effects.cpp) -----------------------
  // A ramp of at least 0.0002 s is an FPHook at the head of the hooks, due on
  // the physics timer; a shorter one applies the end value at once.
  // CPhysicsObj::process_fp_hook 0x005135C0
  void process_fp_hook(FPHookType type, float value, std::uint32_t user_data);
  // CPhysicsObj::SetTranslucencyInternal 0x0050F960: never below the described translucency.
  void set_translucency_internal(float translucency);
  // CPhysicsObj::SetTranslucency2 0x0050FB50 (TransparentHook)
  void set_translucency2(float start, float end, double delta);
  // CPhysicsObj::SetPartTranslucency 0x00511730 (TransparentPartHook)
  void set_part_translucency(std::uint32_t part, float start, float end, double delta);
  // CPhysicsObj::SetLuminosity 0x00511890 (LuminousHook)
  void set_luminosity(float start, float end, double delta);
  // CPhysicsObj::SetPartLuminosity 0x005117E0 (LuminousPartHook)
  void set_part_luminosity(std::uint32_t part, float start, float end, double delta);
  // CPhysicsObj::SetDiffusion 0x005119E0 (DiffuseHook)
  void set_diffusion(float start, float end, double delta);
  // CPhysicsObj::SetPartDiffusion 0x00511930 (DiffusePartHook)
  void set_part_diffusion(std::uint32_t part, float start, float end, double delta);
  // CPhysicsObj::SetScale 0x005136A0 (ScaleHook): from the current scale to `scale`.
  void set_scale(float scale, double delta);
  // CPhysicsObj::CallPES 0x00511AF0: a pause under 0.0002 s enqueues `script`
  // now when the object is in a cell; otherwise a timed hook, due after
  // U(0, pause) seconds, enqueues it (in a cell) when it comes due.
  void call_pes(std::uint32_t script, float pause);
  // CPhysicsObj::CallPESInternal 0x00511AC0
  void call_pes_internal(std::uint32_t script, float value);
  // CPhysicsObj::set_elasticity 0x0050FD40: clamped to [0, 0.1].
  bool set_elasticity(float elasticity);
  // CPhysicsObj::set_velocity 0x005113F0: clamped to 50 m/s; activates.
  void set_velocity(const glm::vec3& velocity, bool send_event);
  // CPhysicsObj::set_omega 0x0050F6D0
  void set_omega(const glm::vec3& omega, bool send_event);
  // CPhysicsObj::set_active 0x0050FC40
  bool set_active(bool active);
  // CPhysicsObj::set_on_walkable 0x00511310
  void set_on_walkable(bool on_walkable);
  // CPhysicsObj::clear_transient_states 0x00511BF0
  void clear_transient_states();
  // CPhysicsObj::newer_event 0x00451B10: store `stamp` when strictly newer.
  bool newer_event(TimestampIndex channel, std::uint16_t stamp) noexcept;

  // --- the update loop -----------------------------------------------------
  // CPhysicsObj::update_object 0x00515D10
  void update_object();
  // A hint only: starts loading the cache lines update_object reads of
  // `object` (the members before kHotBytes).
  static void prefetch_hot(const PhysicsObj* object) noexcept {
    const auto* bytes = reinterpret_cast<const char*>(object);
    for (std::size_t offset = 0; offset < kHotBytes; offset += 64) __builtin_prefetch(bytes + offset);
  }
  // CPhysicsObj::UpdateObjectInternal 0x005156B0
  void update_object_internal(FloatSeconds quantum);
  // CPhysicsObj::UpdatePositionInternal 0x00512C30
  void update_position_internal(FloatSeconds quantum, core::Frame& new_frame);
  // CPhysicsObj::UpdatePhysicsInternal 0x00510700
  void update_physics_internal(FloatSeconds quantum, core::Frame& frame);
  // CPhysicsObj::calc_acceleration 0x00510950
  void calc_acceleration();
  // CPhysicsObj::calc_friction 0x0050EE70
  void calc_friction(FloatSeconds quantum, float velocity_mag2);
  // CPhysicsObj::process_hooks 0x00511550 (inline: most objects have no
  // hooks, and every object's every tick asks).
  void process_hooks() {
    if (!hooks_.empty() || !anim_hooks_.empty()) run_hooks();
  }
  // CPhysicsObj::get_object_info 0x00511CC0: the OBJECTINFO state bits;
  // with a transition it also seeds the transition's contact plane, last
  // known contact plane and sliding normal from this object's.
  [[nodiscard]] std::uint32_t get_object_info(bool admin_move, Transition* t = nullptr) const;

  // --- position and world membership ---------------------------------------
  // CPhysicsObj::set_frame 0x00514090 (inline: an object with no parts, so
  // no children placed on them, only stores the frame).
  void set_frame(const core::Frame& frame) {
    position_.frame = frame;
    if (part_array_) set_frame_parts();
  }
  // CPhysicsObj::set_heading 0x00514160
  void set_heading(float degrees, bool send_event);
  // CPhysicsObj::get_heading 0x00511540
  [[nodiscard]] float get_heading() const;
  // CPhysicsObj::store_position 0x005141A0
  void store_position(const Position& p);
  // CPhysicsObj::enter_world 0x00516310 (store, then enter with sliding)
  bool enter_world(const Position& p);
  // CPhysicsObj::enter_world 0x00516170
  bool enter_world(bool slide);
  // --- collision (sim/collision/transition.hpp) ----------------------------------------
  // CPhysicsObj::GetStepUpHeight 0x0050EA00: 0 without a part array.
  [[nodiscard]] float step_up_height() const;
  // CPhysicsObj::GetStepDownHeight 0x0050EA20
  [[nodiscard]] float step_down_height() const;
  // CPhysicsObj::FindObjCollisions 0x0050F050: this object as an obstacle
  // to the transition's mover.
  TransitionState find_obj_collisions(Transition& t);
  // CPhysicsObj::add_shadows_to_cells 0x00514AE0: a shadow in every cell
  // of the array (a particle emitter: one, in its own cell), children too.
  void add_shadows_to_cells(const CellArray& cells);
  // CPhysicsObj::ethereal_check_for_collisions 0x00510A40: whether an
  // object in one of the cells this object shadows would collide with it
  // (CObjCell::check_collisions 0x0052B7B0 over each loaded shadow cell).
  [[nodiscard]] bool ethereal_check_for_collisions();
  // CPhysicsObj::check_collision 0x00512ED0: whether `object`, as an
  // obstacle, blocks this object standing where it is (a placement-type
  // test from this object's position); never for a static object.
  [[nodiscard]] bool check_collision(PhysicsObj& object);
  // CPhysicsObj::remove_shadows_from_cells 0x00511230
  void remove_shadows_from_cells();
  // CPhysicsObj::CacheHasPhysicsBSP 0x0050F570: HasPhysicsBsp when a part
  // has a physics BSP, else cleared.
  bool cache_has_physics_bsp();
  // CPhysicsObj::add_obj_to_cell 0x005159E0: a static object placed as it
  // stands (no placement search) at `frame` in `cell`, then its shadows.
  void add_obj_to_cell(ObjCell& cell, const core::Frame& frame);
  // CPhysicsObj::calc_cross_cells_static 0x00515160: the object's shadows
  // in the cells it overlaps, none loaded for it (do_not_load_cells; one not
  // loaded is kept as a shadow without a cell): an object without a physics
  // BSP but with cylinders by its cylinders as spheres (CObjCell::find_cell_list
  // 0x0052B9F0: each at its low point with its radius, at most 10), any other
  // by its parts' bounding boxes (find_bbox_cell_list).
  void calc_cross_cells_static();
  // CPhysicsObj::find_bbox_cell_list 0x00510FC0: the object's cell, then
  // each cell's transit cells over the parts (CPartArray::calc_cross_cells_static
  // 0x00518160) as the array grows; only its cell without a part array or
  // a Landscape.
  void find_bbox_cell_list(CellArray& cells);
  // CPhysicsObj::calc_cross_cells 0x00515230: the object's shadows
  // recomputed where it stands, loading cells as asked for: a physics-BSP
  // object by its parts' boxes (find_bbox_cell_list), else by its
  // cylinders as spheres at their low points, else by the Setup's sorting
  // sphere. SetPositionInternal 0x00515330 runs it for a physics-BSP mover
  // after each move (others take the transition's cell array).
  void calc_cross_cells();
  // CPhysicsObj::recalc_cross_cells 0x00515A30: calc_cross_cells, then each
  // child's; nothing without a part array or a cell id.
  void recalc_cross_cells();
  // CPhysicsObj::is_completely_visible 0x005112C0: in a cell, with shadows,
  // and every shadow in a loaded cell.
  [[nodiscard]] bool is_completely_visible() const noexcept;
  // CPhysicsObj::transition 0x00512DC0: a transition from `old_pos` (none:
  // placement) to `new_pos` through the world's cells; null when it fails
  // or the world has no cells.
  std::unique_ptr<Transition> transition(const Position* old_pos, const Position& new_pos, bool admin_move);
  // CPhysicsObj::SetPositionInternal 0x00515330: commit a transition's result.
  bool set_position_internal(Transition& t);
  // The cell the object is in (CPhysicsObj::cell), null outside the cell
  // system (no CellSource in the context).
  [[nodiscard]] ObjCell* cell() const noexcept { return cell_; }
  [[nodiscard]] const std::vector<ShadowObj>& shadow_objects() const noexcept { return shadow_objects_; }
  [[nodiscard]] const glm::vec3& sliding_normal() const noexcept { return sliding_normal_; }

  // CPhysicsObj::handle_all_collisions 0x00514780: reports the objects and
  // the environment the transition hit, bounces the velocity off the
  // collision normal (or stops it: Inelastic, a stationary fall) and keeps
  // the stationary-fall transient bits. True when something was reported.
  bool handle_all_collisions(const CollisionInfo& ci, bool prev_has_contact, bool prev_on_walkable);
  // CPhysicsObj::track_object_collision 0x00513F10: a static obstacle is the
  // environment; another object is reported the first time it is touched
  // (its record's time is renewed while it stays touched).
  bool track_object_collision(PhysicsObj& object, bool prev_has_contact);
  // CPhysicsObj::report_object_collision 0x00513060
  bool report_object_collision(PhysicsObj& object, bool prev_has_contact);
  // CPhysicsObj::report_environment_collision 0x00512FC0: once per contact
  // with the environment; a missile stops being one (Missile, AlignPath and
  // PathClipped are cleared), and a reporting object with a weenie plays
  // its default script when it has ScriptedCollision
  // (ACCWeenieObject::DoCollision 0x0058C3A0).
  bool report_environment_collision(bool prev_has_contact);
  // CPhysicsObj::report_collision_end 0x00514620: forgets the objects not
  // touched for over a second (an ethereal one at once; all with `force_end`).
  void report_collision_end(bool force_end);
  // The objects touched and not yet forgotten (CPhysicsObj::collision_table),
  // by id: when last touched (physics time) and whether it was ethereal.
  struct CollisionRecord {
    double touched_time = 0.0;
    bool ethereal = false;
  };
  [[nodiscard]] const std::map<std::uint32_t, CollisionRecord>& collision_table() const noexcept {
    return collision_table_;
  }
  [[nodiscard]] bool colliding_with_environment() const noexcept { return colliding_with_environment_; }

  // CPhysicsObj::leave_world 0x005155A0
  void leave_world();
  // CPhysicsObj::leave_visibility 0x00514220 (its cell is released):
  // prepare_to_leave_visibility, the position kept (store_position), the
  // object joins the lost cell of its cell id (CObjectMaint::GotoLostCell)
  // and Active is cleared.
  void leave_visibility();
  // CPhysicsObj::prepare_to_leave_visibility 0x00511F40: the shadows and the
  // cell go, and the object and its children are queued for destruction
  // (CObjectMaint::AddObjectToBeDestroyed: 25 s).
  void prepare_to_leave_visibility();
  // CPhysicsObj::prepare_to_enter_world 0x00511FA0: out of the lost cell,
  // the object and its children off the destruction queue, and a dynamic
  // object Active.
  void prepare_to_enter_world();
  // CPhysicsObj::reenter_visibility 0x00516250 (its lost cell has loaded):
  // prepare_to_enter_world, then placed where it stood (SetPosition flags
  // 0x11: Placement | Slide); false when the placement fails.
  bool reenter_visibility();
  // CPhysicsObj::set_cell_id: the position's cell id, nothing else.
  void set_cell_id(std::uint32_t cell_id) noexcept { position_.objcell_id = cell_id; }
  // CPhysicsObj::exit_world 0x00514E60
  void exit_world();
  // CPhysicsObj::SetPositionSimple 0x005162B0
  bool set_position_simple(const Position& p, bool sliding);
  // CPhysicsObj::MoveOrTeleport 0x00516330 (the velocity is received, as retail's is, and not installed)
  bool move_or_teleport(const Position& p, std::uint16_t teleport_timestamp, bool contact, const glm::vec3& velocity);
  // No-data fallback N4 (no collision cell): a contact position from the server grounds the object.
  void land_on_server_contact();
  // CPhysicsObj::teleport_hook 0x00514ED0
  void teleport_hook(bool hide);
  // CPhysicsObj::InterpolateTo 0x005104F0
  void interpolate_to(const Position& p, bool keep_heading);
  // CPhysicsObj::ConstrainTo 0x00510520
  void constrain_to(const Position& p, float start_distance, float max_distance);
  // CPhysicsObj::StopInterpolating 0x0050EB40
  void stop_interpolating();
  // CPhysicsObj::IsInterpolating 0x0050EB50
  [[nodiscard]] bool is_interpolating() const;
  // CPhysicsObj::IsFullyConstrained 0x0050EC60
  [[nodiscard]] bool is_fully_constrained() const;
  // CPhysicsObj::GetAutonomyBlipDistance 0x0050EB70: 25 m (player) or 20 m
  // indoors, 100 m outdoors.
  [[nodiscard]] float get_autonomy_blip_distance() const noexcept;
  // CPhysicsObj::GetStartConstraintDistance 0x0050EBC0: 5 m indoors, 10 m outdoors.
  [[nodiscard]] float get_start_constraint_distance() const noexcept;
  // CPhysicsObj::GetMaxConstraintDistance 0x0050EC10: 20 m indoors, 50 m outdoors.
  [[nodiscard]] float get_max_constraint_distance() const noexcept;
  // CPhysicsObj::stick_to_object 0x005127E0: the target's radius and height
  // from its part array (nothing when CPhysicsObj::obj_maint lacks it).
  void stick_to_object(std::uint32_t object_id);
  // CPhysicsObj::unstick_from_object 0x0050EAE0
  void unstick_from_object();
  // CPhysicsObj::get_sticky_object_id 0x0050EAF0
  [[nodiscard]] std::uint32_t get_sticky_object_id() const;
  // CPhysicsObj::HandleUpdateTarget 0x00512BC0: a context-0 report goes to
  // the MovementManager (MoveTo targets), then the PositionManager (sticky).
  void handle_update_target(const TargetInfo& info);
  // CPhysicsObj::set_target 0x0050ED30 (creates the TargetManager)
  void set_target(std::uint32_t context_id, std::uint32_t object_id, float radius, double quantum);
  // CPhysicsObj::clear_target 0x0050ED90
  void clear_target();
  // CPhysicsObj::set_target_quantum 0x0050EDA0
  void set_target_quantum(double new_quantum);
  // CPhysicsObj::get_target_quantum 0x0050EDC0: 0 without a target.
  [[nodiscard]] double get_target_quantum() const;
  // CPhysicsObj::receive_target_update 0x0050EDE0
  void receive_target_update(const TargetInfo& info);
  // CPhysicsObj::add_voyeur 0x0050EE00 (creates the TargetManager)
  void add_voyeur(std::uint32_t object_id, float radius, double quantum);
  // CPhysicsObj::remove_voyeur 0x0050EE50
  bool remove_voyeur(std::uint32_t object_id);
  [[nodiscard]] TargetManager* target_manager() const noexcept { return target_manager_.get(); }
  // CPhysicsObj::GetObjectA 0x0050F490: the object table's object, or null.
  [[nodiscard]] static PhysicsObj* get_object(const SimContext& context, std::uint32_t object_id);
  // CPhysicsObj::get_position_manager 0x00512130 (MakePositionManager first)
  PositionManager* get_position_manager();
  // CPhysicsObj::motions_pending 0x0050EAB0
  [[nodiscard]] bool motions_pending() const;
  // CPhysicsObj::IsMovingTo 0x0050EB10
  [[nodiscard]] bool is_moving_to() const;
  // CPhysicsObj::MoveToObject 0x00512860: to the object's top-level object
  // (its parent when it has one), with its radius and height; nothing when
  // the object table lacks it.
  void move_to_object(std::uint32_t object_id, const MovementParameters& params);
  // CPhysicsObj::MoveToObject_Internal 0x005102E0
  void move_to_object_internal(std::uint32_t object_id, std::uint32_t top_level_id, float object_radius,
                               float object_height, const MovementParameters& params);
  // CPhysicsObj::TurnToObject 0x00512940
  void turn_to_object(std::uint32_t object_id, const MovementParameters& params);
  // CPhysicsObj::TurnToObject_Internal 0x005103F0
  void turn_to_object_internal(std::uint32_t object_id, std::uint32_t top_level_id, const MovementParameters& params);
  // CPhysicsObj::TurnToHeading 0x00512980
  void turn_to_heading(const MovementParameters& params);
  // CPhysicsObj::cancel_moveto 0x005101F0
  void cancel_moveto();
  // CPhysicsObj::GetRadius 0x0050E9C0: the part array's, or 0.
  [[nodiscard]] float get_radius() const;
  // CPhysicsObj::GetHeight 0x0050E9E0: the part array's, or 0.
  [[nodiscard]] float get_height() const;
  // CPhysicsObj::get_minterp 0x005120C0: the motion interpreter (here its
  // MovementManager), created on first use; null when the factory makes none.
  MovementManager* get_minterp();
  // CPhysicsObj::SetPlacementFrame 0x0050F690
  bool set_placement_frame(std::uint32_t frame_id, bool send_event);
  // CPhysicsObj::HasAnims 0x0050F770
  [[nodiscard]] bool has_anims() const;

  // --- parenting -----------------------------------------------------------
  // CPhysicsObj::set_parent 0x00515A90: fails without a holding location.
  bool set_parent(PhysicsObj& parent, std::uint32_t where);
  // CPhysicsObj::unset_parent 0x00513470
  void unset_parent();
  // CPhysicsObj::unparent_children 0x005134E0
  void unparent_children();
  // CPhysicsObj::UpdateChild 0x00512D50
  void update_child(PhysicsObj& child, std::uint32_t part_index, const core::Frame& child_frame);
  // CPhysicsObj::UpdateChildrenInternal 0x00513DA0
  void update_children_internal();

  // --- scripts -------------------------------------------------------------
  // CPhysicsObj::play_script 0x00510D30 (direct DID; only while in a cell)
  bool play_script(std::uint32_t script_did);
  // CPhysicsObj::play_script 0x00513260 (typed, through the current table)
  bool play_script(std::uint32_t script_type, float mod);
  // CPhysicsObj::play_script_internal 0x00510CD0
  bool play_script_internal(std::uint32_t script_did);

  // --- movement ------------------------------------------------------------
  // CPhysicsObj::unpack_movement 0x00512040 (creates the MovementManager on demand).
  void unpack_movement(const protocol::MovementData& data, bool autonomous);
  void set_last_move_was_autonomous(bool autonomous) noexcept { last_move_was_autonomous_ = autonomous; }

  // --- animation and motion (through the part array) ------------------------
  // CPhysicsObj::Hook_AnimDone 0x0050FDA0: the AnimDone hook's Execute.
  void hook_anim_done();
  // CPhysicsObj::MotionDone 0x0050FDB0
  void motion_done(std::uint32_t motion, bool success);
  // CPhysicsObj::RemoveLinkAnimations 0x0050FE20 (CPartArray::HandleEnterWorld)
  void remove_link_animations();
  // CPhysicsObj::CheckForCompletedMotions 0x0050FE30
  void check_for_completed_motions();
  // CPhysicsObj::InitializeMotionTables 0x0050EA60
  void initialize_motion_tables();
  // CPhysicsObj::DoInterpretedMotion 0x0050EA70: 71 without a part array.
  std::uint32_t do_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CPhysicsObj::StopInterpretedMotion 0x0050EA90: 71 without a part array.
  std::uint32_t stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CPhysicsObj::StopCompletely_Internal 0x0050EAD0
  void stop_completely_internal();
  // CPhysicsObj::DoMotion 0x00510020: a raw (autonomous) motion through the
  // MovementManager; 7 without one.
  std::uint32_t do_motion(std::uint32_t motion, const MovementParameters& params);
  // CPhysicsObj::StopMotion 0x005100D0
  std::uint32_t stop_motion(std::uint32_t motion, const MovementParameters& params);
  // CPhysicsObj::StopCompletely 0x00510180
  std::uint32_t stop_completely();
  // CPhysicsObj::InqRawMotionState 0x0050FDE0: null without a motion interpreter.
  [[nodiscard]] const RawMotionState* inq_raw_motion_state() const;
  // The motion interpreter the MovementManager holds (as get_minterp reaches
  // it), or null without a manager or for one without an interpreter.
  [[nodiscard]] MotionInterp* motion_interp() const;
  // CPhysicsObj::get_local_physics_velocity 0x00512140: the velocity in the
  // object's own axes.
  [[nodiscard]] glm::vec3 get_local_physics_velocity() const;
  // The animation hooks staged since the last process_hooks, in order.
  [[nodiscard]] const std::vector<std::unique_ptr<AnimHook>>& anim_hooks() const noexcept { return anim_hooks_; }

 private:
  // CObjCell::find_cell_list 0x0052B9F0: the cells of the cylinders (at
  // most 10) as spheres at their low points with their radii.
  void find_cylsphere_cell_list(std::span<const dat::CylSphere> cyl, CellArray& cells);
  void add_child(PhysicsObj& child, const HoldingLocation& where, std::uint32_t location);
  // SetPositionInternal 0x00515330's same-cell branch: the object's cell
  // id and each child's.
  void set_cell_id_with_children(std::uint32_t cell_id) noexcept;
  // CPhysicsObj::change_cell 0x00513390: leave_cell, then enter_cell.
  void change_cell(ObjCell* new_cell);
  // CPhysicsObj::enter_cell 0x00510ED0: the object and its children take
  // the cell and its id.
  void enter_cell(ObjCell& new_cell);
  // CPhysicsObj::leave_cell 0x00510F50: the object and its children lose
  // the cell (their cell ids stay).
  void leave_cell();
  // CPhysicsObj::add_particle_shadow_to_cell 0x00514A70: one shadow, in
  // the emitter's own cell.
  void add_particle_shadow_to_cell();
  void remove_child(const PhysicsObj& child) noexcept;
  // Commits a position without a collision transition (docs/sim.md).
  bool set_position_internal(const Position& p);
  // The placement transition at `p` (SetPositionInternal 0x00516040).
  bool place(const Position& p, bool slide);
  // `placement`: CPhysicsObj::SetPosition's transition, whose OBJECTINFO
  // starts with no state bits (init_object(this, 0)), not get_object_info's.
  std::unique_ptr<Transition> make_transition(const Position* old_pos, const Position& new_pos, bool admin_move,
                                              bool placement = false);
  // CPhysicsObj::MakePositionManager 0x00510210
  PositionManager* make_position_manager();
  // CPhysicsObj::MakeMovementManager 0x00510270
  void make_movement_manager(bool init_motion);
  // The movement manager MoveToObject_Internal and its kin make (entering
  // the default state), then PerformMovement.
  void perform_move_to(const MovementStruct& mvs);
  // The hidden pose rule (seed portal-completion section 1).
  void republish_pose();
  // The bodies of update_position_internal and update_physics_internal,
  // defined inline in physics_obj.cpp so UpdateObjectInternal's every tick
  // runs the chain without calls (docs/benchmarks.md, "The object loop").
  [[gnu::always_inline]] inline core::Frame position_step(FloatSeconds quantum);
  [[gnu::always_inline]] inline void physics_step(FloatSeconds quantum, core::Frame& frame);
  [[gnu::always_inline]] inline void motion_step(FloatSeconds quantum, glm::vec3& origin);
  // UpdateObjectInternal's candidate frame and its commit for an object with
  // parts, a position manager, hooks or Hidden: out of line, so the tick of
  // the many objects without builds its frame in a small function.
  [[gnu::noinline]] void step_and_commit(FloatSeconds quantum);
  // process_hooks's body, when there are hooks.
  void run_hooks();
  // set_frame's parts and children, when there is a part array.
  void set_frame_parts();
  // sphere_reach's value (physics_obj_cells.cpp).
  [[nodiscard]] float compute_sphere_reach() const noexcept;

  static constexpr float kReachUnknown = -2.0f;
  // The bytes of the members every tick reads (up to and with turns_).
  static constexpr std::size_t kHotBytes = 320;

  // The first five cache lines hold what every object's every tick reads or
  // writes (update_object and UpdateObjectInternal), so a tick over many
  // objects touches five lines of each (docs/benchmarks.md, "The object
  // loop"). The managers and hooks sit here, before the colder members:
  // their destructors (all defaulted) touch none of those.
  SimContext* context_;
  std::uint32_t id_;
  LocalId local_id_;

  std::uint32_t state_ = kInitialState;
  std::uint32_t transient_state_ = 0;
  // parent_ and sphere_reach_ beside state_ and position_: what CObjCell's
  // object search reads of an object it passes over, in one cache line
  // (bytes 16 to 52 of the 64-byte aligned object).
  PhysicsObj* parent_ = nullptr;
  mutable float sphere_reach_ = kReachUnknown;
  Position position_;
  bool in_cell_ = false;
  bool jumped_this_frame_ = false;
  glm::vec3 velocity_{0.0f};
  glm::vec3 acceleration_{0.0f};
  glm::vec3 omega_{0.0f};
  glm::vec3 cached_velocity_{0.0f};
  float scale_ = 1.0f;
  core::Seconds update_time_{0.0};
  glm::vec3 player_vector_{0.0f, 0.0f, 1.0f};
  float player_distance_ = std::numeric_limits<float>::max();
  std::unique_ptr<PartArray> part_array_;
  std::unique_ptr<MovementManager> movement_manager_;
  std::unique_ptr<PositionManager> position_manager_;
  std::unique_ptr<TargetManager> target_manager_;
  std::vector<std::unique_ptr<PhysicsObjHook>> hooks_;  // index 0 is the head
  std::vector<std::unique_ptr<AnimHook>> anim_hooks_;
  // The turn of the last tick's spin (UpdatePhysicsInternal's grotate).
  core::TurnCache turns_;

  float elasticity_ = kDefaultElasticity;
  float friction_ = kDefaultFriction;
  float translucency_ = kDefaultTranslucency;
  float translucency_original_ = kDefaultTranslucency;
  float massinv_ = 1.0f;
  std::uint32_t motion_table_id_ = 0;
  std::uint32_t sound_table_id_ = 0;
  std::uint32_t physics_script_table_id_ = 0;
  std::uint32_t setup_id_ = 0;
  std::uint32_t default_script_ = 0;
  float default_script_intensity_ = 0.0f;
  bool last_move_was_autonomous_ = false;
  std::array<std::uint16_t, protocol::kTimestampCount> update_times_{};
  Plane contact_plane_;
  std::optional<WeenieTraits> weenie_;
  std::map<std::uint32_t, CollisionRecord> collision_table_;
  bool colliding_with_environment_ = false;
  protocol::ObjDesc visual_desc_;
  ObjCell* cell_ = nullptr;
  std::uint32_t contact_plane_cell_id_ = 0;
  glm::vec3 sliding_normal_{0.0f};
  std::vector<ShadowObj> shadow_objects_;

  std::uint32_t parent_location_ = 0;
  std::vector<ChildAttachment> children_;
};

}  // namespace dereth::sim
