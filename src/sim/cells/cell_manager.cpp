// CellManager (RE smartbox/CellManager.c; docs/sim.md "Landblock unloading").
#include "dereth/sim/cells/cell_manager.hpp"

#include <glm/vec3.hpp>

#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/cells/landscape.hpp"

namespace dereth::sim {

void CellManager::set_landscape(Landscape* landscape) noexcept {
  landscape_ = landscape;
  load_cell_ = 0;
  curr_cell_ = 0;
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
}

// CellManager::ChangePosition 0x004559B0
void CellManager::change_position(const Position& p, bool blocking) {
  if (landscape_ == nullptr) return;
  if (p.objcell_id == 0) {
    reset();
    return;
  }
  if (load_cell_ != p.objcell_id || curr_cell_ == 0) {
    release_curr_cell();
    const bool outdoor = (p.objcell_id & 0xFFFFu) < 0x100u;
    if (blocking) {
      landscape_->release_all();
    } else {
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
