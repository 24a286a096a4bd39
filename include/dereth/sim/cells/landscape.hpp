#pragma once
// LScape, the cells the transition walks through: each loaded landblock's
// 64 land cells (land_cell.hpp) with the buildings standing in them
// (building.hpp), the visible EnvCells (env_cell.hpp: those the blocks'
// buildings and the player's cell see), and the CellSource the world gives
// its objects.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/dat/land_block_info.hpp"
#include "dereth/sim/cells/building.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/cells/land_cell.hpp"
#include "dereth/sim/cells/landscape_loader.hpp"
#include "dereth/sim/collision/transition.hpp"

namespace dereth::sim {

class ObjectMaint;

// LScape: the loaded landblocks' land cells, and CObjCell::find_cell_list.
class Landscape final : public CellSource {
 public:
  // LScape's default mid_radius (LScape::LScape: 5, an 11 x 11 grid).
  static constexpr int kDefaultMidRadius = 5;

  Landscape() = default;
  // With a loader, update_loadpoint loads the blocks of its grid (LScape's
  // landblock loading), with their buildings; an EnvCell is loaded as it
  // enters the visible cells (add_visible_cell) or CObjCell::Get asks for it
  // (get). What fails to load is not asked for again. Loaded blocks stay
  // loaded until update_loadpoint's grid leaves them (or release_all);
  // EnvCells while they are visible (released ones until flush_cells). The
  // loader also makes and frees the blocks' and EnvCells' static objects as
  // retail's CLandBlock and CEnvCell do (landscape_loader.hpp). Not owned;
  // it must outlive the landscape's use of it.
  explicit Landscape(LandscapeLoader* loader) : loader_(loader) {}
  // Adds (or replaces, when no object stands in it) a landblock's terrain
  // and buildings, each building in the land cell holding its origin
  // (CLandBlock::init_buildings 0x0052FD80; one off the block is dropped),
  // at the detail the grid gives its slot (full detail with no load point
  // or outside the grid). Returns false when the block is loaded and still
  // holds shadows.
  bool add_block(LandBlockStruct block, std::vector<Building> buildings = {});
  // Adds an EnvCell to the visible cells by hand (replacing one of the same
  // id that holds no shadows).
  bool add_env_cell(std::unique_ptr<EnvCell> cell);
  [[nodiscard]] std::size_t block_count() const noexcept { return blocks_.size(); }
  // The terrain of a loaded block (0xXXYYFFFF), null when it is not loaded.
  [[nodiscard]] const LandBlockStruct* land_block(std::uint32_t block_id) const noexcept;
  // The loaded landblocks (0xXXYYFFFF), ascending.
  [[nodiscard]] std::vector<std::uint32_t> loaded_blocks() const;
  // The visible EnvCells' ids (CEnvCell::visible_cell_table), ascending.
  [[nodiscard]] std::vector<std::uint32_t> loaded_env_cells() const;
  // The released EnvCells' ids (kept for reuse until flush_cells), ascending.
  [[nodiscard]] std::vector<std::uint32_t> released_env_cells() const;
  // CLandBlock::stablist of a loaded block (0xXXYYFFFF): the cells its
  // buildings' portals see, each once in first-seen order
  // (CLandBlock::init_buildings 0x0052FD80); empty until then.
  [[nodiscard]] std::vector<std::uint32_t> block_stab_list(std::uint32_t block_id) const;
  // CObjCell::obj_maint: told of each cell that loads (CObjCell::init_objects
  // 0x0052B420 -> CObjectMaint::InitObjCell), so the objects lost in it
  // re-enter visibility. Not owned; may be null.
  void set_obj_maint(ObjectMaint* obj_maint) noexcept { obj_maint_ = obj_maint; }
  // CLandBlock::side_cell_count of a loaded block (0xXXYYFFFF): 8 at full
  // detail (the only blocks with land cells), else 4, 2 or 1 as
  // LScape::get_block_orient gives it; 0 when the block is not loaded.
  [[nodiscard]] std::uint32_t side_cell_count(std::uint32_t block_id) const noexcept;

