#include "dereth/sim/object/dat_part_array.hpp"

#include <algorithm>
#include <utility>

#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

DatPartArray::DatPartArray(PhysicsObj& owner, std::shared_ptr<const dat::Setup> setup, AnimationSource* animations,
                           MotionTableSource* motion_tables, GfxObjPhysicsSource* physics)
    : owner_(&owner),
      setup_(std::move(setup)),
      animations_(animations),
      motion_tables_(motion_tables),
      physics_(physics) {
  sequence_.set_object(owner_);
  sequence_.set_animation_source(animations_);
  // CPartArray::SetSetupID 0x00519330: InitParts, InitLights, InitDefaults.
  init_parts();
  init_lights();
  init_default_animation();
  set_placement_frame(placement::Resting);
}

// CPartArray::InitParts 0x00517F40
void DatPartArray::init_parts() {
  parts_.resize(setup_->parts.size());
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    parts_[i].gfx_obj = setup_->parts[i];
    // Setup::kHasDefaultScale: the mesh scale starts as the default scale.
    if (i < setup_->default_scales.size()) parts_[i].gfxobj_scale = setup_->default_scales[i];
  }
}

// CPartArray::InitDefaults 0x00518980: the default animation loops at 30 fps
// over all its frames. (Its call of CPhysicsObj::InitDefaults is made by the
// SmartBox from ObjectFactory::setup_defaults.)
void DatPartArray::init_default_animation() {
  if (setup_->default_animation == 0) return;
  sequence_.clear_animations();
  dat::AnimData data;
  data.anim_id = setup_->default_animation;
  data.low_frame = 0;
  data.high_frame = -1;
  data.framerate = 30.0f;
  sequence_.append_animation(data);
}

// CPartArray::FindObjCollisions 0x00518180: each part is posed in the
// owner's cell (CPhysicsPart::pos).
TransitionState DatPartArray::find_obj_collisions(Transition& t) {
  TransitionState result = TransitionState::OK;
  if (physics_ == nullptr) return result;
  for (const PhysicsPart& part : parts_) {
    const std::shared_ptr<const GfxObjPhysics> gfx = physics_->get_gfx_obj_physics(part.gfx_obj);
    if (!gfx) continue;
    Position part_pos;
    part_pos.objcell_id = owner_->position().objcell_id;
    part_pos.frame = part.frame;
    result = find_part_collisions(gfx.get(), part_pos, part.gfxobj_scale.z, t);
    if (result != TransitionState::OK) break;
  }
  return result;
}

// CPartArray::CacheHasPhysicsBSP 0x00518110
bool DatPartArray::has_physics_bsp() const {
  if (physics_ == nullptr) return false;
  return std::any_of(parts_.begin(), parts_.end(), [this](const PhysicsPart& part) {
    return physics_->get_gfx_obj_physics(part.gfx_obj) != nullptr;
  });
}

void DatPartArray::part_bounds(std::uint32_t owner_cell, std::vector<PartBounds>& out) const {
  if (physics_ == nullptr) return;
  for (const PhysicsPart& part : parts_) {
    const auto gfx = physics_->get_part_gfx(part.gfx_obj);
    if (!gfx) continue;
    PartBounds b;
    b.pos = Position{owner_cell, part.frame};
    b.box = gfx->bounds.gfx_bound_box;
    b.sphere = gfx->bounds.physics_sphere ? gfx->bounds.physics_sphere : gfx->bounds.drawing_sphere;
    b.always_2d = gfx->always_2d;
    out.push_back(b);
  }
}

// CPartArray::Update 0x00517DB0
void DatPartArray::update(FloatSeconds quantum, core::Frame& offset) {
  sequence_.update(static_cast<double>(quantum.count()), &offset);
}

// CPartArray::SetMotionTableID 0x005186E0
bool DatPartArray::set_motion_table_id(std::uint32_t mtable_id) {
  if (manager_) {
    if (manager_->get_motion_table_id() == mtable_id) return true;
    manager_.reset();
  }
  if (mtable_id == 0) return true;
  // MotionTableManager::Create: the manager exists even when the table did
  // not load (every movement then fails with NoMotionTable).
  std::shared_ptr<const MotionTable> table;
  if (motion_tables_ != nullptr) table = motion_tables_->get_motion_table(mtable_id);
  manager_ = std::make_unique<MotionTableManager>(owner_, mtable_id, std::move(table));
  return true;
}

