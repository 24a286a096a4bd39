// CLandCell and LScape's outdoor cell lookup (spec/physics.md 5.4 and 5.7;
// RE ccell/CLandCell.c, ccell/CObjCell.c).
#include "dereth/sim/cells/landscape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

namespace {

// An EnvCell's id: its low half 0x0100..0xFFFD (below are land cells; the
// block's 0xFFFE and 0xFFFF are its LandBlockInfo and terrain).
bool is_env_cell_id(std::uint32_t cell_id) noexcept {
  const std::uint32_t low = cell_id & 0xFFFFu;
  return low >= 0x100u && low <= 0xFFFDu;
}

}  // namespace

// CELLARRAY::add_cell
void add_cell(CellArray& out, std::uint32_t cell_id, ObjCell* cell) {
  const auto same = [cell_id](const CellArrayEntry& e) { return e.cell_id == cell_id; };
  if (std::find_if(out.cells.begin(), out.cells.end(), same) != out.cells.end()) return;
  out.cells.push_back(CellArrayEntry{cell_id, cell});
}

// ---- CLandCell ----------------------------------------------------------------------

LandCell::LandCell(const LandBlockStruct& block, std::size_t cell_index)
    : ObjCell(block.cell_id(cell_index)), block_(&block), index_(cell_index) {}

// CLandCell::point_in_cell 0x00532D40
bool LandCell::point_in_cell(const glm::vec3& block_local) const {
  return block_->find_terrain_poly(index_, block_local) != nullptr;
}

// CObjCell::get_water_depth 0x0052B8A0
float LandCell::get_water_depth(const glm::vec3& point) const noexcept {
  return sim::get_water_depth(water_type(), block_, id(), point);
}

// CLandCell::find_env_collisions 0x00532F20
TransitionState LandCell::find_env_collisions(Transition& t) {
  const TransitionState entry = check_entry_restrictions(t);
  if (entry != TransitionState::OK) return entry;
  const glm::vec3 block = LandDefs::get_block_offset(t.sphere_path.check_pos.objcell_id, id());
  const glm::vec3 low_point = t.sphere_path.global_low_point - block;
  const LandPolygon* poly = block_->find_terrain_poly(index_, low_point);
  if (poly == nullptr) return TransitionState::OK;
  // CObjCell::get_block_water_type: a wholly-water landblock stops all but
  // the viewer and missiles.
  if (block_->water_type() == WaterType::EntirelyWater && (t.object_info.state & object_info_state::IsViewer) == 0 &&
      t.object_info.object != nullptr && (t.object_info.object->state() & protocol::physics_state::Missile) == 0) {
    return TransitionState::Collided;
  }
  const float depth = get_water_depth(low_point);
  CollisionSphere check = t.sphere_path.global_sphere[0];
  check.center -= block;
  const Plane plane{poly->plane.normal, poly->plane.d};
  return t.object_info.validate_walkable(check, plane, water_type() != WaterType::NotWater, depth, t, id());
}

// CLandCell::handle_move_restriction 0x00533070
bool LandCell::handle_move_restriction(Transition& t) {
  constexpr float kHalfCell = LandDefs::kHalfSquareLength;  // flt_844CF0, 24 * 0.5
  const glm::vec3 offset = get_offset(pos(), t.sphere_path.curr_pos);
  glm::vec3 normal(0.0f);
  if (offset.y < -kHalfCell) {
    normal.y = -1.0f;
  } else if (offset.y > kHalfCell) {
    normal.y = 1.0f;
  } else {
    normal.x = offset.x < -kHalfCell ? -1.0f : 1.0f;
  }
  t.collision_info.set_collision_normal(normal);
  return true;
}

// CLandBlockStruct::ConstructPolygons 0x00531D10 (the cell's pos)
Position LandCell::pos() const noexcept {
  const auto side = static_cast<std::size_t>(LandDefs::kBlockSide);
  const float x = static_cast<float>(2 * (index_ / side) + 1);
  const float y = static_cast<float>(2 * (index_ % side) + 1);
  constexpr float kHalfCell = LandDefs::kHalfSquareLength;  // flt_844C8C, 24 * 0.5
  return Position{id(), core::Frame(glm::vec3(x * kHalfCell, y * kHalfCell, 0.0f), glm::quat(1, 0, 0, 0))};
}

// CLandCell::find_collisions 0x00532D60
TransitionState LandCell::find_collisions(Transition& t) {
  TransitionState result = find_env_collisions(t);
  if (result != TransitionState::OK) return result;
  // CSortCell::find_collisions 0x005340A0
  if (building_ != nullptr) result = building_->find_building_collisions(t);
  if (result != TransitionState::OK) return result;
  return find_obj_collisions(t);
}