  // LScape::SetMidRadius 0x00504C00: the kept grid's radius in landblocks
  // (the grid is 2r+1 wide); refused (false) below 1 or once a load point
  // is set.
  bool set_mid_radius(int radius) noexcept;
  [[nodiscard]] int mid_radius() const noexcept { return mid_radius_; }
  // The cell the kept grid is centred on (LScape::loaded_cell_id; 0: none).
  [[nodiscard]] std::uint32_t loaded_cell_id() const noexcept { return loaded_cell_id_; }
  // LScape::get_block_shift 0x00504A60: the landblock steps from cell_id1's
  // block to cell_id2's (cell_id2 0: from block 0,0); false when cell_id1 is 0.
  static bool get_block_shift(std::uint32_t cell_id1, std::uint32_t cell_id2, int& x_shift, int& y_shift) noexcept;
  // LScape::update_loadpoint 0x00506CD0: centres the kept grid on cell_id's
  // landblock (cell 0: release_all). With LScape::update_block 0x005063A0's
  // outcome: with no load point yet, or a shift of a whole grid width or
  // more, every loaded block is released first (LScape::release_all);
  // otherwise every loaded block outside the grid (more than mid_radius
  // blocks from the centre in x or y) is released (CLandBlock::release_all).
  // Then every block of the grid inside the world that is not loaded is
  // loaded (LScape::get_all), the blocks the loader cannot give left out,
  // and every block gets its detail (LScape::get_block_orient): one leaving
  // full detail lets its objects go (CLandBlock::notify_change_size), one
  // reaching it gets fresh land cells. Nothing is made in the cells here:
  // grab_visible_cells does that.
  void update_loadpoint(std::uint32_t cell_id);
  // LScape::grab_visible_cells 0x00504EC0, which CellManager::ChangePosition
  // runs through the player's cell (CObjCell::grab_visible_cells) whenever
  // that cell changes and is found: every full-detail block of the grid
  // gets its buildings (CLandBlock::init_buildings 0x0052FD80, once) and
  // the EnvCells its stab list names enter the visible cells
  // (CLandBlock::grab_visible_cells 0x0052F460), then block by block its static objects are made or recomputed (the
  // loader's init_static_objs) and its cells' lost objects come back
  // (CLandBlock::init_dyn_objs 0x0052F3B0, once per full-detail spell).
  // Grid order: x outer, y inner. Nothing without a load point.
  void grab_visible_cells();
  // LScape::release_all 0x00504B60: every block released; no load point.
  void release_all();

  // The streamed landscape (docs/streaming.md). What CellManager::PreFetchCells
  // learns from LScape::PreFetchCells 0x00505660 (a land cell: every block
  // of the grid centred on it) or CEnvCell::PreFetchCells 0x0052D1E0 (an
  // EnvCell: its block's records, and the grid about its block when it is
  // seen from outside). The records still missing are asked for.
  struct CellPrefetch {
    // TeleportWorldReady: an EnvCell's block Near and drawn ready and the
    // cell's records (its collision is built from them at once); a land
    // cell's near ring (the grid's full-detail blocks) Near and drawn ready.
    bool world_ready = true;
    bool all_available = true;  // every block of the grid at its tier
    std::uint32_t waiting = 0;  // blocks (and cells) not yet published
  };
  // Everything is at hand (all true) when the loader does not stream.
  CellPrefetch prefetch_cells(std::uint32_t cell_id);
  // Whether the loader streams (LandscapeLoader::streams).
  [[nodiscard]] bool streams() const { return loader_ != nullptr && loader_->streams(); }
  // The region the streaming generation was begun for is forgotten: the
  // next prefetch or load point begins a new one (a hard recenter:
  // CellManager's blocking ChangePosition, Reset).
  void forget_region() noexcept { region_ = Region{}; }
  // Whether any landblock, or any EnvCell (visible or released), of `key`'s
  // landblock (0xXXYY0000) is held.
  [[nodiscard]] bool holds_block(std::uint32_t key) const;
  // LScape::release_visible_cells 0x00504F50: each block's stab list leaves
  // the visible cells (CLandBlock::release_visible_cells 0x0052F480).
  void release_visible_cells();
  // CEnvCell::add_visible_cell 0x0052DE40: the visible EnvCell cell_id; one
  // not visible comes back from the released ones, else is loaded
  // (DBObj::Get), and enters the visible cells; null when it cannot load.
  EnvCell* add_visible_cell(std::uint32_t cell_id);
  // CEnvCell::grab_visible 0x0052E040: each cell of a stab list made visible.
  void grab_visible(std::span<const std::uint32_t> stab_list);
  // CEnvCell::release_visible 0x0052E080: each visible cell of a stab list
  // moves to the released ones.
  void release_visible(std::span<const std::uint32_t> stab_list);
  // CEnvCell::flush_cells 0x0052DEF0: every released EnvCell lets go of its
  // objects (CObjCell::release_objects) and is freed (the loader's destroy_env_cell
  // first); then every visible one runs CEnvCell::init_static_objects (the loader's)
  // and CObjCell::init_objects (its lost objects come back, the others
  // recompute their cells), in cell id order (retail: its hash table's).
  void flush_cells();
  // CObjCell::Get 0x0052B180: an EnvCell visible, released or loaded
  // (DBObj::Get: one loaded here waits with the released ones, freed at the
  // next flush_cells unless it is made visible first), or a land cell as
  // get_cell gives it.
  ObjCell* get(std::uint32_t cell_id);
  // A cell already loaded, else null (nothing is loaded).
  [[nodiscard]] ObjCell* loaded_cell(std::uint32_t cell_id) const;
  // The cell for a cell array: get_cell, or loaded_cell when the array has
  // do_not_load_cells (CELLARRAY::do_not_load_cells).
  [[nodiscard]] ObjCell* cell_for(const CellArray& out, std::uint32_t cell_id) {
    return out.do_not_load_cells ? loaded_cell(cell_id) : get_cell(cell_id);
  }

