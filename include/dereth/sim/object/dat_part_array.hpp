#pragma once
// DatPartArray (retail CPartArray) over a dat::Setup: the object's parts,
// their pose from the animation sequence or the placement frame, the motion
// table manager, holding locations and the per-part render state
// (spec/physics.md section 3; RE cphysobj/CPartArray.c).
//
// Part frames are the objects' block-local frames, as retail's
// CPhysicsPart::pos; publish_parts moves them to world coordinates with the
// object's world frame. UpdateParts scales only the animation origins by the
// object scale; the Setup's default scale multiplies the mesh scale
// (gfxobj_scale), kept apart by SetScaleInternal.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/sim/collision/bsp.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/motion/motion_table_manager.hpp"
#include "dereth/sim/motion/sequence.hpp"
#include "dereth/sim/object/physics_part.hpp"
#include "dereth/sim/object/seams.hpp"

namespace dereth::sim {

class PhysicsObj;

// Placement ids (retail Placement).
namespace placement {
inline constexpr std::uint32_t Default = 0;
inline constexpr std::uint32_t Resting = 0x65;
}  // namespace placement

class DatPartArray final : public PartArray {
 public:
  // CPartArray::CreateSetup 0x005195A0: InitParts, the default animation
  // (CPartArray::InitDefaults 0x00518980), then SetPlacementFrame(Resting).
  // The owner's own InitDefaults runs from the factory's setup_defaults, as
  // SmartBox::create_object calls it. Neither source is owned; both must
  // outlive the part array.
  // `physics` (optional) gives the parts' physics BSPs; without it the
  // parts are no obstacle.
  DatPartArray(PhysicsObj& owner, std::shared_ptr<const dat::Setup> setup, AnimationSource* animations,
               MotionTableSource* motion_tables, GfxObjPhysicsSource* physics = nullptr);

  [[nodiscard]] const dat::Setup& setup() const noexcept { return *setup_; }
  [[nodiscard]] Sequence& sequence() noexcept { return sequence_; }
  [[nodiscard]] const Sequence& sequence() const noexcept { return sequence_; }
  [[nodiscard]] MotionTableManager* motion_table_manager() const noexcept { return manager_.get(); }
  [[nodiscard]] const std::vector<PhysicsPart>& parts() const noexcept { return parts_; }
  [[nodiscard]] const glm::vec3& scale() const noexcept { return scale_; }

