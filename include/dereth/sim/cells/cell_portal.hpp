#pragma once
// CCellPortal (RE cgeometry/CCellPortal.c): an EnvCell's door to a
// neighbouring cell or outdoors, as collision uses it.
#include <cstdint>

#include "dereth/dat/env_cell.hpp"
#include "dereth/sim/cells/cell_struct_physics.hpp"

namespace dereth::sim {

// CCellPortal as collision uses it.
struct CellPortal {
  static constexpr std::uint32_t kOutside = 0xFFFFFFFFu;
  std::uint32_t other_cell_id = kOutside;  // the full id, or kOutside
  std::uint16_t other_portal_id = 0;
  bool portal_side = false;
  const Polygon* portal = nullptr;  // in the structure's polygons; null: no plane

  // CCellPortal::UnPack 0x0053BAB0: side = !(flags & 2); flags & 4 leads
  // outside; the other cell is in this landblock.
  [[nodiscard]] static CellPortal unpack(const dat::CellPortal& p, std::uint32_t block_mask,
                                         const CellStructPhysics& structure);
};

}  // namespace dereth::sim
