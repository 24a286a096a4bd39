#pragma once
// PartArray: the seam for CPartArray (parts, animation sequence, placement,
// lights) of one object (DatPartArray is the real one).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/dat/types.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/motion/movement_manager.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;
class Transition;
enum class TransitionState : std::uint8_t;

// A Setup holding location: the part it hangs from and the offset frame.
struct HoldingLocation {
  std::uint32_t part_index = 0;
  core::Frame frame;
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
  [[nodiscard]] virtual bool has_anims() const { return false; }       // CPartArray::HasAnims
  [[nodiscard]] virtual std::size_t num_spheres() const { return 0; }  // CPartArray::GetNumSphere
  // CPartArray::GetSphere 0x00518070: the Setup's spheres (Setup space, unscaled).
  // These and the cylinders are fixed for the part array's life: its owner
  // caches their reach (PhysicsObj::sphere_reach).
  [[nodiscard]] virtual std::span<const dat::Sphere> spheres() const { return {}; }
  // CPartArray::GetCylsphere 0x00518090
  [[nodiscard]] virtual std::span<const dat::CylSphere> cyl_spheres() const { return {}; }
  // CPartArray::GetStepUpHeight 0x005180D0: the Setup's times scale.z; 0.01 without a Setup.
  [[nodiscard]] virtual float step_up_height() const { return 0.0099999998f; }
  // CPartArray::GetStepDownHeight 0x005180F0
  [[nodiscard]] virtual float step_down_height() const { return 0.0099999998f; }
  [[nodiscard]] virtual bool allows_free_heading() const { return false; }  // CPartArray::AllowsFreeHeading
  [[nodiscard]] virtual float get_radius() const { return 0.0f; }           // CPartArray::GetRadius
  [[nodiscard]] virtual float get_height() const { return 0.0f; }           // CPartArray::GetHeight
  // CPartArray::GetSortingSphere: the Setup's sorting sphere (unscaled); a
  // zero sphere without a Setup.
  [[nodiscard]] virtual dat::Sphere sorting_sphere() const { return {}; }
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
  virtual void replace_part_gfx(std::uint32_t /*part*/, std::uint32_t /*gfx*/) {
  }  // ReplaceObjectHook -> CPhysicsPart::SetGfxObj
  virtual void set_part_no_draw(std::uint32_t /*part*/, bool /*no_draw*/) {}  // NoDrawHook on one part
  [[nodiscard]] virtual std::size_t num_parts() const { return 0; }
  // CPartArray::FindObjCollisions 0x00518180: each part's physics BSP in
  // turn until one is not OK; OK (1) without parts.
  virtual TransitionState find_obj_collisions(Transition& /*t*/) { return TransitionState{1}; }
  // CPartArray::CacheHasPhysicsBSP 0x00518110: whether a part has a physics BSP.
  [[nodiscard]] virtual bool has_physics_bsp() const { return false; }
  // CPartArray::parts as CPartArray::calc_cross_cells_static 0x00518160
  // hands them to a cell: each part made (its GfxObj present) with its
  // Position (`owner_cell` and the part's block-local frame), its GfxObj's
  // bounding box and sphere, and Always2D, appended to `out`.
  virtual void part_bounds(std::uint32_t /*owner_cell*/, std::vector<PartBounds>& /*out*/) const {}
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
  // The object's lights while InitLights has them on, posed from its world
  // frame, appended to `out` (the render snapshot's lights).
  virtual void publish_lights(const core::Frame& /*object_world*/, LocalId /*owner*/,
                              std::vector<LightSnapshot>& /*out*/) const {}

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

}  // namespace dereth::sim