// CLandCell::find_transit_cells 0x00533800
void LandCell::find_transit_cells(Landscape& scape, const Position& p, std::uint32_t num_sphere,
                                  const CollisionSphere* spheres, CellArray& out, SpherePath* path) {
  scape.add_all_outside_cells(p, num_sphere, spheres, out);
  // CSortCell::find_transit_cells 0x00534060
  if (building_ != nullptr) building_->find_building_transit_cells(scape, num_sphere, spheres, out, path);
}

// CLandCell::grab_visible_cells 0x00532D90
void LandCell::grab_visible_cells(Landscape& scape) {
  scape.grab_visible_cells();
}

// CLandCell::release_cells 0x00532DA0
void LandCell::release_cells(Landscape& scape) {
  scape.release_visible_cells();
}

// CLandCell::find_transit_cells 0x00533840
void LandCell::find_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) {
  scape.add_all_outside_cells(parts, out);
  // CSortCell::find_transit_cells 0x00534080
  if (building_ != nullptr) building_->find_building_transit_cells(scape, parts, out);
}

// ---- LScape -----------------------------------------------------------------------

// CLandBlockInfo::GetRestrictionIID 0x0052EF70
std::uint32_t get_restriction_iid(const dat::LandBlockInfo& info, std::uint32_t landcell_id) noexcept {
  if (!info.has_restrictions()) return 0;
  for (const dat::RestrictionEntry& e : info.restrictions) {
    if (e.key == landcell_id) return e.value;
  }
  return 0;
}

// CLandBlock::init_static_objs 0x00530A40 (its restriction loop)
void Landscape::init_restrictions(std::uint32_t block_id, const dat::LandBlockInfo& info) {
  const auto it = blocks_.find(block_id & 0xFFFF0000u);
  if (it == blocks_.end()) return;
  for (const auto& cell : it->second.cells) {
    if (const std::uint32_t iid = get_restriction_iid(info, cell->id()); iid != 0) cell->set_restriction_obj(iid);
  }
}

bool Landscape::add_block(LandBlockStruct terrain, std::vector<Building> buildings) {
  const std::uint32_t key = terrain.block_id() & 0xFFFF0000u;
  if (auto it = blocks_.find(key); it != blocks_.end()) {
    for (const auto& cell : it->second.cells) {
      if (!cell->shadow_objects().empty()) return false;
    }
  }
  insert_block(key, std::move(terrain), std::move(buildings), grid_side_cell_count(key));
  // Placed by hand: no lost objects to call in.
  Block& block = blocks_.at(key);
  block.dyn_objs_init_done = block.side_cell_count == 8;
  return true;
}

std::uint32_t Landscape::grid_side_cell_count(std::uint32_t key) const noexcept {
  int ix = 0;
  int iy = 0;
  if (loaded_cell_id_ == 0 || !grid_slot(loaded_cell_id_, key, ix, iy)) return 8;
  return 8u / dat::get_block_orient(mid_radius_, ix, iy).size;
}

bool Landscape::grid_slot(std::uint32_t centre, std::uint32_t id, int& ix, int& iy) const noexcept {
  ix = static_cast<int>(id >> 24) - static_cast<int>(centre >> 24) + mid_radius_;
  iy = static_cast<int>((id >> 16) & 0xFFu) - static_cast<int>((centre >> 16) & 0xFFu) + mid_radius_;
  return ix >= 0 && iy >= 0 && ix <= 2 * mid_radius_ && iy <= 2 * mid_radius_;
}

std::vector<std::uint32_t> Landscape::grid_keys(std::uint32_t centre) const {
  const int cx = static_cast<int>(centre >> 24);
  const int cy = static_cast<int>((centre >> 16) & 0xFFu);
  std::vector<std::uint32_t> keys;
  for (int bx = cx - mid_radius_; bx <= cx + mid_radius_; ++bx) {
    for (int by = cy - mid_radius_; by <= cy + mid_radius_; ++by) {
      if (!LandDefs::in_bounds(bx * 8, by * 8)) continue;
      keys.push_back((static_cast<std::uint32_t>(bx) << 24) | (static_cast<std::uint32_t>(by) << 16));
    }
  }
  return keys;
}

void Landscape::insert_block(std::uint32_t key, LandBlockStruct terrain, std::vector<Building> buildings,
                             std::uint32_t side_cell_count) {
  Block block;
  block.terrain = std::make_unique<LandBlockStruct>(std::move(terrain));
  block.building_info = std::move(buildings);
  block.side_cell_count = 0;
  Block& placed = blocks_[key] = std::move(block);
  set_side_cell_count(key, placed, side_cell_count);
  init_buildings(key, placed);
}

