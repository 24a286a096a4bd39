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
  // Before any of that, PreFetchCells; while blocking_for_cells the call
  // blocks whatever it is asked. With a landscape that does not stream
  // everything is at hand and it never blocks (retail's PreFetchCells with
  // nothing to download). Streamed, the blocking release comes before the
  // prefetch (it forgets the region, so the prefetch begins a new
  // generation: docs/streaming.md); retail's prefetch only asks its cache.
  void change_position(const Position& p, bool blocking);
  // CellManager::PreFetchCells 0x00455820: the records cell_id needs
  // asked for (Landscape::prefetch_cells); all_cells_available is whether
  // every block of the grid is published. Not blocking, an outdoor cell in
  // the landblock last asked about with everything available asks nothing.
  // Blocking: blocking_for_cells until TeleportWorldReady (the world the
  // cell needs is published and drawn ready), then cleared; not blocking,
  // cleared once it is. Returns all_cells_available.
  bool pre_fetch_cells(std::uint32_t cell_id, bool blocking);
  // CellManager::CheckPrefetchStatus 0x00455BE0: PreFetchCells of the load
  // position (blocking while blocking_for_cells) once more than
  // prefetch_interval seconds have passed since the last check (retail:
  // 5 s, its download status; dereth's default 0: every call), `now`
  // being the sim clock's seconds; true when all cells are available.
  bool check_prefetch_status(double now);
  // CellManager::UpdateLoadPoint 0x00455710: an outdoor load position moves
  // the grid again (LScape::update_loadpoint), loading what was published
  // since. dereth also grabs the current cell's visible cells again, so the
  // blocks that reached full detail get their buildings and statics
  // (retail's were all at hand when the grid moved).
  void update_load_point();
  [[nodiscard]] bool blocking_for_cells() const noexcept { return blocking_for_cells_; }
  [[nodiscard]] bool all_cells_available() const noexcept { return all_cells_available_; }
  [[nodiscard]] std::uint32_t num_cells_waiting() const noexcept { return num_cells_waiting_; }
  void set_prefetch_interval(double seconds) noexcept { prefetch_interval_ = seconds; }
  // How long (sim seconds) blocking_for_cells may last before the gate
  // gives up, loudly (a missing or broken landblock must not hold the game
  // forever): it is cleared as though the cells had come, and the player is
  // placed as retail places one without cells. 0: never.
  void set_blocking_limit(double seconds) noexcept { blocking_limit_ = seconds; }
  // Times the gate gave up.
  [[nodiscard]] std::uint32_t gave_up() const noexcept { return gave_up_; }
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

  // Clears blocking_for_cells (retail: with the DDD status notice).
  void stop_blocking() noexcept;

  Landscape* landscape_ = nullptr;
  std::uint32_t load_cell_ = 0;  // load_pos's cell
  std::uint32_t last_prefetch_cell_ = 0;
  double last_prefetch_check_ = -1.0e300;
  double prefetch_interval_ = 0.0;
  double blocking_limit_ = 0.0;
  double blocking_since_ = 0.0;
  bool blocking_since_set_ = false;
  std::uint32_t gave_up_ = 0;
  bool blocking_for_cells_ = false;
  bool all_cells_available_ = true;
  std::uint32_t num_cells_waiting_ = 0;
  // CellManager::curr_cell, by id (retail holds a reference on it; here
  // nothing frees it between its grab and its release_cells).
  std::uint32_t curr_cell_ = 0;
  bool keep_lscape_loaded_ = false;
};

}  // namespace dereth::sim
