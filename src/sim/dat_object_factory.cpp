#include "dereth/sim/dat_object_factory.hpp"

#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/sim/dat_part_array.hpp"

namespace dereth::sim {

std::shared_ptr<const dat::Setup> DatObjectFactory::get_setup(std::uint32_t did) { return records_->setup(did); }

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

std::unique_ptr<PartArray> DatObjectFactory::make_part_array(PhysicsObj& owner, std::uint32_t setup_did) {
  auto setup = get_setup(setup_did);
  if (!setup) return nullptr;
  return std::make_unique<DatPartArray>(owner, std::move(setup), this, this, this);
}

std::unique_ptr<MovementManager> DatObjectFactory::make_movement_manager(PhysicsObj& owner) {
  return std::make_unique<DatMovementManager>(owner);
}

}  // namespace dereth::sim