void Landscape::set_side_cell_count(std::uint32_t key, Block& block, std::uint32_t side_cell_count) {
  if (block.side_cell_count == 8 && side_cell_count != 8) notify_change_size(key, block);
  if (block.side_cell_count == side_cell_count) return;
  block.side_cell_count = side_cell_count;
  block.cells.clear();
  if (side_cell_count != 8) return;
  // CLandBlockStruct::generate at full detail, CLandBlock::init_lcell_ptrs:
  // fresh land cells (no restriction objects, no shadows).
  block.cells.reserve(dat::kLandBlockCells);
  for (std::size_t i = 0; i < dat::kLandBlockCells; ++i) {
    block.cells.push_back(std::make_unique<LandCell>(*block.terrain, i));
  }
}

// CLandBlock::notify_change_size 0x005302C0
void Landscape::notify_change_size(std::uint32_t key, Block& block) {
  release_visible(block.stablist);  // CEnvCell::release_visible
  release_objs(block);
  // CLandBlock::destroy_static_objects (the owner's), then
  // CLandBlock::destroy_buildings 0x0052F140 (the stab list with them).
  if (loader_ != nullptr) loader_->notify_change_size(key | 0xFFFFu);
  for (const auto& cell : block.cells) cell->set_building(nullptr);
  block.buildings.clear();
  block.buildings_made = false;
  block.stablist.clear();
  // Demoted to Far: its Near records went with the loader's demotion; they
  // come again when it reaches full detail again.
  if (block.streamed) {
    block.building_info.clear();
    block.near_records = false;
  }
}

// CLandBlock::init_buildings 0x0052FD80
void Landscape::init_buildings(std::uint32_t key, Block& block) {
  if (block.side_cell_count != 8 || block.buildings_made) return;
  block.buildings_made = true;
  for (const Building& info : block.building_info) {
    std::uint32_t cell = key | 1u;
    glm::vec3 origin = info.pos.frame.origin;
    if (!LandDefs::adjust_to_outside(cell, origin) || (cell & 0xFFFF0000u) != key) continue;
    auto owned = std::make_unique<Building>(info);
    owned->pos.objcell_id = cell;
    block.cells[(cell & 0xFFFFu) - 1]->set_building(owned.get());
    // CBuildingObj::add_to_stablist 0x006B51B0 -> CBldPortal::add_to_stablist
    // 0x0053BB60: each portal's cells not yet listed, in order.
    for (const BuildingPortal& portal : owned->portals) {
      for (const std::uint32_t stab : portal.stab_list) {
        if (std::find(block.stablist.begin(), block.stablist.end(), stab) == block.stablist.end()) {
          block.stablist.push_back(stab);
        }
      }
    }
    block.buildings.push_back(std::move(owned));
  }
}

bool Landscape::add_env_cell(std::unique_ptr<EnvCell> cell) {
  if (!cell) return false;
  const std::uint32_t id = cell->id();
  if (auto it = env_cells_.find(id); it != env_cells_.end() && !it->second->shadow_objects().empty()) return false;
  env_released_.erase(id);
  env_cells_[id] = std::move(cell);
  env_unavailable_.erase(id);
  return true;
}

std::unique_ptr<EnvCell> Landscape::load_env_cell(std::uint32_t cell_id) {
  if (loader_ == nullptr || env_unavailable_.contains(cell_id)) return nullptr;
  // Streamed: its block's records on their way; asked for again later.
  if (!loader_->records_ready(cell_id, true)) return nullptr;
  std::unique_ptr<EnvCell> loaded = loader_->load_env_cell(cell_id);
  if (!loaded || loaded->id() != cell_id) {
    env_unavailable_.insert(cell_id);
    return nullptr;
  }
  return loaded;
}

// CEnvCell::add_visible_cell 0x0052DE40
EnvCell* Landscape::add_visible_cell(std::uint32_t cell_id) {
  if (auto it = env_cells_.find(cell_id); it != env_cells_.end()) return it->second.get();
  std::unique_ptr<EnvCell> cell;
  if (auto node = env_released_.extract(cell_id); !node.empty()) {
    cell = std::move(node.mapped());
  } else {
    cell = load_env_cell(cell_id);  // DBObj::Get
    if (!cell) return nullptr;
  }
  EnvCell* raw = cell.get();
  env_cells_[cell_id] = std::move(cell);
  return raw;
}

// CEnvCell::grab_visible 0x0052E040
void Landscape::grab_visible(std::span<const std::uint32_t> stab_list) {
  for (const std::uint32_t id : stab_list) add_visible_cell(id);
}

// CEnvCell::release_visible 0x0052E080
void Landscape::release_visible(std::span<const std::uint32_t> stab_list) {
  for (const std::uint32_t id : stab_list) {
    if (auto node = env_cells_.extract(id); !node.empty()) env_released_.insert(std::move(node));
  }
}