  // CObjCell::GetVisible: an EnvCell among the visible cells
  // (CEnvCell::GetVisible 0x0052DC10: nothing is loaded), or a land cell (LScape::get_landcell
  // 0x00505F10 through LScape::get_landblock 0x00505E40: a block of the
  // grid around the load point, nothing loaded here; null outside the grid).
  // Before the first load point (no grid) only the blocks add_block placed
  // answer.
  [[nodiscard]] ObjCell* get_cell(std::uint32_t cell_id) override;
  // CObjCell::find_cell_list 0x0052B4E0: the position's cell (an EnvCell,
  // or the outside cells the spheres reach), then every cell's transit
  // cells (portals, building doors, outside portals), then the cell holding
  // sphere 0's centre, an EnvCell before any land cell; with
  // do_not_load_cells, from a found EnvCell, only that cell and its stab
  // list's stay in the array (each other removed, the last moved into its
  // place: CELLARRAY::remove_cell).
  void find_cell_list(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres, CellArray& out,
                      ObjCell*& curr, SpherePath* path = nullptr) override;
  [[nodiscard]] Landscape* landscape() noexcept override { return this; }

  // CLandBlock::init_static_objs 0x00530A40's last step: each land cell of
  // the loaded block whose id the LandBlockInfo's restriction table holds
  // gets that restriction object (CLandBlockInfo::GetRestrictionIID
  // 0x0052EF70); the others keep theirs. Nothing when the block is not loaded.
  void init_restrictions(std::uint32_t block_id, const dat::LandBlockInfo& info);

  // CLandCell::add_all_outside_cells 0x00533630: each sphere's cell and the
  // neighbours its radius reaches.
  void add_all_outside_cells(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                             CellArray& out);
  // CLandCell::add_all_outside_cells 0x00533360 (over parts, once per
  // array): from the land cell holding the first part's origin, the block
  // of land cells every part reaches: an Always2D part by its sphere's
  // radius about its origin, another by its bounding box in that cell's
  // landblock space (BBox::LocalToGlobal); nothing when that cell is not
  // loaded.
  void add_all_outside_cells(std::span<const PartBounds> parts, CellArray& out);
  // CLandCell::add_cell_block 0x005331D0: the land cells of lcoords
  // min..max (inclusive, x outer), those off the world left out.
  void add_cell_block(int min_x, int min_y, int max_x, int max_y, CellArray& out);
  // CLandCell::add_outside_cell 0x00532EC0 (lcoords; off the world:
  // nothing; with do_not_load_cells a cell not loaded is added as null)
  void add_outside_cell(CellArray& out, int x, int y);
  // CLandCell::check_add_cell_boundary 0x00533260
  void check_add_cell_boundary(CellArray& out, const glm::vec2& pt, int x, int y, float in_max, float in_min);

