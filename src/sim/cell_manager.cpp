// CellManager (RE smartbox/CellManager.c; docs/sim.md "Landblock unloading").
#include "dereth/sim/cell_manager.hpp"

#include <glm/vec3.hpp>

#include "dereth/sim/land_defs.hpp"
#include "dereth/sim/landscape.hpp"

namespace dereth::sim {

void CellManager::set_landscape(Landscape* landscape) noexcept {
  landscape_ = landscape;
  load_cell_ = 0;
  has_curr_cell_ = false;
}

// CellManager::Reset 0x00455930 (the landscape is released whatever the
// load cell was: docs/deviations.md D3)
void CellManager::reset() {
  if (landscape_ != nullptr) landscape_->release_all();
  load_cell_ = 0;
  has_curr_cell_ = false;
}

// CellManager::ChangePosition 0x004559B0
void CellManager::change_position(const Position& p, bool blocking) {
  if (landscape_ == nullptr) return;
  if (p.objcell_id == 0) {
    reset();
    return;
  }
  if (load_cell_ != p.objcell_id || !has_curr_cell_) {
    has_curr_cell_ = false;
    if (blocking) {
      landscape_->release_all();
    } else {
      const bool outdoor = (p.objcell_id & 0xFFFFu) < 0x100u;
      if (outdoor) landscape_->update_loadpoint(p.objcell_id);
      // CObjCell::Get
      if (landscape_->get_cell(p.objcell_id) != nullptr) {
        if (!outdoor) {
          // Position::get_outside_cell_id (retail: only from a cell seen
          // from outside, else LScape::release_all; docs/deviations.md D3).
          std::uint32_t outside = p.objcell_id;
          glm::vec3 origin = p.frame.origin;
          if (LandDefs::adjust_to_outside(outside, origin)) landscape_->update_loadpoint(outside);
        }
        // CObjCell::grab_visible_cells: CLandCell::grab_visible_cells
        // 0x00532D90, and CEnvCell::grab_visible_cells 0x0052E220, whose own
        // visible cells are not kept (EnvCells load when asked for) and
        // which grabs the landscape from every EnvCell (retail: a cell seen
        // from outside; the grid is kept from every EnvCell, D3).
        landscape_->grab_visible_cells();
        has_curr_cell_ = true;
      }
    }
  }
  load_cell_ = p.objcell_id;
}

}  // namespace dereth::sim