// LScape::release_visible_cells 0x00504F50
void Landscape::release_visible_cells() {
  if (loaded_cell_id_ == 0) return;
  for (const std::uint32_t key : grid_keys(loaded_cell_id_)) {
    // CLandBlock::release_visible_cells 0x0052F480
    if (auto it = blocks_.find(key); it != blocks_.end()) release_visible(it->second.stablist);
  }
}

// CEnvCell::flush_cells 0x0052DEF0
void Landscape::flush_cells() {
  while (!env_released_.empty()) {
    auto node = env_released_.extract(env_released_.begin());
    node.mapped()->release_objects();
    // CEnvCell::Destroy: its static objects go with it.
    if (loader_ != nullptr) loader_->destroy_env_cell(node.key());
  }
  // The loader and init_objects may not change the visible cells; walk ids.
  std::vector<std::uint32_t> visible;
  visible.reserve(env_cells_.size());
  for (const auto& [id, cell] : env_cells_) visible.push_back(id);
  for (const std::uint32_t id : visible) {
    auto it = env_cells_.find(id);
    if (it == env_cells_.end()) continue;
    EnvCell& cell = *it->second;
    // The cell's init_static_objects (CEnvCell::init_static_objects 0x0052C350)
    if (loader_ != nullptr) loader_->init_static_objects(cell);
    init_objects(cell);
  }
}

// CObjCell::Get 0x0052B180
ObjCell* Landscape::get(std::uint32_t cell_id) {
  if (ObjCell* visible = get_cell(cell_id); visible != nullptr || !is_env_cell_id(cell_id)) return visible;
  if (auto it = env_released_.find(cell_id); it != env_released_.end()) return it->second.get();
  std::unique_ptr<EnvCell> loaded = load_env_cell(cell_id);  // DBObj::Get
  if (!loaded) return nullptr;
  EnvCell* raw = loaded.get();
  env_released_[cell_id] = std::move(loaded);
  return raw;
}

// CObjCell::GetVisible
ObjCell* Landscape::get_cell(std::uint32_t cell_id) {
  // CEnvCell::GetVisible 0x0052DC10
  if (is_env_cell_id(cell_id)) return loaded_cell(cell_id);
  const std::uint32_t low = cell_id & 0xFFFFu;
  // LScape::get_landcell 0x00505F10 -> LScape::get_landblock 0x00505E40
  if (low < 1 || low > dat::kLandBlockCells) return nullptr;
  // The grid's slot: within mid_radius blocks of the load point's block.
  int ix = 0;
  int iy = 0;
  if (loaded_cell_id_ != 0 && !grid_slot(loaded_cell_id_, cell_id, ix, iy)) return nullptr;
  // Only a full-detail block (side_cell_count 8) answers.
  return loaded_cell(cell_id);
}

// LScape::get_all 0x00505DD0 (the block and its buildings; no static objects yet)
bool Landscape::load_block(std::uint32_t key) {
  if (loader_ == nullptr || unavailable_.contains(key)) return false;
  // The tier its slot needs: Near (buildings, statics, EnvCells) at full
  // detail, else Far (terrain). Streamed: on its way, asked for again later.
  const std::uint32_t side = grid_side_cell_count(key);
  const bool near = side == 8;
  if (!loader_->records_ready(key | 0xFFFFu, near)) return false;
  std::optional<LandBlockStruct> loaded = loader_->load_land_block(key | 0xFFFFu);
  if (!loaded || (loaded->block_id() & 0xFFFF0000u) != key || blocks_.contains(key)) {
    unavailable_.insert(key);
    return false;
  }
  std::vector<Building> buildings;
  if (near) buildings = loader_->load_buildings(key | 0xFFFFu);
  insert_block(key, std::move(*loaded), std::move(buildings), side);
  Block& block = blocks_.at(key);
  block.near_records = near;
  block.streamed = true;
  return true;
}

// CObjCell::init_objects 0x0052B420
void Landscape::init_objects(const ObjCell& cell) {
  if (obj_maint_ == nullptr) return;
  obj_maint_->init_obj_cell(cell);
  // The cell's objects, each not static and not completely visible
  // recomputing its cells.
  for (PhysicsObj* obj : cell.objects()) {
    if ((obj->state() & protocol::physics_state::Static) == 0 && !obj->is_completely_visible()) {
      obj->recalc_cross_cells();
    }
  }
}

std::vector<std::uint32_t> Landscape::loaded_blocks() const {
  std::vector<std::uint32_t> out;
  out.reserve(blocks_.size());
  for (const auto& [key, block] : blocks_) out.push_back(key | 0xFFFFu);
  return out;
}