// CPartArray::SetPlacementFrame 0x005193D0
bool DatPartArray::set_placement_frame(std::uint32_t frame_id) {
  // The last placement with a key wins, as retail's hash lookup finds it.
  const dat::AnimationFrame* found = nullptr;
  const dat::AnimationFrame* fallback = nullptr;
  for (const dat::SetupPlacement& p : setup_->placement_frames) {
    if (p.key == frame_id) found = &p.frame;
    if (p.key == placement::Default) fallback = &p.frame;
  }
  if (found != nullptr) {
    sequence_.set_placement_frame(found, frame_id);
    return true;
  }
  if (fallback != nullptr) {
    sequence_.set_placement_frame(fallback, placement::Default);
    return true;
  }
  sequence_.set_placement_frame(nullptr, 0);
  return false;
}

// CPartArray::SetFrame 0x00519310 (Setup lights are posed by the effects side)
void DatPartArray::set_frame(const core::Frame& frame) {
  update_parts(frame);
}

// CPartArray::UpdateParts 0x005190F0
void DatPartArray::update_parts(const core::Frame& frame) {
  const dat::AnimationFrame* anim_frame = sequence_.get_curr_animframe();
  // No frame: the parts keep their last pose (retail; ACViewer's identity
  // substitute is not retail).
  if (anim_frame == nullptr) return;
  posed_from_ = frame;
  const std::size_t n = std::min(parts_.size(), anim_frame->part_frames.size());
  for (std::size_t i = 0; i < n; ++i) {
    // Only the animation origin is scaled by the object scale.
    parts_[i].frame = core::Frame::combine(frame, to_core_frame(anim_frame->part_frames[i]), scale_);
  }
}

// CPartArray::SetNoDrawInternal 0x00518300
void DatPartArray::set_no_draw(bool no_draw) {
  for (PhysicsPart& part : parts_) part.no_draw = no_draw;
}

// CPartArray::HandleEnterWorld 0x00517D70
void DatPartArray::handle_enter_world() {
  if (manager_) manager_->handle_enter_world(sequence_);
}

// CPartArray::HandleExitWorld 0x00517D90
void DatPartArray::handle_exit_world() {
  if (manager_) manager_->handle_exit_world();
}

// CPartArray::HandleMovement 0x00517D60
void DatPartArray::handle_movement() {
  if (manager_) manager_->use_time();
}

// CPartArray::SetScaleInternal 0x00518A00
void DatPartArray::set_scale(const glm::vec3& scale) {
  scale_ = scale;
  const bool has_defaults = !setup_->default_scales.empty();
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    if (has_defaults && i < setup_->default_scales.size()) {
      parts_[i].gfxobj_scale = setup_->default_scales[i] * scale_;
    } else {
      parts_[i].gfxobj_scale = scale_;
    }
  }
}

// CPartArray::SetTranslucencyInternal 0x00518340
void DatPartArray::set_translucency(float translucency) {
  for (PhysicsPart& part : parts_) part.translucency = translucency;
}

// CPartArray::SetPartTranslucencyInternal 0x00518380
void DatPartArray::set_part_translucency(std::uint32_t part, float value) {
  if (part == kAllParts) {
    set_translucency(value);
  } else if (part < parts_.size()) {
    parts_[part].translucency = value;
  }
}

// CPartArray::SetPartLuminosityInternal 0x005183F0
void DatPartArray::set_part_luminosity(std::uint32_t part, float value) {
  if (part == kAllParts) {
    for (PhysicsPart& p : parts_) p.luminosity = value;  // CPartArray::SetLuminosityInternal 0x005183B0
  } else if (part < parts_.size()) {
    parts_[part].luminosity = value;
  }
}

// CPartArray::SetPartDiffusionInternal 0x00518460
void DatPartArray::set_part_diffusion(std::uint32_t part, float value) {
  if (part == kAllParts) {
    for (PhysicsPart& p : parts_) p.diffusion = value;  // CPartArray::SetDiffusionInternal 0x00518420
  } else if (part < parts_.size()) {
    parts_[part].diffusion = value;
  }
}