  // CPartArray::Update 0x00517DB0
  void update(FloatSeconds quantum, core::Frame& offset) override;
  // CPartArray::HasAnims 0x00517D40
  [[nodiscard]] bool has_anims() const override { return sequence_.has_anims(); }
  // CPartArray::GetNumSphere 0x00518060
  [[nodiscard]] std::size_t num_spheres() const override { return setup_->spheres.size(); }
  // CPartArray::GetSphere 0x00518070
  [[nodiscard]] std::span<const dat::Sphere> spheres() const override { return setup_->spheres; }
  // CPartArray::GetCylsphere 0x00518090
  [[nodiscard]] std::span<const dat::CylSphere> cyl_spheres() const override { return setup_->cyl_spheres; }
  // CPartArray::GetStepUpHeight 0x005180D0
  [[nodiscard]] float step_up_height() const override { return setup_->step_up_height * scale_.z; }
  // CPartArray::GetStepDownHeight 0x005180F0
  [[nodiscard]] float step_down_height() const override { return setup_->step_down_height * scale_.z; }
  // CPartArray::GetRadius 0x005180A0
  [[nodiscard]] float get_radius() const override { return setup_->radius * scale_.z; }
  // CPartArray::GetHeight 0x005180B0
  [[nodiscard]] float get_height() const override { return setup_->height * scale_.z; }
  [[nodiscard]] dat::Sphere sorting_sphere() const override { return setup_->sorting_sphere; }
  // CPartArray::AllowsFreeHeading 0x005180C0
  [[nodiscard]] bool allows_free_heading() const override {
    return (setup_->flags & dat::Setup::kAllowFreeHeading) != 0;
  }
  // CPartArray::SetMotionTableID 0x005186E0
  bool set_motion_table_id(std::uint32_t mtable_id) override;
  // CPartArray::SetPlacementFrame 0x005193D0
  bool set_placement_frame(std::uint32_t frame_id) override;
  // CPartArray::SetFrame 0x00519310
  void set_frame(const core::Frame& frame) override;
  // CPartArray::UpdateParts 0x005190F0
  void update_parts(const core::Frame& frame);
  // CPartArray::SetNoDrawInternal 0x00518300
  void set_no_draw(bool no_draw) override;
  // CPartArray::HandleEnterWorld 0x00517D70
  void handle_enter_world() override;
  // CPartArray::HandleExitWorld 0x00517D90
  void handle_exit_world() override;
  // CPartArray::HandleMovement 0x00517D60
  void handle_movement() override;
  // CPartArray::SetScaleInternal 0x00518A00
  void set_scale(const glm::vec3& scale) override;
  // CPartArray::SetTranslucencyInternal 0x00518340
  void set_translucency(float translucency) override;
  // CPartArray::SetPartTranslucencyInternal 0x00518380 (kAllParts: every part)
  void set_part_translucency(std::uint32_t part, float value) override;
  // CPartArray::SetPartLuminosityInternal 0x005183F0
  void set_part_luminosity(std::uint32_t part, float value) override;
  // CPartArray::SetPartDiffusionInternal 0x00518460
  void set_part_diffusion(std::uint32_t part, float value) override;
  // ReplaceObjectHook -> CPhysicsPart::SetGfxObj
  void replace_part_gfx(std::uint32_t part, std::uint32_t gfx) override;
  // NoDrawHook on one part (CPhysicsPart::SetNoDraw)
  void set_part_no_draw(std::uint32_t part, bool no_draw) override;
  [[nodiscard]] std::size_t num_parts() const override { return parts_.size(); }
  TransitionState find_obj_collisions(Transition& t) override;
  // CPartArray::CacheHasPhysicsBSP 0x00518110
  [[nodiscard]] bool has_physics_bsp() const override;
  void part_bounds(std::uint32_t owner_cell, std::vector<PartBounds>& out) const override;
  // CSetup's holding locations (CPhysicsObj::add_child 0x0050F870 reads them).
  [[nodiscard]] std::optional<HoldingLocation> holding_location(std::uint32_t where) const override;
  [[nodiscard]] std::optional<core::Frame> part_frame(std::uint32_t index) const override;
  void publish_parts(const core::Frame& object_world, std::vector<PartPose>& out) const override;
  // CPartArray::InitLights: the Setup's lights are the object's. SetSetupID
  // turns them on for every object; the Lighting state bit and SetLightHook
  // destroy them and turn them on again.
  void init_lights() override { lights_on_ = true; }
  // CPartArray::DestroyLights
  void destroy_lights() override { lights_on_ = false; }
  [[nodiscard]] bool lights_on() const noexcept { return lights_on_; }
  // The Setup's lights at the object's world frame (view_space_location
  // relative to the object), ARGB unpacked to RGBA.
  void publish_lights(const core::Frame& object_world, LocalId owner, std::vector<LightSnapshot>& out) const override;

  // CPartArray::AnimationDone 0x00517D30
  void animation_done(bool success) override;
  // CPartArray::InitializeMotionTables 0x00517D10
  void initialize_motion_tables() override;
  // CPartArray::CheckForCompletedMotions 0x00517D50
  void check_for_completed_motions() override;
  // CPartArray::DoInterpretedMotion 0x00518750
  std::uint32_t do_interpreted_motion(std::uint32_t motion, const MovementParameters& params) override;
  // CPartArray::StopInterpretedMotion 0x005187F0
  std::uint32_t stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params) override;
  // CPartArray::StopCompletelyInternal 0x00518890
  std::uint32_t stop_completely_internal() override;

 private:
  // CPartArray::InitParts 0x00517F40
  void init_parts();
  // CPartArray::InitDefaults 0x00518980 (the sequence half)
  void init_default_animation();

  PhysicsObj* owner_;
  std::shared_ptr<const dat::Setup> setup_;
  bool lights_on_ = false;
  AnimationSource* animations_;
  MotionTableSource* motion_tables_;
  GfxObjPhysicsSource* physics_;
  Sequence sequence_;
  std::unique_ptr<MotionTableManager> manager_;
  std::vector<PhysicsPart> parts_;
  glm::vec3 scale_{1.0f};
  // The object frame UpdateParts last posed from (block-local).
  core::Frame posed_from_;
};

}  // namespace dereth::sim
