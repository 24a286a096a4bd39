#include "dereth/sim/object/dat_object_factory.hpp"

#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/motion/dat_movement_manager.hpp"
#include "dereth/sim/object/dat_part_array.hpp"

namespace dereth::sim {

std::shared_ptr<const dat::Setup> DatObjectFactory::get_setup(std::uint32_t did) {
  return records_->setup(did);
}

std::shared_ptr<const dat::Animation> DatObjectFactory::get_animation(std::uint32_t did) {
  return records_->animation(did);
}

std::shared_ptr<const MotionTable> DatObjectFactory::get_motion_table(std::uint32_t did) {
  if (did == 0) return nullptr;
  if (auto it = motion_tables_.find(did); it != motion_tables_.end()) return it->second;
  std::shared_ptr<const MotionTable> table;
  if (auto data = records_->motion_table(did)) table = std::make_shared<const MotionTable>(std::move(data));
  motion_tables_.emplace(did, table);
  return table;
}

std::shared_ptr<const GfxObjPhysics> DatObjectFactory::get_gfx_obj_physics(std::uint32_t did) {
  if (did == 0) return nullptr;
  if (auto it = physics_.find(did); it != physics_.end()) return it->second;
  std::shared_ptr<const GfxObjPhysics> physics;
  if (const auto gfx = records_->gfx_obj(did); gfx && !gfx->physics_bsp.nodes.empty()) {
    if (auto tree = BspTree::from_gfx_obj(*gfx); tree) {
      const dat::Sphere sphere = tree->get_sphere();
      physics = std::make_shared<const GfxObjPhysics>(GfxObjPhysics{did, std::move(*tree), sphere});
    } else {
      core::logger(core::Module::Sim)->warn("GfxObj {:#010x} is no obstacle: {}", did, tree.error().message());
      refused_physics_.push_back(tree.error());
    }
  }
  physics_.emplace(did, physics);
  return physics;
}

// CPhysicsPart::LoadGfxObjArray 0x0050DCF0 (the first level's GfxObj),
// CGfxObj::init_end 0x00534200 (its vertices' box), CGfxObj::UnPack (its
// trees' root spheres), CPhysicsPart::Always2D 0x0050D8A0.
std::optional<GfxObjPhysicsSource::PartGfx> DatObjectFactory::get_part_gfx(std::uint32_t did) {
  const auto root = records_->gfx_obj(did);
  if (!root) return std::nullopt;
  std::shared_ptr<const dat::GfxObj> gfx = root;
  PartGfx out;
  if ((root->flags & dat::GfxObj::kHasDidDegrade) != 0 && root->degrade_id != 0) {
    if (const auto info = records_->gfx_obj_degrade_info(root->degrade_id); info && !info->degrades.empty()) {
      out.always_2d = info->degrades.front().degrade_mode != 1;
      gfx = info->degrades.front().gfx_obj != 0 ? records_->gfx_obj(info->degrades.front().gfx_obj) : nullptr;
      if (!gfx) return std::nullopt;
    }
  }
  if (!gfx->vertices.empty()) {
    out.bounds.gfx_bound_box.min = out.bounds.gfx_bound_box.max = gfx->vertices.front().origin;
    for (const dat::SwVertex& v : gfx->vertices) out.bounds.gfx_bound_box.adjust(v.origin);
  }
  if ((gfx->flags & dat::GfxObj::kHasPhysics) != 0 && !gfx->physics_bsp.nodes.empty()) {
    out.bounds.physics_sphere = gfx->physics_bsp.nodes.front().sphere;
  }
  if ((gfx->flags & dat::GfxObj::kHasDrawing) != 0 && !gfx->drawing_bsp.nodes.empty()) {
    out.bounds.drawing_sphere = gfx->drawing_bsp.nodes.front().sphere;
  }
  return out;
}

std::optional<SetupDefaults> DatObjectFactory::setup_defaults(std::uint32_t setup_did) {
  const auto setup = get_setup(setup_did);
  if (!setup) return std::nullopt;
  SetupDefaults d;
  d.default_script_id = setup->default_script;
  d.default_motion_table_id = setup->default_motion_table;
  d.default_sound_table_id = setup->default_sound_table;
  d.default_script_table_id = setup->default_script_table;
  d.default_anim_id = setup->default_animation;
  return d;
}

// CSetup::makeSimpleSetup 0x00520090: one part, the GfxObj, with one
// Default placement frame at the object's own frame.
std::shared_ptr<const dat::Setup> DatObjectFactory::make_simple_setup(std::uint32_t gfx_obj_did) {
  if (auto it = simple_setups_.find(gfx_obj_did); it != simple_setups_.end()) return it->second;
  std::shared_ptr<const dat::Setup> made;
  if (records_->gfx_obj(gfx_obj_did)) {
    auto setup = std::make_shared<dat::Setup>();
    setup->parts.push_back(gfx_obj_did);
    dat::SetupPlacement placement;
    placement.key = 0;
    placement.frame.part_frames.emplace_back();
    setup->placement_frames.push_back(std::move(placement));
    made = std::move(setup);
  }
  simple_setups_.emplace(gfx_obj_did, made);
  return made;
}

std::unique_ptr<PartArray> DatObjectFactory::make_part_array(PhysicsObj& owner, std::uint32_t setup_did) {
  // CPhysicsObj::InitPartArrayObject 0x005126B0: a GfxObj id makes a
  // one-part array (CPartArray::CreateMesh 0x00519640).
  auto setup = (setup_did >> 24) == 0x01u ? make_simple_setup(setup_did) : get_setup(setup_did);
  if (!setup) return nullptr;
  return std::make_unique<DatPartArray>(owner, std::move(setup), this, this, this);
}

// What make_part_array, get_part_gfx and the part array read (see the header).
void DatObjectFactory::read_ahead(dat::RecordCache& portal, std::uint32_t id) {
  const auto gfx = [&](dat::Did g) {
    const auto obj = portal.gfx_obj(g);
    if (obj && (obj->flags & dat::GfxObj::kHasDidDegrade) != 0 && obj->degrade_id != 0) {
      if (const auto info = portal.gfx_obj_degrade_info(obj->degrade_id); info && !info->degrades.empty()) {
        if (info->degrades.front().gfx_obj != 0) (void)portal.gfx_obj(info->degrades.front().gfx_obj);
      }
    }
  };
  if ((id >> 24) == 0x01u) {
    gfx(id);
    return;
  }
  const auto setup = portal.setup(id);
  if (!setup) return;
  for (const dat::Did part : setup->parts) gfx(part);
  if (setup->default_animation != 0) (void)portal.animation(setup->default_animation);
  if (setup->default_motion_table != 0) (void)portal.motion_table(setup->default_motion_table);
  if (setup->default_script != 0) (void)portal.physics_script(setup->default_script);
  if (setup->default_script_table != 0) (void)portal.physics_script_table(setup->default_script_table);
  if (setup->default_sound_table != 0) (void)portal.sound_table(setup->default_sound_table);
}

std::unique_ptr<MovementManager> DatObjectFactory::make_movement_manager(PhysicsObj& owner) {
  return std::make_unique<DatMovementManager>(owner);
}

}  // namespace dereth::sim
