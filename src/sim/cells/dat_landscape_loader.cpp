// DatLandscapeLoader: the landscape's cell records from the cell and portal
// DATs, and the static objects of its landblocks and EnvCells
// (CLandBlock::init_static_objs, CEnvCell::init_static_objects,
// CPhysicsObj::makeObject).
#include "dereth/sim/cells/dat_landscape_loader.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "dereth/core/log.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/protocol/physics_desc.hpp"
#include "dereth/sim/cells/land_cell.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/cells/scenery.hpp"
#include "dereth/sim/motion/sequence.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

namespace {

constexpr std::uint32_t kBlockMask = 0xFFFF0000u;

// Stored cell ids (their low halves) as full ids in `id`'s landblock
// (block_mask | each, as CEnvCell::UnPack and CBldPortal::UnPack form them).
std::vector<std::uint32_t> block_cells(std::uint32_t id, std::span<const std::uint16_t> cells) {
  std::vector<std::uint32_t> out;
  out.reserve(cells.size());
  for (const std::uint16_t c : cells) out.push_back((id & kBlockMask) | c);
  return out;
}

// A building's model as drawn: a GfxObj is one part at the building's frame;
// a Setup's parts stand at their placement frames within it (CBuildingObj
// is a CPhysicsObj made from the model, drawn as its part array).
ObjectSnapshot building_object(dat::RecordCache& records, const Position& pos, dat::Did model) {
  ObjectSnapshot o;
  if ((model >> 24) == 0x02u) o.setup_id = model;
  o.cell_id = pos.objcell_id;
  o.root = global_frame(pos);
  if ((model >> 24) == 0x01u) {
    o.parts.push_back(PartPose{model, o.root});
    return o;
  }
  const auto setup = records.setup(model);
  if (!setup) return o;
  const dat::AnimationFrame* placed = placement_frame(*setup);
  for (std::size_t i = 0; i < setup->parts.size(); ++i) {
    PartPose part;
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

// Whether `view` holds any of block `key`'s buildings or EnvCells.
bool has_block(const LandscapeSnapshot& view, std::uint32_t key) {
  const auto in_block = [key](std::uint32_t cell_id) { return (cell_id & kBlockMask) == key; };
  return std::ranges::any_of(view.buildings, [&](const ObjectSnapshot& b) { return in_block(b.cell_id); }) ||
         std::ranges::any_of(view.cells, [&](const CellSnapshot& c) { return in_block(c.cell_id); });
}

}  // namespace

const dat::AnimationFrame* placement_frame(const dat::Setup& setup) noexcept {
  const dat::AnimationFrame* placed = nullptr;
  for (const dat::SetupPlacement& p : setup.placement_frames) {
    if (p.key == 0x65u || (p.key == 0 && placed == nullptr)) placed = &p.frame;
  }
  return placed;
}

DatLandscapeLoader::DatLandscapeLoader(dat::CellRecordCache& cells, dat::LandDefs defs, dat::Did region_id,
                                       dat::RecordCache& records, DatObjectFactory& factory, SimContext& context,
                                       std::unique_ptr<StreamExecutor> executor)
    : cells_(&cells),
      region_id_(region_id),
      records_(&records),
      factory_(&factory),
      context_(&context),
      streamer_(cells, std::move(defs), region_id, std::move(executor)) {
  // A Near build reads ahead what publishing its block will make here.
  streamer_.set_portal_records(&records);
}

bool DatLandscapeLoader::records_ready(std::uint32_t id, bool near) {
  return streamer_.request(id, near ? StreamTier::Near : StreamTier::Far);
}

DatLandscapeLoader::~DatLandscapeLoader() = default;

std::optional<LandBlockStruct> DatLandscapeLoader::load_land_block(std::uint32_t block_id) {
  const LandblockBuild* b = streamer_.published(block_id);
  if (b == nullptr && streamer_.request(block_id, StreamTier::Far)) b = streamer_.published(block_id);
  // Absent: nothing to stand on there; malformed: logged by the build.
  if (b == nullptr || !b->terrain) return std::nullopt;
  block_generation_.insert_or_assign(block_id & kBlockMask, b->generation);
  return *b->terrain;
}

std::shared_ptr<const dat::LandBlockInfo> DatLandscapeLoader::land_block_info(std::uint32_t block_id) {
  const LandblockBuild* b = streamer_.published(block_id);
  if ((b == nullptr || b->tier != StreamTier::Near) && streamer_.request(block_id, StreamTier::Near)) {
    b = streamer_.published(block_id);
  }
  if (b == nullptr || b->tier != StreamTier::Near) return nullptr;
  // A loaded block promoted with records of a newer generation: its unload
  // names that one.
  if (const auto it = block_generation_.find(block_id & kBlockMask); it != block_generation_.end()) {
    it->second = std::max(it->second, b->generation);
  }
  return b->info;
}

std::shared_ptr<const dat::EnvCell> DatLandscapeLoader::env_cell_record(std::uint32_t cell_id) {
  const LandblockBuild* b = streamer_.published(cell_id);
  if ((b == nullptr || b->tier != StreamTier::Near) && streamer_.request(cell_id, StreamTier::Near)) {
    b = streamer_.published(cell_id);
  }
  if (b != nullptr && b->tier == StreamTier::Near) {
    if (const auto it = b->env_cells.find(cell_id); it != b->env_cells.end()) return it->second;
  }
  // One its LandBlockInfo does not number: read at once when nothing
  // streams (as DBObj::Get would), else not there.
  return streamer_.streams() ? nullptr : cells_->env_cell(cell_id);
}

std::vector<Building> DatLandscapeLoader::load_buildings(std::uint32_t block_id) {
  std::vector<Building> out;
  const auto info = land_block_info(block_id);
  if (!info) return out;
  const std::uint32_t key = block_id & kBlockMask;
  for (const dat::BuildingInfo& b : info->buildings) {
    Building building;
    building.pos = Position{key, to_core_frame(b.frame)};
    std::uint32_t gfx = b.model_id;
    if ((b.model_id >> 24) == 0x02u) {
      const auto setup = records_->setup(b.model_id);
      gfx = setup && !setup->parts.empty() ? setup->parts.front() : 0;
      const dat::AnimationFrame* placed = setup ? placement_frame(*setup) : nullptr;
      if (placed != nullptr && !placed->part_frames.empty()) {
        building.pos.frame = core::Frame::combine(building.pos.frame, to_core_frame(placed->part_frames.front()));
      }
    }
    building.physics = factory_->get_gfx_obj_physics(gfx);
    for (const dat::BuildingPortal& p : b.portals) {
      // CBldPortal::UnPack 0x0053BC40
      building.portals.push_back(
          BuildingPortal{key | p.other_cell_id, p.other_portal_id, (p.flags & 2u) == 0, block_cells(key, p.stab_list)});
    }
    out.push_back(std::move(building));
  }
  return out;
}

std::unique_ptr<EnvCell> DatLandscapeLoader::load_env_cell(std::uint32_t cell_id) {
  const auto env_cell = env_cell_record(cell_id);
  if (!env_cell) return nullptr;
  if (const LandblockBuild* b = streamer_.published(cell_id); b != nullptr) {
    env_generation_.insert_or_assign(cell_id, b->generation);
  }
  const dat::Did env_id = env_cell->environment_did();
  const std::uint64_t key = (static_cast<std::uint64_t>(env_id) << 16) | env_cell->cell_struct;
  auto it = structures_.find(key);
  if (it == structures_.end()) {
    std::shared_ptr<const CellStructPhysics> built;
    // The Environment is the world's record (read once through the cache,
    // whichever of its cell structs is asked for).
    if (const auto env = records_->environment(env_id)) {
      if (const dat::CellStruct* cs = dat::find_cell_struct(*env, env_cell->cell_struct)) {
        const std::string context = fmt::format("DAT 0x{:08X} cell struct {}", env_id, env_cell->cell_struct);
        if (auto physics = CellStructPhysics::build(*cs, context)) {
          built = std::make_shared<const CellStructPhysics>(std::move(*physics));
        } else {
          core::logger(core::Module::Sim)->warn("EnvCell {:08X} is not solid: {}", cell_id, physics.error().message());
        }
      } else {
        core::logger(core::Module::Sim)
            ->warn("EnvCell {:08X}: Environment {:08X} has no cell struct {}", cell_id, env_id, env_cell->cell_struct);
      }
    }
    it = structures_.emplace(key, std::move(built)).first;
  }
  if (!it->second) return nullptr;
  std::vector<CellPortal> portals;
  portals.reserve(env_cell->portals.size());
  for (const dat::CellPortal& p : env_cell->portals) {
    portals.push_back(CellPortal::unpack(p, cell_id & kBlockMask, *it->second));
  }
  const Position pos{cell_id, to_core_frame(env_cell->position)};
  auto out = std::make_unique<EnvCell>(cell_id, pos, it->second, std::move(portals));
  out->set_static_objects(env_cell->static_objects);
  // CEnvCell::UnPack: the visible cells, in this landblock; flag 1.
  out->set_stab_list(block_cells(cell_id, env_cell->visible_cells));
  out->set_seen_outside((env_cell->flags & dat::env_cell_flags::kSeenOutside) != 0);
  // CEnvCell::UnPack: the record's restriction object (flag 8), else 0.
  out->set_restriction_obj(env_cell->restriction_obj);
  // A dungeon's cells load without their block's statics (no outside grab
  // makes them while the player is inside): the block's EnvCells go into
  // the view with the first one loaded, once per stay of the block
  // (docs/render.md, "Buildings and EnvCells": every EnvCell of a block in
  // view is drawn).
  if (!view_ || !has_block(*view_, cell_id & kBlockMask)) {
    if (const auto info = land_block_info(cell_id)) {
      auto view = view_ ? std::make_shared<LandscapeSnapshot>(*view_) : std::make_shared<LandscapeSnapshot>();
      append_view(cell_id, *info, *view);
      view_ = std::move(view);
    }
  }
  return out;
}

// CLandBlock::init_static_objs 0x00530A40
void DatLandscapeLoader::init_static_objs(std::uint32_t block_id) {
  const std::uint32_t key = block_id & kBlockMask;
  if (const auto it = block_statics_.find(key); it != block_statics_.end()) {
    recompute_statics(it->second);  // the block's land statics
    return;
  }
  block_statics_[key];
  load_static_objects(block_id);
  // CLandBlock::init_static_objs 0x00530A40: then, with use_scene_files
  // (always here), the block's scenery, with or without a LandBlockInfo.
  load_scenery(block_id);
}

void DatLandscapeLoader::recompute_statics(const std::vector<std::unique_ptr<PhysicsObj>>& owned) {
  for (const auto& obj : owned) {
    if (obj->cell() != nullptr && !obj->is_completely_visible()) obj->calc_cross_cells_static();
  }
}

void DatLandscapeLoader::free_statics(std::vector<std::unique_ptr<PhysicsObj>>& owned) {
  std::unordered_set<const PhysicsObj*> going;
  for (const auto& obj : owned) going.insert(obj.get());
  std::erase_if(statics_, [&](const PhysicsObj* p) { return going.contains(p); });
  owned.clear();
}

// CLandBlock::init_static_objs 0x00530A40 (a block with none made): each
// stab made as a static object (CPhysicsObj::makeObject 0x00513970, not
// dynamic) in the land cell holding its origin, at its frame as it stands;
// one off the block is dropped; then the land cells' restriction objects.
void DatLandscapeLoader::load_static_objects(std::uint32_t block_id) {
  const std::uint32_t key = block_id & kBlockMask;
  const auto info = land_block_info(block_id);
  if (!info) return;
  // Unless one of its EnvCells put them there already (load_env_cell).
  if (!view_ || !has_block(*view_, key)) {
    auto view = view_ ? std::make_shared<LandscapeSnapshot>(*view_) : std::make_shared<LandscapeSnapshot>();
    append_view(block_id, *info, *view);
    view_ = std::move(view);
  }
  auto& owned = block_statics_[key];
  for (const dat::Stab& stab : info->objects) {
    auto obj = make_object(stab.id);
    if (!obj) continue;
    std::uint32_t cell_id = key | 0xFFFFu;
    glm::vec3 origin = stab.frame.origin;
    if (!LandDefs::adjust_to_outside(cell_id, origin) || (cell_id & kBlockMask) != key) continue;
    ObjCell* land_cell = landscape_->get_cell(cell_id);
    if (land_cell == nullptr) continue;
    obj->add_obj_to_cell(*land_cell, to_core_frame(stab.frame));
    statics_.push_back(obj.get());
    owned.push_back(std::move(obj));
  }
  landscape_->init_restrictions(block_id, *info);
}

// The block's buildings (each model's parts at their world frames, a Setup's
// at its placement frame) and its EnvCells (0xXXYY0100 up to num_cells).
void DatLandscapeLoader::append_view(std::uint32_t block_id, const dat::LandBlockInfo& info, LandscapeSnapshot& out) {
  const std::uint32_t key = block_id & kBlockMask;
  for (const dat::BuildingInfo& b : info.buildings) {
    out.buildings.push_back(building_object(*records_, Position{key, to_core_frame(b.frame)}, b.model_id));
  }
  if (cells_->cell() == nullptr) return;
  // EnvCells are numbered from 0x0100 (LandBlockInfo's numCells).
  for (std::uint32_t i = 0; i < info.num_cells && 0x0100u + i < 0xFFFEu; ++i) {
    const std::uint32_t id = key | (0x0100u + i);
    const auto env_cell = env_cell_record(id);
    if (!env_cell) continue;
    CellSnapshot c;
    c.cell_id = id;
    c.environment_id = env_cell->environment_did();
    c.environment = records_->environment(c.environment_id);
    c.cell_struct = env_cell->cell_struct;
    for (std::size_t s = 0; s < env_cell->surfaces.size(); ++s) c.surfaces.push_back(env_cell->surface_did(s));
    c.frame = global_frame(Position{id, to_core_frame(env_cell->position)});
    out.cells.push_back(std::move(c));
  }
}

void DatLandscapeLoader::destroy_static_objects(std::uint32_t block_id) {
  const std::uint32_t key = block_id & kBlockMask;
  const auto in_block = [key](std::uint32_t cell_id) { return (cell_id & kBlockMask) == key; };
  // The block's own statics; an EnvCell's go with the cell.
  if (const auto it = block_statics_.find(key); it != block_statics_.end()) {
    free_statics(it->second);
    block_statics_.erase(it);
  }
  if (!view_) return;
  auto view = std::make_shared<LandscapeSnapshot>(*view_);
  std::erase_if(view->buildings, [&](const ObjectSnapshot& b) { return in_block(b.cell_id); });
  std::erase_if(view->cells, [&](const CellSnapshot& c) { return in_block(c.cell_id); });
  view_ = std::move(view);
}

void DatLandscapeLoader::release_land_block(std::uint32_t block_id) {
  destroy_static_objects(block_id);
  // Its records are let go (read again when it loads again, unless the
  // renderer's terrain still holds them), those of a newer region kept.
  const std::uint32_t key = block_id & kBlockMask;
  const auto it = block_generation_.find(key);
  streamer_.unload(key, it != block_generation_.end() ? it->second : streamer_.generation());
  if (it != block_generation_.end()) block_generation_.erase(it);
}

void DatLandscapeLoader::notify_change_size(std::uint32_t block_id) {
  destroy_static_objects(block_id);
  streamer_.demote(block_id);
}

std::unique_ptr<PhysicsObj> DatLandscapeLoader::make_object(std::uint32_t did, std::uint32_t id) {
  namespace ps = protocol::physics_state;
  auto obj = std::make_unique<PhysicsObj>(*context_, id, LocalId::None);
  auto parts = factory_->make_part_array(*obj, did);
  if (!parts) return nullptr;
  obj->set_part_array(std::move(parts));
  // CPhysicsObj::InitObjectBegin 0x0050FF80: a static object.
  obj->set_state(obj->state() | ps::Static, false);
  obj->cache_has_physics_bsp();
  return obj;
}

// CLandBlock::get_land_scenes 0x00530460: each placement made
// (CPhysicsObj::makeObject) at its frame, kept when it lies within the block
// (CPhysicsObj::obj_within_block 0x00511030), added to its land cell, then
// scaled (CPhysicsObj::SetScaleStatic 0x00511BB0) and kept with the block's
// statics. Each made one takes the block's next scenery id (0x8XXYYIII);
// past 0xFFF the rest of the block's scenery is dropped, loudly.
void DatLandscapeLoader::load_scenery(std::uint32_t block_id) {
  const std::uint32_t key = block_id & kBlockMask;
  const LandBlockStruct* terrain = landscape_ != nullptr ? landscape_->land_block(block_id) : nullptr;
  if (terrain == nullptr) return;
  // A malformed landblock loads flat and empty (LandblockStreamer::build): no scenery on it either.
  if (const LandblockBuild* b = streamer_.published(block_id); b != nullptr && b->malformed) return;
  const auto region = records_->region(region_id_);
  if (!region) return;  // retail: no CRegionDesc::current_region, no scenery
  const auto scenes = [this](dat::Did id) { return records_->scene(id); };
  const auto has_building = [&](std::size_t cell) {
    const auto* land_cell = dynamic_cast<const LandCell*>(landscape_->get_cell(terrain->cell_id(cell)));
    return land_cell != nullptr && land_cell->building() != nullptr;
  };
  const std::vector<ScenePlacement> placements = get_land_scenes(*terrain, *region, scenes, has_building);
  auto& owned = block_statics_[key];
  std::uint32_t counter = 0;
  for (const ScenePlacement& p : placements) {
    const std::optional<std::uint32_t> id = scenery_id(block_id, counter);
    if (!id) {
      core::logger(core::Module::Sim)
          ->error("landblock {:08X}: more than {} scenery objects; the rest of its scenery is not made", key | 0xFFFFu,
                  kMaxSceneryPerBlock);
      return;
    }
    auto obj = make_object(p.obj_id, *id);
    if (!obj) continue;
    obj->set_frame(p.frame);  // CPhysicsObj::set_initial_frame
    if (!obj_within_block(*obj)) continue;
    ObjCell* land_cell = landscape_->get_cell(terrain->cell_id(p.cell_index));
    if (land_cell == nullptr) continue;
    obj->add_obj_to_cell(*land_cell, p.frame);
    obj->set_scale_static(p.scale);
    ++counter;
    statics_.push_back(obj.get());
    owned.push_back(std::move(obj));
  }
}

// CEnvCell::Destroy (its static objects; its record is read again when it
// loads again)
void DatLandscapeLoader::destroy_env_cell(std::uint32_t cell_id) {
  if (const auto it = env_cell_statics_.find(cell_id); it != env_cell_statics_.end()) {
    free_statics(it->second);
    env_cell_statics_.erase(it);
  }
  // The last cell of a block the landscape does not hold (a dungeon's):
  // the block's records go, those of a newer region kept.
  const auto gen = env_generation_.find(cell_id);
  if (gen == env_generation_.end()) return;
  const std::uint64_t generation = gen->second;
  env_generation_.erase(gen);
  const std::uint32_t key = cell_id & kBlockMask;
  if (landscape_ != nullptr && !landscape_->holds_block(key)) streamer_.unload(key, generation);
}

// CEnvCell::init_static_objects 0x0052C350: made, each static not
// completely visible recomputes its cells; else each static object the
// cell's record placed, at its frame as it stands.
void DatLandscapeLoader::init_static_objects(EnvCell& cell) {
  const std::uint32_t id = cell.id();
  if (const auto it = env_cell_statics_.find(id); it != env_cell_statics_.end()) {
    recompute_statics(it->second);
    return;
  }
  if (cell.static_objects().empty()) return;
  auto& owned = env_cell_statics_[id];
  for (const dat::Stab& stab : cell.static_objects()) {
    auto obj = make_object(stab.id);
    if (!obj) continue;
    obj->add_obj_to_cell(cell, to_core_frame(stab.frame));
    statics_.push_back(obj.get());
    owned.push_back(std::move(obj));
  }
}

}  // namespace dereth::sim
