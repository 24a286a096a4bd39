#include "landscape_view.hpp"

#include "dereth/core/log.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::app {

namespace {

core::Frame to_core_frame(const dat::Frame& f) { return core::Frame(f.origin, f.orientation); }

// A building's model as drawn: a GfxObj is one part at the building's frame;
// a Setup's parts stand at their placement frames within it (CBuildingObj
// is a CPhysicsObj made from the model, drawn as its part array).
sim::ObjectSnapshot building_object(dat::RecordCache& records, const sim::Position& pos, dat::Did model) {
  sim::ObjectSnapshot o;
  if ((model >> 24) == 0x02u) o.setup_id = model;
  o.cell_id = pos.objcell_id;
  o.root = sim::global_frame(pos);
  if ((model >> 24) == 0x01u) {
    o.parts.push_back(sim::PartPose{model, o.root});
    return o;
  }
  const auto setup = records.setup(model);
  if (!setup) return o;
  const dat::AnimationFrame* placed = nullptr;
  for (const dat::SetupPlacement& p : setup->placement_frames) {
    if (p.key == 0x65u || (p.key == 0 && placed == nullptr)) placed = &p.frame;
  }
  for (std::size_t i = 0; i < setup->parts.size(); ++i) {
    sim::PartPose part;
    part.gfx_obj = setup->parts[i];
    part.frame = o.root;
    if (placed != nullptr && i < placed->part_frames.size()) {
      part.frame = core::Frame::combine(o.root, to_core_frame(placed->part_frames[i]));
    }
    if (i < setup->default_scales.size()) part.scale = setup->default_scales[i];
    o.parts.push_back(part);
  }
  return o;
}

}  // namespace

void append_landscape_view(const dat::DatFile* cell, dat::RecordCache& records, std::uint32_t block_id,
                           const dat::LandBlockInfo& info, sim::LandscapeSnapshot& out) {
  const std::uint32_t key = block_id & 0xFFFF0000u;
  for (const dat::BuildingInfo& b : info.buildings) {
    out.buildings.push_back(building_object(records, sim::Position{key, to_core_frame(b.frame)}, b.model_id));
  }
  if (cell == nullptr) return;
  // EnvCells are numbered from 0x0100 (LandBlockInfo's numCells).
  for (std::uint32_t i = 0; i < info.num_cells && 0x0100u + i < 0xFFFEu; ++i) {
    const std::uint32_t id = key | (0x0100u + i);
    auto entry = cell->find(id);
    if (!entry || !entry->has_value()) continue;
    auto bytes = cell->read(**entry);
    if (!bytes) {
      core::logger(core::Module::App)->warn("EnvCell {:08X}: {}", id, bytes.error().message());
      continue;
    }
    auto env_cell = dat::read_env_cell(*bytes, id);
    if (!env_cell) {
      core::logger(core::Module::App)->warn("EnvCell {:08X}: {}", id, env_cell.error().message());
      continue;
    }
    sim::CellSnapshot c;
    c.cell_id = id;
    c.environment_id = env_cell->environment_did();
    c.cell_struct = env_cell->cell_struct;
    for (std::size_t s = 0; s < env_cell->surfaces.size(); ++s) c.surfaces.push_back(env_cell->surface_did(s));
    c.frame = sim::global_frame(sim::Position{id, to_core_frame(env_cell->position)});
    out.cells.push_back(std::move(c));
  }
}

}  // namespace dereth::app