std::vector<std::uint32_t> Landscape::loaded_env_cells() const {
  std::vector<std::uint32_t> out;
  out.reserve(env_cells_.size());
  for (const auto& [id, cell] : env_cells_) out.push_back(id);
  return out;
}

std::vector<std::uint32_t> Landscape::released_env_cells() const {
  std::vector<std::uint32_t> out;
  out.reserve(env_released_.size());
  for (const auto& [id, cell] : env_released_) out.push_back(id);
  return out;
}

std::vector<std::uint32_t> Landscape::block_stab_list(std::uint32_t block_id) const {
  const auto it = blocks_.find(block_id & 0xFFFF0000u);
  return it != blocks_.end() ? it->second.stablist : std::vector<std::uint32_t>{};
}

// LScape::SetMidRadius 0x00504C00
bool Landscape::set_mid_radius(int radius) noexcept {
  if (radius < 1 || loaded_cell_id_ != 0) return false;
  mid_radius_ = radius;
  return true;
}

// LScape::get_block_shift 0x00504A60
bool Landscape::get_block_shift(std::uint32_t cell_id1, std::uint32_t cell_id2, int& x_shift, int& y_shift) noexcept {
  if (cell_id1 == 0) return false;
  const int x2 = cell_id2 != 0 ? static_cast<int>(cell_id2 >> 24) : 0;
  const int y2 = cell_id2 != 0 ? static_cast<int>((cell_id2 >> 16) & 0xFFu) : 0;
  x_shift = x2 - static_cast<int>(cell_id1 >> 24);
  y_shift = y2 - static_cast<int>((cell_id1 >> 16) & 0xFFu);
  return true;
}

// LScape::update_loadpoint 0x00506CD0
void Landscape::update_loadpoint(std::uint32_t cell_id) {
  if (cell_id == 0) {
    release_all();
    return;
  }
  if (loader_ != nullptr) enter_region(cell_id & 0xFFFF0000u, false);
  int x_shift = 0;
  int y_shift = 0;
  const bool refresh = !get_block_shift(loaded_cell_id_, cell_id, x_shift, y_shift);
  // check_loading: a slot of the grid still empty (here: a block inside the
  // world neither loaded nor refused by the loader, or a full-detail one
  // still waiting on its Near records).
  const std::vector<std::uint32_t> grid = grid_keys(cell_id);
  const bool check_loading = std::any_of(grid.begin(), grid.end(), [this](std::uint32_t key) {
    const auto it = blocks_.find(key);
    if (it != blocks_.end()) return awaits_near(key, it->second);
    return loader_ != nullptr && !unavailable_.contains(key);
  });
  if (x_shift == 0 && y_shift == 0 && !refresh && !check_loading) {
    loaded_cell_id_ = cell_id;
    return;
  }
  // LScape::update_block 0x005063A0, by its outcome. No load point yet, or
  // a shift of a grid width or more: LScape::release_all, then every slot
  // loaded afresh. Otherwise the blocks the shifted grid leaves go
  // (CLandBlock::release_all) and the slots it gains are loaded.
  const int width = 2 * mid_radius_ + 1;
  if (refresh || std::abs(x_shift) >= width || std::abs(y_shift) >= width) {
    while (!blocks_.empty()) release_block(blocks_.begin()->first);
  } else {
    std::vector<std::uint32_t> gone;
    int ix = 0;
    int iy = 0;
    for (const auto& [key, block] : blocks_) {
      if (!grid_slot(cell_id, key, ix, iy)) gone.push_back(key);
    }
    for (const std::uint32_t key : gone) release_block(key);
  }
  loaded_cell_id_ = cell_id;
  for (const std::uint32_t key : grid) {
    if (!blocks_.contains(key)) load_block(key);
  }
  // update_block's last pass: each block at its detail (get_block_orient);
  // one leaving full detail lets its objects go (notify_change_size).
  for (const std::uint32_t key : grid) {
    if (auto it = blocks_.find(key); it != blocks_.end()) {
      Block& block = it->second;
      const std::uint32_t side = grid_side_cell_count(key);
      // Promotion: a block given at Far reaches full detail once its Near
      // records (its buildings) are at hand; until then it keeps its detail.
      if (side == 8 && !block.near_records) {
        if (!loader_->records_ready(key | 0xFFFFu, true)) continue;
        block.building_info = loader_->load_buildings(key | 0xFFFFu);
        block.near_records = true;
      }
      set_side_cell_count(key, block, side);
    }
  }
}

bool Landscape::awaits_near(std::uint32_t key, const Block& block) const noexcept {
  return loader_ != nullptr && !block.near_records && grid_side_cell_count(key) == 8;
}

