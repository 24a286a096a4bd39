#pragma once
// The seams where later work plugs into the object loop. Each interface names
// the retail owner it stands for; the defaults do what retail does when that
// owner is absent (a null part array, no script table, no position manager).
//
// - EffectsSink: PhysicsScriptTable resolution, ScriptManager, ParticleManager
//   (the effects issue fills it in).
// - PartArray, MovementManager: animation, placement frames, lights, motion
//   (the animation issue fills them in).
// - PositionManager: interpolation, sticky, constraint.
// - ObjectFactory: Setup defaults and the per-object parts above (the DAT
//   reader feeds it).
// - PlayerController: the CommandInterpreter questions the SmartBox asks.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/position.hpp"
#include "dereth/sim/render_snapshot.hpp"
#include "dereth/sim/types.hpp"

namespace dereth::sim {

class PhysicsObj;

// The Setup fields CPhysicsObj::InitDefaults 0x005139D0 reads.
struct SetupDefaults {
  std::uint32_t default_script_id = 0;        // direct PhysicsScript (0x33...)
  std::uint32_t default_motion_table_id = 0;  // 0x09...
  std::uint32_t default_sound_table_id = 0;   // 0x20...
  std::uint32_t default_script_table_id = 0;  // PhysicsScriptTable (0x34...)
  std::uint32_t default_anim_id = 0;          // 0x03...
};

// A Setup holding location: the part it hangs from and the offset frame.
struct HoldingLocation {
  std::uint32_t part_index = 0;
  core::Frame frame;
};

// PhysicsScriptTable, ScriptManager and ParticleManager, as the object loop
// reaches them. Calls name the owner; sinks key on owner.local_id().
class EffectsSink {
 public:
  EffectsSink() = default;
  EffectsSink(const EffectsSink&) = delete;
  EffectsSink& operator=(const EffectsSink&) = delete;
  virtual ~EffectsSink() = default;

  // PhysicsScriptTable::GetScript 0x00521E40: the script for (type,
  // intensity) in table `table_did`, or 0 when there is none. The intensity
  // arrives with its bits intact (NaN included).
  [[nodiscard]] virtual std::uint32_t resolve_script(std::uint32_t /*table_did*/, std::uint32_t /*script_type*/,
                                                     float /*intensity*/) {
    return 0;
  }
  // The same lookup on behalf of `owner` (so traces can name it). The
  // default forwards to resolve_script.
  [[nodiscard]] virtual std::uint32_t resolve_script_for(PhysicsObj& /*owner*/, std::uint32_t table_did,
                                                         std::uint32_t script_type, float intensity) {
    return resolve_script(table_did, script_type, intensity);
  }
  // ScriptManager::AddScript, reached from CPhysicsObj::play_script_internal
  // 0x00510CD0 with a non-zero DID: append to the owner's FIFO. Returns
  // whether the script was queued.
  virtual bool play_script(PhysicsObj& /*owner*/, std::uint32_t /*script_did*/) { return true; }
  // ParticleManager::UpdateParticles, then ScriptManager::UpdateScripts, at
  // the end of CPhysicsObj::UpdateObjectInternal 0x005156B0 (in that order).
  // CPhysicsObj::play_sound, reached from SmartBox::HandleSoundEvent 0x00451FC0.
  virtual bool play_sound(PhysicsObj& /*owner*/, std::uint32_t /*sound_type*/, float /*volume*/) { return true; }
  virtual void update_particles(PhysicsObj& /*owner*/) {}
  virtual void update_scripts(PhysicsObj& /*owner*/) {}
  // The owner is being destroyed (CPhysicsObj::Destroy): drop its queues.
  virtual void object_destroyed(PhysicsObj& /*owner*/) {}
  // CAnimHook::Execute for one DAT hook, whether an animation frame staged it
  // (DatAnimHook below) or a PhysicsScript reached it (ScriptManager). The
  // default does nothing, as an object with no effects attached.
  virtual void execute_hook(PhysicsObj& /*owner*/, const dat::AnimationHook& /*hook*/) {}
  // After a tick: append every live emitter, light and the tick's sound
  // events to the snapshot being built (then forget those sound events).
  virtual void publish(RenderSnapshot& /*snapshot*/) {}
};

// The parts of retail's MovementParameters the motion code reads.
struct MovementParameters {
  // MovementParameters::MovementParameters 0x00524380: CanWalk, CanRun,
  // CanSideStep, CanWalkBackwards, MoveTowards, UseSpheres, SetHoldKey,
  // ModifyRawState, ModifyInterpretedState, CancelMoveTo, StopCompletely.
  static constexpr std::uint32_t kDefaultBitfield = 0x0001EE0F;
  static constexpr std::uint32_t kSetHoldKey = 0x800;
  static constexpr std::uint32_t kAutonomous = 0x1000;
  static constexpr std::uint32_t kModifyRawState = 0x2000;
  static constexpr std::uint32_t kModifyInterpretedState = 0x4000;
  static constexpr std::uint32_t kCancelMoveTo = 0x8000;
  static constexpr std::uint32_t kDisableJumpDuringLink = 0x20000;