// ReplaceObjectHook -> CPhysicsPart::SetGfxObj
void DatPartArray::replace_part_gfx(std::uint32_t part, std::uint32_t gfx) {
  if (part < parts_.size()) parts_[part].gfx_obj = gfx;
}

// NoDrawHook -> CPhysicsPart::SetNoDraw
void DatPartArray::set_part_no_draw(std::uint32_t part, bool no_draw) {
  if (part == kAllParts) {
    set_no_draw(no_draw);
  } else if (part < parts_.size()) {
    parts_[part].no_draw = no_draw;
  }
}

std::optional<HoldingLocation> DatPartArray::holding_location(std::uint32_t where) const {
  // The last location with a key wins, as retail's hash lookup finds it. An
  // unsigned -1 part (or any part past the end) hangs from the object root.
  std::optional<HoldingLocation> found;
  for (const dat::SetupLocation& loc : setup_->holding_locations) {
    if (static_cast<std::uint32_t>(loc.key) == where) {
      found = HoldingLocation{static_cast<std::uint32_t>(loc.part_id), to_core_frame(loc.frame)};
    }
  }
  return found;
}

std::optional<core::Frame> DatPartArray::part_frame(std::uint32_t index) const {
  if (index >= parts_.size()) return std::nullopt;
  return parts_[index].frame;
}

void DatPartArray::publish_parts(const core::Frame& object_world, std::vector<PartPose>& out) const {
  // Part frames are block-local, posed from `posed_from_`; the world frame of
  // the same object differs by its block offset only.
  const glm::vec3 block_offset = object_world.origin - posed_from_.origin;
  out.resize(parts_.size());
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const PhysicsPart& part = parts_[i];
    PartPose& pose = out[i];
    pose.gfx_obj = part.gfx_obj;
    pose.frame = part.frame;
    pose.frame.origin += block_offset;
    pose.scale = part.gfxobj_scale;
    pose.translucency = part.translucency;
    pose.luminosity = part.luminosity;
    pose.diffuse = part.diffusion;
    pose.no_draw = part.no_draw;
  }
}

void DatPartArray::publish_lights(const core::Frame& object_world, LocalId owner,
                                  std::vector<LightSnapshot>& out) const {
  if (!lights_on_) return;
  const auto channel = [](std::uint32_t argb, unsigned shift) {
    return static_cast<float>((argb >> shift) & 0xFFu) / 255.0f;
  };
  for (const dat::SetupLight& light : setup_->lights) {
    LightSnapshot& l = out.emplace_back();
    l.owner = owner;
    l.position = object_world.localtoglobal(light.view_space_location.origin);
    l.color = {channel(light.color, 16), channel(light.color, 8), channel(light.color, 0), channel(light.color, 24)};
    l.intensity = light.intensity;
    l.falloff = light.falloff;
    l.cone_angle = light.cone_angle;
  }
}

// CPartArray::AnimationDone 0x00517D30
void DatPartArray::animation_done(bool success) {
  if (manager_) manager_->animation_done(success);
}

// CPartArray::InitializeMotionTables 0x00517D10
void DatPartArray::initialize_motion_tables() {
  if (manager_) manager_->initialize_state(sequence_);
}

// CPartArray::CheckForCompletedMotions 0x00517D50
void DatPartArray::check_for_completed_motions() {
  if (manager_) manager_->check_for_completed_motions();
}

// CPartArray::DoInterpretedMotion 0x00518750
std::uint32_t DatPartArray::do_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  if (!manager_) return movement_error::NoMotionTable;
  return manager_->perform_movement(MovementKind::InterpretedCommand, motion, params.speed, sequence_);
}

// CPartArray::StopInterpretedMotion 0x005187F0
std::uint32_t DatPartArray::stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params) {
  if (!manager_) return movement_error::NoMotionTable;
  return manager_->perform_movement(MovementKind::StopInterpretedCommand, motion, params.speed, sequence_);
}

// CPartArray::StopCompletelyInternal 0x00518890
std::uint32_t DatPartArray::stop_completely_internal() {
  if (!manager_) return movement_error::NoMotionTable;
  return manager_->perform_movement(MovementKind::StopCompletely, 0, 1.0f, sequence_);
}

}  // namespace dereth::sim