void Landscape::enter_region(std::uint32_t key, bool indoor) {
  bool fresh = !region_.set;
  if (!fresh) {
    const int dx = std::abs(static_cast<int>(key >> 24) - static_cast<int>(region_.key >> 24));
    const int dy = std::abs(static_cast<int>((key >> 16) & 0xFFu) - static_cast<int>((region_.key >> 16) & 0xFFu));
    if (indoor) {
      // A dungeon's own block (collapse), unless the outdoor grid holds it.
      fresh = region_.indoor ? key != region_.key : (dx > mid_radius_ || dy > mid_radius_);
    } else {
      // Expansion out of a dungeon, or a hard recenter.
      const int width = 2 * mid_radius_ + 1;
      fresh = region_.indoor || dx >= width || dy >= width;
    }
  }
  if (fresh) {
    loader_->begin_region();
    region_ = Region{true, indoor, key};
  } else if (region_.indoor == indoor) {
    region_.key = key;  // a small shift of the same grid
  }
}

// LScape::PreFetchCells 0x00505660 (the grid about `centre`), over the
// streamed records: each block at the tier its slot needs.
void Landscape::prefetch_grid(std::uint32_t centre, CellPrefetch& out) {
  for (const std::uint32_t key : grid_keys(centre)) {
    if (unavailable_.contains(key)) continue;
    int ix = 0;
    int iy = 0;
    if (!grid_slot(centre, key, ix, iy)) continue;
    const bool near = dat::get_block_orient(mid_radius_, ix, iy).size == 1;
    if (!loader_->records_ready(key | 0xFFFFu, near)) {
      out.all_available = false;
      ++out.waiting;
      if (near) out.world_ready = false;
    } else if (near && !loader_->render_ready(key | 0xFFFFu)) {
      out.world_ready = false;
    }
  }
}

Landscape::CellPrefetch Landscape::prefetch_cells(std::uint32_t cell_id) {
  CellPrefetch out;
  if (cell_id == 0 || !streams()) return out;
  const std::uint32_t key = cell_id & 0xFFFF0000u;
  if (!is_env_cell_id(cell_id)) {
    enter_region(key, false);
    prefetch_grid(cell_id, out);
    return out;
  }
  // CEnvCell::PreFetchCells 0x0052D1E0: the cell's block (its LandBlockInfo
  // and EnvCells), then the cell itself (DBObj::Get).
  enter_region(key, true);
  if (!loader_->records_ready(cell_id, true)) {
    out.world_ready = false;
    out.all_available = false;
    ++out.waiting;
    return out;
  }
  if (!loader_->render_ready(key | 0xFFFFu)) out.world_ready = false;
  const auto* env = dynamic_cast<const EnvCell*>(get(cell_id));
  // CEnvCell::PreFetchCells 0x0052C460: seen from outside, the landscape about it.
  if (env != nullptr && env->seen_outside()) prefetch_grid(key | 0x0001u, out);
  return out;
}

bool Landscape::holds_block(std::uint32_t key) const {
  if (blocks_.contains(key)) return true;
  const auto in_block = [key](const auto& entry) { return (entry.first & 0xFFFF0000u) == key; };
  return std::any_of(env_cells_.begin(), env_cells_.end(), in_block) ||
         std::any_of(env_released_.begin(), env_released_.end(), in_block);
}

// LScape::grab_visible_cells 0x00504EC0
void Landscape::grab_visible_cells() {
  if (loaded_cell_id_ == 0) return;
  const std::vector<std::uint32_t> grid = grid_keys(loaded_cell_id_);
  for (const std::uint32_t key : grid) {
    if (auto it = blocks_.find(key); it != blocks_.end()) {
      init_buildings(key, it->second);
      // CLandBlock::grab_visible_cells 0x0052F460
      grab_visible(it->second.stablist);
    }
  }
  for (const std::uint32_t key : grid) {
    // The loader may not release blocks, but look the block up again anyway.
    auto it = blocks_.find(key);
    if (it == blocks_.end() || it->second.side_cell_count != 8) continue;
    // CLandBlock::init_static_objs 0x00530A40 (the owner's statics)
    if (loader_ != nullptr) loader_->init_static_objs(key | 0xFFFFu);
    // CLandBlock::init_dyn_objs 0x0052F3B0
    it = blocks_.find(key);
    if (it == blocks_.end() || it->second.dyn_objs_init_done) continue;
    it->second.dyn_objs_init_done = true;
    for (std::uint32_t n = 1; n <= dat::kLandBlockCells; ++n) {
      if (const ObjCell* cell = loaded_cell(key | n); cell != nullptr) init_objects(*cell);
    }
  }
}

const LandBlockStruct* Landscape::land_block(std::uint32_t block_id) const noexcept {
  const auto it = blocks_.find(block_id & 0xFFFF0000u);
  return it != blocks_.end() ? it->second.terrain.get() : nullptr;
}