  std::uint32_t bitfield = kDefaultBitfield;
  float speed = 1.0f;
  std::uint32_t context_id = 0;
  std::uint32_t action_stamp = 0;
  std::uint32_t hold_key = 0;  // HoldKey_Invalid
};

// CPartArray: the parts, animation sequence, placement and lights of one
// object. Every call mirrors a CPartArray entry point the physics object makes.
class PartArray {
 public:
  PartArray() = default;
  PartArray(const PartArray&) = delete;
  PartArray& operator=(const PartArray&) = delete;
  virtual ~PartArray() = default;

  // CPartArray::Update: advance animation by `quantum`, accumulating root
  // motion into `offset` (object-local).
  virtual void update(FloatSeconds /*quantum*/, core::Frame& /*offset*/) {}
  [[nodiscard]] virtual bool has_anims() const { return false; }            // CPartArray::HasAnims
  [[nodiscard]] virtual std::size_t num_spheres() const { return 0; }       // CPartArray::GetNumSphere
  [[nodiscard]] virtual bool allows_free_heading() const { return false; }  // CPartArray::AllowsFreeHeading
  // CPartArray::SetMotionTableID: false when the table cannot be installed.
  virtual bool set_motion_table_id(std::uint32_t /*mtable_id*/) { return true; }
  virtual bool set_placement_frame(std::uint32_t /*frame_id*/) { return false; }  // CPartArray::SetPlacementFrame
  virtual void set_frame(const core::Frame& /*frame*/) {}                         // CPartArray::SetFrame
  virtual void init_lights() {}                                                   // CPartArray::InitLights
  virtual void destroy_lights() {}                                                // CPartArray::DestroyLights
  virtual void set_no_draw(bool /*no_draw*/) {}                                   // CPartArray::SetNoDrawInternal
  virtual void handle_enter_world() {}                                            // CPartArray::HandleEnterWorld
  virtual void handle_exit_world() {}                                             // CPartArray::HandleExitWorld
  virtual void handle_movement() {}                                               // CPartArray::HandleMovement
  virtual void set_scale(const glm::vec3& /*scale*/) {}                           // CPartArray::SetScaleInternal
  virtual void set_translucency(float /*translucency*/) {}                        // CPartArray::SetTranslucencyInternal
  // Per-part render state the hooks drive (CPhysicsPart setters); `part`
  // kAllParts means every part. Out-of-range parts are ignored, as retail's
  // index check does.
  static constexpr std::uint32_t kAllParts = 0xFFFFFFFFu;
  virtual void set_part_translucency(std::uint32_t /*part*/, float /*value*/) {}  // CPartArray::SetPartTranslucency
  virtual void set_part_luminosity(std::uint32_t /*part*/, float /*value*/) {}    // CPartArray::SetPartLuminosity
  virtual void set_part_diffusion(std::uint32_t /*part*/, float /*value*/) {}     // CPartArray::SetPartDiffusion
  virtual void replace_part_gfx(std::uint32_t /*part*/, std::uint32_t /*gfx*/) {} // ReplaceObjectHook -> CPhysicsPart::SetGfxObj
  virtual void set_part_no_draw(std::uint32_t /*part*/, bool /*no_draw*/) {}     // NoDrawHook on one part
  [[nodiscard]] virtual std::size_t num_parts() const { return 0; }
  // CSetup::GetHoldingLocation: none means set_parent fails, as in retail.
  [[nodiscard]] virtual std::optional<HoldingLocation> holding_location(std::uint32_t /*where*/) const {
    return std::nullopt;
  }
  // The frame of part `index`, or none when the index is out of range (the
  // caller then uses the object's own frame, as CPhysicsObj::UpdateChild does).
  [[nodiscard]] virtual std::optional<core::Frame> part_frame(std::uint32_t /*index*/) const { return std::nullopt; }
  // After a tick: the world pose of every part, given the object's world
  // frame (render snapshot). Default: no parts.
  virtual void publish_parts(const core::Frame& /*object_world*/, std::vector<PartPose>& /*out*/) const {}

