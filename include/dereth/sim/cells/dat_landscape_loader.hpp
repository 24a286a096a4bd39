#pragma once
// DatLandscapeLoader: the LandscapeLoader over the world's cell records
// (dat::CellRecordCache, which the renderer's terrain shares) and its portal
// records. It holds each loaded block's LandBlock, LandBlockInfo and EnvCells
// for collision and drawing alike, and makes and owns the blocks' and cells'
// static objects (docs/sim.md "Collision and placement", src/sim/cells/README).
// The caches, factory, context and landscape must outlive it; it goes before
// the landscape, so its objects' shadows leave the cells first.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/landblock_streamer.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/cells/landscape_loader.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class DatLandscapeLoader final : public LandscapeLoader {
 public:
  // `cells` reads the landblocks and EnvCells; the Environments (and the
  // buildings' Setups) come from `records`, the world's portal cache;
  // `defs` and `region_id` are the Region's (LandBlockStruct::build).
  // The records are read through a LandblockStreamer on `executor` (null:
  // inline, each read as LScape asks for it; docs/streaming.md).
  DatLandscapeLoader(dat::CellRecordCache& cells, dat::LandDefs defs, dat::Did region_id, dat::RecordCache& records,
                     DatObjectFactory& factory, SimContext& context,
                     std::unique_ptr<StreamExecutor> executor = nullptr);
  ~DatLandscapeLoader() override;

  // The landscape whose cells the static objects stand in; set once, before
  // it loads anything.
  void set_landscape(Landscape& landscape) noexcept { landscape_ = &landscape; }

  // The streamer's residency: asks for the block's build (Load, Promote)
  // the first time, true once it is published.
  [[nodiscard]] bool records_ready(std::uint32_t id, bool near) override;
  [[nodiscard]] bool streams() const override { return streamer_.streams(); }
  void begin_region() override { streamer_.begin_region(); }
  [[nodiscard]] bool render_ready(std::uint32_t block_id) override { return !render_ready_ || render_ready_(block_id); }
  // The renderer's readiness of a landblock (0xXXYYFFFF), which
  // TeleportWorldReady waits on; null: always ready.
  void set_render_ready(std::function<bool(std::uint32_t)> hook) { render_ready_ = std::move(hook); }
  [[nodiscard]] LandblockStreamer& streamer() noexcept { return streamer_; }
  [[nodiscard]] const LandblockStreamer& streamer() const noexcept { return streamer_; }

  // The published terrain (a copy): none when the block is absent or
  // malformed (the build logged it).
  [[nodiscard]] std::optional<LandBlockStruct> load_land_block(std::uint32_t block_id) override;
  // CLandBlock::init_buildings's buildings (CBuildingObj::makeBuilding): each
  // model's first part with its physics BSP, a Setup's at its Resting (else
  // Default) placement frame (placement_frame).
  [[nodiscard]] std::vector<Building> load_buildings(std::uint32_t block_id) override;
  // CEnvCell::UnPack and CEnvCell::init_structure: each CellStruct's trees
  // are built and checked once and shared by the cells that use it.
  [[nodiscard]] std::unique_ptr<EnvCell> load_env_cell(std::uint32_t cell_id) override;
  void init_static_objs(std::uint32_t block_id) override;
  void init_static_objects(EnvCell& cell) override;
  void destroy_env_cell(std::uint32_t cell_id) override;
  // Also lets go of the records held for the block (read again when it loads
  // again, unless the renderer still holds them).
  void release_land_block(std::uint32_t block_id) override;
  // Its statics go and its records are demoted to Far (terrain only).
  void notify_change_size(std::uint32_t block_id) override;

  // The static objects of the loaded landblocks and visible EnvCells, in the
  // order made: obstacles, not server objects. Each is owned by its block's
  // or its EnvCell's list below.
  [[nodiscard]] const std::vector<PhysicsObj*>& static_objects() const noexcept { return statics_; }
  // The buildings and EnvCells as drawn of the blocks whose statics are made,
  // grown as each is made and rebuilt without a block's when it is released
  // (every snapshot shares it); null before any.
  [[nodiscard]] const std::shared_ptr<const LandscapeSnapshot>& view() const noexcept { return view_; }

  // CPhysicsObj::makeObject 0x00513970 (not dynamic): a static object of the
  // Setup or GfxObj `did` with object id `id` (0 for a stab; a scenery
  // object's 0x8XXYYIII), placed by add_obj_to_cell; none when the record is
  // absent.
  [[nodiscard]] std::unique_ptr<PhysicsObj> make_object(std::uint32_t did, std::uint32_t id = 0);

 private:
  // CLandBlock::init_static_objs 0x00530A40 (a block with none made).
  void load_static_objects(std::uint32_t block_id);
  // CLandBlock::get_land_scenes 0x00530460: the block's scenery
  // (sim/cells/scenery.hpp) made and kept with its statics.
  void load_scenery(std::uint32_t block_id);
  // CLandBlock::destroy_static_objects: a block's land statics go, and the
  // drawn view loses its buildings and EnvCells.
  void destroy_static_objects(std::uint32_t block_id);
  // Each of `owned` (in the order made) not completely visible recomputes its
  // cells (calc_cross_cells_static).
  static void recompute_statics(const std::vector<std::unique_ptr<PhysicsObj>>& owned);
  // Takes `owned` out of the order list, then frees them.
  void free_statics(std::vector<std::unique_ptr<PhysicsObj>>& owned);
  // The block's LandBlockInfo (0xXXYYFFFE), read once while the block is
  // loaded; null when absent or refused.
  std::shared_ptr<const dat::LandBlockInfo> land_block_info(std::uint32_t block_id);
  // An EnvCell record, read once while its block is loaded; null when absent
  // or refused.
  std::shared_ptr<const dat::EnvCell> env_cell_record(std::uint32_t cell_id);
  // The block's buildings and EnvCells as drawn, appended to `out`.
  void append_view(std::uint32_t block_id, const dat::LandBlockInfo& info, LandscapeSnapshot& out);

  dat::CellRecordCache* cells_;
  dat::Did region_id_;
  dat::RecordCache* records_;
  DatObjectFactory* factory_;
  SimContext* context_;
  Landscape* landscape_ = nullptr;
  // The records, held (published) while their blocks are loaded.
  LandblockStreamer streamer_;
  // The generation each loaded block (0xXXYY0000) and each loaded EnvCell
  // had its records from: its unload names it, so it never tears down a
  // newer region's records of the same id.
  std::map<std::uint32_t, std::uint64_t> block_generation_;
  std::map<std::uint32_t, std::uint64_t> env_generation_;
  std::function<bool(std::uint32_t)> render_ready_;
  std::map<std::uint64_t, std::shared_ptr<const CellStructPhysics>> structures_;
  // Every static object, in the order made (what the snapshot draws in).
  std::vector<PhysicsObj*> statics_;
  // The statics each landblock (0xXXYY0000) made, in its land cells
  // (CLandBlock::static_objects; a block with an entry has made them, even
  // none: CLandBlock::num_static_objects).
  std::map<std::uint32_t, std::vector<std::unique_ptr<PhysicsObj>>> block_statics_;
  // The statics each EnvCell made (CEnvCell::static_objects), likewise.
  std::map<std::uint32_t, std::vector<std::unique_ptr<PhysicsObj>>> env_cell_statics_;
  std::shared_ptr<const LandscapeSnapshot> view_;
};

// The Setup's placement frame its parts stand at as a building or static
// (CSetup: Resting 0x65, else the first Default 0); null without one.
[[nodiscard]] const dat::AnimationFrame* placement_frame(const dat::Setup& setup) noexcept;

}  // namespace dereth::sim