std::uint32_t Landscape::side_cell_count(std::uint32_t block_id) const noexcept {
  const auto it = blocks_.find(block_id & 0xFFFF0000u);
  return it != blocks_.end() ? it->second.side_cell_count : 0u;
}

// LScape::release_all 0x00504B60
void Landscape::release_all() {
  while (!blocks_.empty()) release_block(blocks_.begin()->first);
  loaded_cell_id_ = 0;
}

// CLandBlock::release_all 0x0052FCF0
void Landscape::release_block(std::uint32_t key) {
  auto it = blocks_.find(key);
  if (it == blocks_.end()) return;
  release_objs(it->second);
  release_visible(it->second.stablist);  // CEnvCell::release_visible
  if (loader_ != nullptr) loader_->release_land_block(key | 0xFFFFu);
  blocks_.erase(it);
}

// CLandBlock::release_objs 0x0052F350 (only a full-detail block has cells)
void Landscape::release_objs(Block& block) {
  for (const auto& cell : block.cells) cell->release_objects();
  block.dyn_objs_init_done = false;
}

ObjCell* Landscape::loaded_cell(std::uint32_t cell_id) const {
  if (is_env_cell_id(cell_id)) {
    const auto it = env_cells_.find(cell_id);
    return it != env_cells_.end() ? it->second.get() : nullptr;
  }
  const std::uint32_t low = cell_id & 0xFFFFu;
  if (low < 1 || low > dat::kLandBlockCells) return nullptr;
  const auto it = blocks_.find(cell_id & 0xFFFF0000u);
  if (it == blocks_.end() || it->second.cells.empty()) return nullptr;
  return it->second.cells[low - 1].get();
}

// CLandCell::add_outside_cell 0x00532EC0
void Landscape::add_outside_cell(CellArray& out, int x, int y) {
  if (x < 0 || y < 0 || x >= 2040 || y >= 2040) return;
  const std::uint32_t id = LandDefs::lcoord_to_gid(x, y);
  add_cell(out, id, cell_for(out, id));
}

// CLandCell::check_add_cell_boundary 0x00533260
void Landscape::check_add_cell_boundary(CellArray& out, const glm::vec2& pt, int x, int y, float in_max, float in_min) {
  if (pt.x > in_max) {
    add_outside_cell(out, x + 1, y);
    if (pt.y > in_max) add_outside_cell(out, x + 1, y + 1);
    if (pt.y < in_min) add_outside_cell(out, x + 1, y - 1);
  }
  if (pt.x < in_min) {
    add_outside_cell(out, x - 1, y);
    if (pt.y > in_max) add_outside_cell(out, x - 1, y + 1);
    if (pt.y < in_min) add_outside_cell(out, x - 1, y - 1);
  }
  if (pt.y > in_max) add_outside_cell(out, x, y + 1);
  if (pt.y < in_min) add_outside_cell(out, x, y - 1);
}

// CLandCell::add_all_outside_cells 0x00533630
void Landscape::add_all_outside_cells(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                                      CellArray& out) {
  if (out.added_outside) return;
  out.added_outside = true;
  if (num_sphere == 0) {
    std::uint32_t cell = p.objcell_id;
    glm::vec3 point = p.frame.origin;
    if (LandDefs::adjust_to_outside(cell, point)) {
      if (const auto lc = LandDefs::gid_to_lcoord(cell)) add_outside_cell(out, lc->x, lc->y);
    }
    return;
  }
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    std::uint32_t cell = p.objcell_id;
    glm::vec3 point = spheres[i].center;
    if (!LandDefs::adjust_to_outside(cell, point)) break;
    const double cx = std::floor(point.x / 24.0);
    const double cy = std::floor(point.y / 24.0);
    const glm::vec2 in_cell(static_cast<float>(point.x - cx * 24.0), static_cast<float>(point.y - cy * 24.0));
    const float min_rad = spheres[i].radius;
    const float max_rad = 24.0f - min_rad;
    if (const auto lc = LandDefs::gid_to_lcoord(cell)) {
      add_outside_cell(out, lc->x, lc->y);
      check_add_cell_boundary(out, in_cell, lc->x, lc->y, max_rad, min_rad);
    }
  }
}

// CLandCell::add_cell_block 0x005331D0
void Landscape::add_cell_block(int min_x, int min_y, int max_x, int max_y, CellArray& out) {
  for (int x = min_x; x <= max_x; ++x) {
    for (int y = min_y; y <= max_y; ++y) {
      if (x < 0 || y < 0 || x >= 2040 || y >= 2040) continue;
      const std::uint32_t id = LandDefs::lcoord_to_gid(x, y);
      add_cell(out, id, cell_for(out, id));
    }
  }
}