  // The motion-table entry points (CPartArray forwards them to its
  // MotionTableManager; without one they do nothing or fail with 7).
  virtual void animation_done(bool /*success*/) {}  // CPartArray::AnimationDone 0x00517D30
  virtual void initialize_motion_tables() {}        // CPartArray::InitializeMotionTables 0x00517D10
  virtual void check_for_completed_motions() {}     // CPartArray::CheckForCompletedMotions 0x00517D50
  // CPartArray::DoInterpretedMotion 0x00518750: 0 on success, else the
  // retail error (7 without a motion table, 0x43 when the table refuses).
  virtual std::uint32_t do_interpreted_motion(std::uint32_t /*motion*/, const MovementParameters& /*params*/) {
    return 7;
  }
  // CPartArray::StopInterpretedMotion 0x005187F0
  virtual std::uint32_t stop_interpreted_motion(std::uint32_t /*motion*/, const MovementParameters& /*params*/) {
    return 7;
  }
  // CPartArray::StopCompletelyInternal 0x00518890
  virtual std::uint32_t stop_completely_internal() { return 7; }
};

// MovementManager / MotionInterp: the object's motion state machine.
class MovementManager {
 public:
  MovementManager() = default;
  MovementManager(const MovementManager&) = delete;
  MovementManager& operator=(const MovementManager&) = delete;
  virtual ~MovementManager() = default;

  // CPhysicsObj::unpack_movement: a movement that passed the Movement and
  // ServerControlledMove gates (CPhysics::SetObjectMovement 0x00509690).
  virtual void unpack_movement(const protocol::MovementData& /*data*/, bool /*autonomous*/) {}
  virtual void use_time() {}                                         // MovementManager::UseTime
  virtual void handle_enter_world() {}                               // MovementManager::HandleEnterWorld
  virtual void handle_exit_world() {}                                // MovementManager::HandleExitWorld
  virtual void cancel_move_to() {}                                   // MovementManager::CancelMoveTo
  virtual void leave_ground() {}                                     // MovementManager::LeaveGround
  virtual void hit_ground() {}                                       // MovementManager::HitGround
  [[nodiscard]] virtual bool is_moving_to() const { return false; }  // CPhysicsObj::IsMovingTo
  virtual void enter_default_state() {}                              // MovementManager::EnterDefaultState 0x005241C0
  virtual void motion_done(std::uint32_t /*motion*/, bool /*success*/) {}  // MovementManager::MotionDone 0x005242D0
  [[nodiscard]] virtual bool motions_pending() const { return false; }  // MovementManager::motions_pending 0x00524280
};

// PositionManager: interpolation, sticky and constraint managers.
class PositionManager {
 public:
  PositionManager() = default;
  PositionManager(const PositionManager&) = delete;
  PositionManager& operator=(const PositionManager&) = delete;
  virtual ~PositionManager() = default;

