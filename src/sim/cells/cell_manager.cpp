// CellManager (RE smartbox/CellManager.c; docs/sim.md "Landblock unloading").
#include "dereth/sim/cells/cell_manager.hpp"

#include <glm/vec3.hpp>

#include "dereth/core/log.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/cells/landscape.hpp"

namespace dereth::sim {

void CellManager::set_landscape(Landscape* landscape) noexcept {
  landscape_ = landscape;
  load_cell_ = 0;
  curr_cell_ = 0;
  last_prefetch_cell_ = 0;
  blocking_for_cells_ = false;
  blocking_since_set_ = false;
  all_cells_available_ = true;
  num_cells_waiting_ = 0;
}

void CellManager::stop_blocking() noexcept {
  blocking_for_cells_ = false;
  blocking_since_set_ = false;
  num_cells_waiting_ = 0;
}

// CellManager::PreFetchCells 0x00455820
bool CellManager::pre_fetch_cells(std::uint32_t cell_id, bool blocking) {
  // DBCache: nothing to download, all at hand.
  if (landscape_ == nullptr || !landscape_->streams()) return true;
  const bool outdoor = (cell_id & 0xFFFFu) < 0x100u;
  bool world_ready = true;
  if (outdoor && !blocking && all_cells_available_ && ((cell_id ^ last_prefetch_cell_) & 0xFFFF0000u) == 0) {
    all_cells_available_ = true;
  } else {
    const Landscape::CellPrefetch r = landscape_->prefetch_cells(cell_id);
    all_cells_available_ = r.all_available;
    world_ready = r.world_ready;
    num_cells_waiting_ = r.waiting;
  }
  last_prefetch_cell_ = cell_id;
  // TeleportWorldReady (docs/streaming.md): the world the cell needs is
  // published and drawn ready; the rest of the grid streams in meanwhile.
  if (world_ready) {
    if (blocking_for_cells_) stop_blocking();
  } else if (blocking && !blocking_for_cells_) {
    blocking_for_cells_ = true;
  }
  return all_cells_available_;
}

// CellManager::CheckPrefetchStatus 0x00455BE0
bool CellManager::check_prefetch_status(double now) {
  if (blocking_for_cells_ && !blocking_since_set_) {
    blocking_since_ = now;
    blocking_since_set_ = true;
  }
  if (now - last_prefetch_check_ <= prefetch_interval_ && prefetch_interval_ > 0.0) return false;
  last_prefetch_check_ = now;
  const bool available = pre_fetch_cells(load_cell_, blocking_for_cells_);
  if (blocking_for_cells_ && blocking_limit_ > 0.0 && now - blocking_since_ > blocking_limit_) {
    // A landblock that never comes must not hold the game: loudly, as if it
    // had (the player is placed as one without cells is).
    core::logger(core::Module::Sim)
        ->error("cells of {:08X} not ready after {:.1f} s ({} waiting): the gate gives up", load_cell_,
                now - blocking_since_, num_cells_waiting_);
    stop_blocking();
    ++gave_up_;
  }
  return available;
}

// CellManager::UpdateLoadPoint 0x00455710
void CellManager::update_load_point() {
  if (landscape_ == nullptr || load_cell_ == 0) return;
  if ((load_cell_ & 0xFFFFu) < 0x100u) landscape_->update_loadpoint(load_cell_);
  // dereth: the blocks now at full detail get their buildings and statics.
  if (ObjCell* cell = curr_cell(); cell != nullptr) {
    cell->grab_visible_cells(*landscape_);
    landscape_->flush_cells();
  }
}

ObjCell* CellManager::curr_cell() const {
  if (landscape_ == nullptr || curr_cell_ == 0) return nullptr;
  // The visible cell, or a released one not yet flushed: Landscape::get
  // finds both (retail's reference keeps the cell; nothing here frees it
  // between its grab and its release_cells, so get reads none afresh).
  return landscape_->get(curr_cell_);
}

// The old cell's release_cells (vtable slot 4's Release), curr_cell cleared.
void CellManager::release_curr_cell() {
  if (ObjCell* cell = curr_cell(); cell != nullptr) cell->release_cells(*landscape_);
  curr_cell_ = 0;
}

// CellManager::Reset 0x00455930
void CellManager::reset() {
  if (landscape_ == nullptr) {
    load_cell_ = 0;
    curr_cell_ = 0;
    return;
  }
  bool release = (load_cell_ & 0xFFFFu) < 0x100u;
  if (curr_cell_ != 0) {
    const auto* env = dynamic_cast<const EnvCell*>(curr_cell());
    if (env != nullptr && env->seen_outside()) release = true;
    release_curr_cell();
    landscape_->flush_cells();
  }
  if (release) landscape_->release_all();
  load_cell_ = 0;
  landscape_->forget_region();
  if (blocking_for_cells_) stop_blocking();
  all_cells_available_ = true;
}

// CellManager::ChangePosition 0x004559B0
void CellManager::change_position(const Position& p, bool blocking) {
  if (landscape_ == nullptr) return;
  if (p.objcell_id == 0) {
    reset();
    return;
  }
  // Blocking while the prefetch waits, whatever was asked.
  blocking = blocking || blocking_for_cells_;
  if (load_cell_ != p.objcell_id || curr_cell_ == 0) {
    release_curr_cell();
    const bool outdoor = (p.objcell_id & 0xFFFFu) < 0x100u;
    if (blocking) {
      landscape_->release_all();
      // A hard recenter: the prefetch below begins a new region (unless it
      // is the one already waited on).
      if (!blocking_for_cells_ || load_cell_ != p.objcell_id) landscape_->forget_region();
      pre_fetch_cells(p.objcell_id, true);
    } else {
      pre_fetch_cells(p.objcell_id, false);
      if (outdoor) landscape_->update_loadpoint(p.objcell_id);
      // CObjCell::Get (an EnvCell is loaded when it is not held)
      if (ObjCell* cell = landscape_->get(p.objcell_id); cell != nullptr) {
        const auto* env = dynamic_cast<const EnvCell*>(cell);
        if (!outdoor && env != nullptr && !env->seen_outside() && !keep_lscape_loaded_) {
          // A cell not seen from outside: no landscape.
          landscape_->release_all();
        } else if (!outdoor) {
          // Position::get_outside_cell_id
          std::uint32_t outside = p.objcell_id;
          glm::vec3 origin = p.frame.origin;
          if (LandDefs::adjust_to_outside(outside, origin)) landscape_->update_loadpoint(outside);
        }
        // CObjCell::grab_visible_cells (vtable): a land cell grabs LScape's
        // cells, an EnvCell its own and its stab list (and LScape's when
        // seen from outside).
        cell->grab_visible_cells(*landscape_);
        curr_cell_ = p.objcell_id;
      }
    }
    landscape_->flush_cells();
  }
  load_cell_ = p.objcell_id;
}

}  // namespace dereth::sim