// CLandCell::add_all_outside_cells 0x00533360
void Landscape::add_all_outside_cells(std::span<const PartBounds> parts, CellArray& out) {
  if (out.added_outside) return;
  out.added_outside = true;
  if (parts.empty()) return;
  std::uint32_t cell_id = parts.front().pos.objcell_id;
  glm::vec3 loc = parts.front().pos.frame.origin;
  if (!LandDefs::adjust_to_outside(cell_id, loc)) cell_id = 0;
  // LScape::get_landcell: only a loaded cell (here: cell_for).
  ObjCell* cell = cell_id != 0 ? cell_for(out, cell_id) : nullptr;
  if (cell == nullptr) return;
  const auto lc = LandDefs::gid_to_lcoord(cell_id);
  if (!lc) return;
  const int lx = static_cast<int>(((cell_id & 0xFFFFu) - 1u) >> 3);
  const int ly = static_cast<int>(((cell_id & 0xFFu) - 1u) & 7u);
  const Position cell_pos{cell_id, core::Frame{}};
  const auto cell_of = [](double v) { return static_cast<int>(std::floor(v / 24.0)); };
  int min_x = 0;
  int min_y = 0;
  int max_x = 0;
  int max_y = 0;
  for (const PartBounds& part : parts) {
    int x0 = 0;
    int y0 = 0;
    int x1 = 0;
    int y1 = 0;
    if (part.always_2d) {
      // Retail reads the sphere without a check; a part without one is
      // left out here.
      if (!part.sphere) continue;
      const float r = part.sphere->radius;
      const glm::vec3& o = part.pos.frame.origin;
      x0 = cell_of(static_cast<double>(o.x - r));
      y0 = cell_of(static_cast<double>(o.y - r));
      x1 = cell_of(static_cast<double>(o.x + r));
      y1 = cell_of(static_cast<double>(o.y + r));
    } else {
      const BBox box = BBox::local_to_global(part.box, part.pos, cell_pos);
      x0 = cell_of(box.min.x);
      y0 = cell_of(box.min.y);
      x1 = cell_of(box.max.x);
      y1 = cell_of(box.max.y);
    }
    min_x = std::min(min_x, x0 - lx);
    min_y = std::min(min_y, y0 - ly);
    max_x = std::max(max_x, x1 - lx);
    max_y = std::max(max_y, y1 - ly);
  }
  add_cell_block(min_x + lc->x, min_y + lc->y, lc->x + max_x, lc->y + max_y, out);
}

// CObjCell::find_cell_list 0x0052B4E0
void Landscape::find_cell_list(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                               CellArray& out, ObjCell*& curr, SpherePath* path) {
  out.cells.clear();
  out.added_outside = false;
  curr = nullptr;
  const std::uint32_t id = p.objcell_id;
  ObjCell* own = id != 0 ? get_cell(id) : nullptr;
  if ((id & 0xFFFFu) >= 0x100u) {
    if (path != nullptr) path->hits_interior_cell = true;
    add_cell(out, id, own);
  } else {
    add_all_outside_cells(p, num_sphere, spheres, out);
  }
  if (own == nullptr || num_sphere == 0) return;
  // Each cell's transit cells; the array grows as they are found.
  for (std::size_t i = 0; i < out.cells.size(); ++i) {
    if (ObjCell* cell = out.cells[i].cell; cell != nullptr) {
      cell->find_transit_cells(*this, p, num_sphere, spheres, out, path);
    }
  }
  for (const CellArrayEntry& e : out.cells) {
    if (e.cell == nullptr) continue;
    const glm::vec3 local = spheres[0].center - LandDefs::get_block_offset(id, e.cell->id());
    if (!e.cell->point_in_cell(local)) continue;
    curr = e.cell;
    if ((e.cell->id() & 0xFFFFu) >= 0x100u) {
      if (path != nullptr) path->hits_interior_cell = true;
      break;
    }
  }
  // From an EnvCell, a do_not_load_cells array keeps only that cell and the
  // cells of its stab list (CELLARRAY::remove_cell: the last moves in).
  if (!out.do_not_load_cells || (id & 0xFFFFu) < 0x100u) return;
  const auto* env = static_cast<const EnvCell*>(own);
  const std::vector<std::uint32_t>& stabs = env->stab_list();
  for (std::size_t i = 0; i < out.cells.size();) {
    const std::uint32_t cell_id = out.cells[i].cell_id;
    if (cell_id == env->id() || std::find(stabs.begin(), stabs.end(), cell_id) != stabs.end()) {
      ++i;
      continue;
    }
    out.cells[i] = out.cells.back();
    out.cells.pop_back();
  }
}

}  // namespace dereth::sim