  // PositionManager::adjust_offset: runs even for Hidden objects
  // (CPhysicsObj::UpdatePositionInternal 0x00512C30).
  virtual void adjust_offset(core::Frame& /*offset*/, FloatSeconds /*quantum*/) {}
  virtual void use_time() {}                                                    // PositionManager::UseTime
  virtual void interpolate_to(const Position& /*p*/, bool /*keep_heading*/) {}  // InterpolationManager::InterpolateTo
  virtual void constrain_to(const Position& /*p*/) {}                           // ConstraintManager::ConstrainTo
  virtual void stop_interpolating() {}
  virtual void unstick() {}
  virtual void unconstrain() {}
};

// A timed object hook (PhysicsObjHook): Execute returns true when the hook is
// finished and must be removed (CPhysicsObj::process_hooks 0x00511550).
class PhysicsObjHook {
 public:
  PhysicsObjHook() = default;
  PhysicsObjHook(const PhysicsObjHook&) = delete;
  PhysicsObjHook& operator=(const PhysicsObjHook&) = delete;
  virtual ~PhysicsObjHook() = default;
  virtual bool execute(PhysicsObj& owner) = 0;
};

// An animation hook staged by the sequence (CAnimHook): executed once by
// process_hooks after the timed hooks, then the list is cleared.
class AnimHook {
 public:
  AnimHook() = default;
  AnimHook(const AnimHook&) = delete;
  AnimHook& operator=(const AnimHook&) = delete;
  virtual ~AnimHook() = default;
  virtual void execute(PhysicsObj& owner) = 0;
};

// An animation-frame hook staged by the Sequence: executes through the
// world's EffectsSink (CPhysicsObj::process_hooks runs it after the timed hooks).
class DatAnimHook final : public AnimHook {
 public:
  explicit DatAnimHook(dat::AnimationHook hook) : hook_(std::move(hook)) {}
  void execute(PhysicsObj& owner) override;
  [[nodiscard]] const dat::AnimationHook& hook() const noexcept { return hook_; }

 private:
  dat::AnimationHook hook_;
};

// Where objects get their Setup data and their per-object parts. The default
// has no DAT data: no Setup, no part array, no managers (objects still load,
// move and gate exactly as retail objects without those parts do).
class ObjectFactory {
 public:
  ObjectFactory() = default;
  ObjectFactory(const ObjectFactory&) = delete;
  ObjectFactory& operator=(const ObjectFactory&) = delete;
  virtual ~ObjectFactory() = default;

  [[nodiscard]] virtual std::optional<SetupDefaults> setup_defaults(std::uint32_t /*setup_did*/) {
    return std::nullopt;
  }
  [[nodiscard]] virtual std::unique_ptr<PartArray> make_part_array(PhysicsObj& /*owner*/, std::uint32_t /*setup_did*/) {
    return nullptr;
  }
  [[nodiscard]] virtual std::unique_ptr<MovementManager> make_movement_manager(PhysicsObj& /*owner*/) {
    return nullptr;
  }
  [[nodiscard]] virtual std::unique_ptr<PositionManager> make_position_manager(PhysicsObj& /*owner*/) {
    return nullptr;
  }
};

// The CommandInterpreter questions SmartBox asks about the local player.
class PlayerController {
 public:
  PlayerController() = default;
  PlayerController(const PlayerController&) = delete;
  PlayerController& operator=(const PlayerController&) = delete;
  virtual ~PlayerController() = default;

  // Whether server vectors and positions move the player (the interpreter
  // slot SmartBox::DoVectorUpdate 0x004521C0 and HandleReceivedPosition
  // 0x00453FD0 both consult). A headless replay follows the server: true.
  [[nodiscard]] virtual bool server_controls_player() const { return true; }
  // Whether an interpolation toward a server position keeps the heading.
  [[nodiscard]] virtual bool keep_heading_on_interpolate() const { return false; }
  // CommandInterpreter::SendPositionEvent 0x006B4770 after a ForcePosition blip.
  virtual void send_position_event(const PhysicsObj& /*player*/) {}
  // A Movement applied to the player (CommandInterpreter notified).
  virtual void movement_applied(const PhysicsObj& /*player*/) {}
};

}  // namespace dereth::sim
