#pragma once
// CellManager (RE smartbox/CellManager.c): the SmartBox's link from the
// player's position to LScape's grid. It keeps the load position and
// whether its cell was found, and decides when the grid moves, and when the
// landscape is let go at once (the blocking form, at the player's
// CreateObject and at teleports).
#include <cstdint>

#include "dereth/sim/position.hpp"

namespace dereth::sim {

class Landscape;

class CellManager {
 public:
  // The landscape the grid is kept in; not owned (null: none, every call
  // does nothing). Setting it forgets the load position.
  void set_landscape(Landscape* landscape) noexcept;

  // CellManager::ChangePosition 0x004559B0. Cell 0: Reset. Otherwise, when
  // the cell differs from the load position's or the last one was not
  // found: blocking, the landscape is released at once (LScape::release_all:
  // every object in its cells is lost) and nothing is loaded, so the next
  // call, not blocking, loads the grid again; not blocking, an outdoor cell
  // centres the grid on itself and, when the cell is there, so does the
  // outside cell under a loaded EnvCell, and then the cell grabs its visible
  // cells (Landscape::grab_visible_cells: the full blocks' buildings,
  // statics and lost objects). The load position is set either way.
  // Retail blocks also while its cell prefetch waits on a download
  // (blocking_for_cells); dereth reads every cell from its DAT at once, as
  // retail's PreFetchCells answers when its cache needs no download.
  void change_position(const Position& p, bool blocking);
  // CellManager::Reset 0x00455930: the landscape released, no load position.
  void reset();

  [[nodiscard]] std::uint32_t load_cell() const noexcept { return load_cell_; }
  // CellManager::curr_cell: whether the load position's cell was found.
  [[nodiscard]] bool has_curr_cell() const noexcept { return has_curr_cell_; }

 private:
  Landscape* landscape_ = nullptr;
  std::uint32_t load_cell_ = 0;  // load_pos's cell
  bool has_curr_cell_ = false;
};

}  // namespace dereth::sim