 private:
  struct Block {
    std::unique_ptr<LandBlockStruct> terrain;
    // CLandBlock::side_cell_count: 8 at full detail, the only detail with
    // land cells, buildings and static objects.
    std::uint32_t side_cell_count = 8;
    std::vector<std::unique_ptr<LandCell>> cells;  // the 64 land cells, at full detail only
    std::vector<Building> building_info;           // the LandBlockInfo's buildings
    std::vector<std::unique_ptr<Building>> buildings;
    bool buildings_made = false;  // CLandBlock::buildings
    bool dyn_objs_init_done = false;
    std::vector<std::uint32_t> stablist;  // CLandBlock::stablist
    // Its buildings (building_info) are loaded: a block the loader gave at
    // the Far tier has none until it reaches full detail and its Near
    // records are published. Hand-placed blocks have theirs.
    bool near_records = true;
    bool streamed = false;  // loaded through the loader (load_block)
  };
  // The region the streaming generation was begun for: a landblock key and
  // whether it is an EnvCell's region apart from any outdoor grid.
  struct Region {
    bool set = false;
    bool indoor = false;
    std::uint32_t key = 0;
  };
  // Begins a new streaming generation (LandscapeLoader::begin_region) when
  // `key` is outside the current region: none yet, a dungeon's block other
  // than the region's (collapse), an outdoor grid after a dungeon
  // (expansion) or a shift of a grid width or more (hard recenter); an
  // EnvCell inside the outdoor grid stays in its region.
  void enter_region(std::uint32_t key, bool indoor);
  // LScape::PreFetchCells 0x00505660 over the grid centred on `centre`.
  void prefetch_grid(std::uint32_t centre, CellPrefetch& out);
  // The full-detail block of the grid missing its Near records (promotion
  // waits on them), when streaming.
  [[nodiscard]] bool awaits_near(std::uint32_t key, const Block& block) const noexcept;
  // The slot (ix, iy) of block or cell `id` in the grid centred on `centre`'s
  // block (0..2 x mid_radius); false outside it.
  [[nodiscard]] bool grid_slot(std::uint32_t centre, std::uint32_t id, int& ix, int& iy) const noexcept;
  // The grid's slots around `centre`'s block that lie inside the world
  // (0xXXYY0000), in LScape's order: x outer, y inner.
  [[nodiscard]] std::vector<std::uint32_t> grid_keys(std::uint32_t centre) const;
  // The side_cell_count LScape::update_block gives a block of the grid
  // (LScape::get_block_orient's size); 8 with no load point.
  [[nodiscard]] std::uint32_t grid_side_cell_count(std::uint32_t key) const noexcept;
  // Puts a block in its slot at a detail; at full detail its land cells and
  // buildings are made at once.
  void insert_block(std::uint32_t key, LandBlockStruct terrain, std::vector<Building> buildings,
                    std::uint32_t side_cell_count);
  // update_block's last pass for one block: CLandBlock::notify_change_size
  // 0x005302C0 when it leaves full detail, then its land cells made
  // (CLandBlockStruct::generate, CLandBlock::init_lcell_ptrs 0x0052F410)
  // or freed for the new detail.
  void set_side_cell_count(std::uint32_t key, Block& block, std::uint32_t side_cell_count);
  // CLandBlock::notify_change_size 0x005302C0: the block's stab list
  // released (CEnvCell::release_visible), its land cells let their objects
  // go, its static objects and its buildings (and stab list) are destroyed.
  void notify_change_size(std::uint32_t key, Block& block);
  // CLandBlock::init_buildings 0x0052FD80: at full detail, the buildings
  // made once, each in the land cell holding its origin (one off the block
  // is dropped), each kept one's portals' stab lists gathered into the
  // block's (CBuildingObj::add_to_stablist 0x006B51B0).
  static void init_buildings(std::uint32_t key, Block& block);
  // CLandBlock::release_all 0x0052FCF0: the block's land cells let go of
  // their objects (CObjCell::release_objects), its stab list is released
  // (CEnvCell::release_visible: the EnvCells wait for flush_cells), the
  // owner is told, then the cells, buildings and terrain are freed.
  void release_block(std::uint32_t key);
  // CLandBlock::release_objs 0x0052F350: the land cells let go of their
  // objects.
  static void release_objs(Block& block);
  // LScape::get_all 0x00505DD0: reads a block (with its buildings) into its
  // grid slot; false when the loader cannot give it (then not asked again).
  bool load_block(std::uint32_t key);
  // CObjCell::init_objects 0x0052B420: the cell's lost objects come back,
  // then each object standing in it that is neither static nor completely
  // visible recomputes its cells (CPhysicsObj::recalc_cross_cells).
  void init_objects(const ObjCell& cell);

  std::map<std::uint32_t, Block> blocks_;  // by landblock id (0xXXYY0000)
  int mid_radius_ = kDefaultMidRadius;
  std::uint32_t loaded_cell_id_ = 0;
  LandscapeLoader* loader_ = nullptr;
  ObjectMaint* obj_maint_ = nullptr;
  std::set<std::uint32_t> unavailable_;  // blocks the loader could not give
  Region region_;
  // CEnvCell::visible_cell_table
  std::map<std::uint32_t, std::unique_ptr<EnvCell>> env_cells_;
  // The cells released from it since the last flush_cells (retail's
  // released-cell set), and those CObjCell::Get loaded that are not visible.
  std::map<std::uint32_t, std::unique_ptr<EnvCell>> env_released_;
  std::set<std::uint32_t> env_unavailable_;
  // Loads an EnvCell (DBObj::Get); null when absent or refused, then not
  // asked for again.
  std::unique_ptr<EnvCell> load_env_cell(std::uint32_t cell_id);
};

// CLandBlockInfo::GetRestrictionIID 0x0052EF70: the restriction object the
// table gives a land cell id, else 0 (also without a table). A cell id
// listed twice answers its first entry.
[[nodiscard]] std::uint32_t get_restriction_iid(const dat::LandBlockInfo& info, std::uint32_t landcell_id) noexcept;

// CELLARRAY::add_cell: once per cell id.
void add_cell(CellArray& out, std::uint32_t cell_id, ObjCell* cell);

}  // namespace dereth::sim
