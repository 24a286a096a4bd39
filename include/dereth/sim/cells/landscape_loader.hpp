#pragma once
// LandscapeLoader: the seam through which the landscape (LScape) reads its
// cell records and has the static objects of its landblocks and EnvCells
// made and freed, in retail's order (DatLandscapeLoader is the real one, over
// the cell and portal DATs). The default gives nothing and does nothing.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dereth/sim/cells/building.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"

namespace dereth::sim {

class LandscapeLoader {
 public:
  LandscapeLoader() = default;
  LandscapeLoader(const LandscapeLoader&) = delete;
  LandscapeLoader& operator=(const LandscapeLoader&) = delete;
  virtual ~LandscapeLoader() = default;

  // Whether the records `id` needs are at hand: a landblock's (0xXXYYFFFF)
  // terrain, or with `near` also its LandBlockInfo and EnvCells; an
  // EnvCell's (0xXXYY0100 and up) block at near. A streaming loader asks
  // for them the first time and answers false until they are published
  // (between ticks): the block or cell is then neither loaded nor refused,
  // and is asked for again. The default has everything at hand.
  [[nodiscard]] virtual bool records_ready(std::uint32_t /*id*/, bool /*near*/) { return true; }
  // Whether records_ready can answer false at all (retail's DBCache with
  // cells to download): false, CellManager::PreFetchCells answers at once.
  [[nodiscard]] virtual bool streams() const { return false; }
  // A hard recenter, dungeon collapse or expansion begins: the records
  // asked for before it are not published when they arrive.
  virtual void begin_region() {}
  // Whether a landblock (0xXXYYFFFF) is drawn ready (the renderer's hook;
  // true without one). TeleportWorldReady waits on it.
  [[nodiscard]] virtual bool render_ready(std::uint32_t /*block_id*/) { return true; }

  // A landblock's terrain (0xXXYYFFFF: LScape::get_all 0x00505DD0's read);
  // none when the block is absent or refused (the loader reports why).
  [[nodiscard]] virtual std::optional<LandBlockStruct> load_land_block(std::uint32_t /*block_id*/) {
    return std::nullopt;
  }
  // The buildings of a landblock's LandBlockInfo (CBuildingObj::makeBuilding).
  [[nodiscard]] virtual std::vector<Building> load_buildings(std::uint32_t /*block_id*/) { return {}; }
  // An EnvCell by its id (0xXXYY0100 and up: DBObj::Get, CEnvCell::UnPack);
  // null when absent or refused (the loader reports why).
  [[nodiscard]] virtual std::unique_ptr<EnvCell> load_env_cell(std::uint32_t /*cell_id*/) { return nullptr; }

  // CLandBlock::init_static_objs 0x00530A40, for each full-detail block
  // (0xXXYYFFFF) of the grid in grid order as grab_visible_cells runs: the
  // block's static objects made when it has none (and its land cells'
  // restriction objects, Landscape::init_restrictions), else each not
  // completely visible recomputes its cells (calc_cross_cells_static).
  virtual void init_static_objs(std::uint32_t /*block_id*/) {}
  // CEnvCell::init_static_objects 0x0052C350, for each visible EnvCell as
  // flush_cells runs: the cell's static objects made when it has none, else
  // each not completely visible recomputes its cells.
  virtual void init_static_objects(EnvCell& /*cell*/) {}
  // CEnvCell::Destroy: a released EnvCell flush_cells frees, after it let go
  // of its objects and before it is freed; its static objects go.
  virtual void destroy_env_cell(std::uint32_t /*cell_id*/) {}
  // CLandBlock::release_all 0x0052FCF0: a landblock (0xXXYYFFFF) released,
  // after its cells (land cells and its EnvCells) let go of every shadow and
  // before they are freed; its static objects go
  // (CLandBlock::destroy_static_objects).
  virtual void release_land_block(std::uint32_t /*block_id*/) {}
  // CLandBlock::notify_change_size 0x005302C0: a landblock turning coarse,
  // after its cells let go of every shadow and before they are freed (the
  // block stays loaded); its static objects go
  // (CLandBlock::destroy_static_objects).
  virtual void notify_change_size(std::uint32_t /*block_id*/) {}
};

}  // namespace dereth::sim
