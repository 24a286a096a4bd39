#pragma once
// CellManager (RE smartbox/CellManager.c): the SmartBox's link from the
// player's position to LScape's grid. It keeps the load position and
// whether its cell was found, and decides when the grid moves, and when the
// landscape is let go at once (the blocking form, at the player's
// CreateObject and at teleports).
#include <cstdint>

#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Landscape;
class ObjCell;

class CellManager {
 public:
  // The landscape the grid is kept in; not owned (null: none, every call
  // does nothing). Setting it forgets the load position.
  void set_landscape(Landscape* landscape) noexcept;

  // CellManager::ChangePosition 0x004559B0. Cell 0: Reset. Otherwise, when
  // the cell differs from the load position's or the last one was not
  // found, the last cell releases its visible cells (ObjCell::release_cells)
  // and then: blocking, the landscape is released at once (LScape::release_all:
  // every object in its cells is lost) and nothing is loaded, so the next
  // call, not blocking, loads the grid again; not blocking, an outdoor cell
  // centres the grid on itself, and when the cell is there (CObjCell::Get,
  // loading an EnvCell) an EnvCell not seen from outside releases the
  // landscape (unless keep_lscape_loaded) while one seen from outside
  // centres the grid on the outside cell under it; then the cell grabs its
  // visible cells (ObjCell::grab_visible_cells: LScape's, or the EnvCell's
  // own and its stab list's) and becomes the current cell. Last the
  // released EnvCells are freed and the visible ones initialised
  // (Landscape::flush_cells). The load position is set either way.
  // Retail blocks also while its cell prefetch waits on a download
  // (blocking_for_cells); dereth reads every cell from its DAT at once, as
  // retail's PreFetchCells answers when its cache needs no download.
  void change_position(const Position& p, bool blocking);
  // CellManager::Reset 0x00455930: the current cell releases its visible
  // cells and the released ones are freed (flush_cells); the landscape is
  // released when the load cell was outdoors or the current cell is seen
  // from outside; no load position.
  void reset();

  [[nodiscard]] std::uint32_t load_cell() const noexcept { return load_cell_; }
  // CellManager::curr_cell: whether the load position's cell was found.
  [[nodiscard]] bool has_curr_cell() const noexcept { return curr_cell_ != 0; }
  // CellManager::keep_lscape_loaded: the landscape stays from a cell not
  // seen from outside (off unless set, as retail's option).
  void set_keep_lscape_loaded(bool keep) noexcept { keep_lscape_loaded_ = keep; }

 private:
  // The current cell (visible, or released and not yet freed); null: none.
  [[nodiscard]] ObjCell* curr_cell() const;
  void release_curr_cell();

  Landscape* landscape_ = nullptr;
  std::uint32_t load_cell_ = 0;  // load_pos's cell
  // CellManager::curr_cell, by id (retail holds a reference on it; here
  // nothing frees it between its grab and its release_cells).
  std::uint32_t curr_cell_ = 0;
  bool keep_lscape_loaded_ = false;
};

}  // namespace dereth::sim
