#pragma once
// CBldPortal (RE cgeometry/CBldPortal.c): a building's door into the EnvCell
// behind it, with the cells seen through it.
#include <cstdint>
#include <vector>

namespace dereth::sim {

// CBldPortal.
struct BuildingPortal {
  std::uint32_t other_cell_id = 0;  // block_mask | the stored id
  std::uint16_t other_portal_id = 0;
  bool portal_side = false;
  // The cells seen through the portal (block_mask | each stored id), which
  // CLandBlock::init_buildings gathers into the block's stab list
  // (CBldPortal::add_to_stablist 0x0053BB60).
  std::vector<std::uint32_t> stab_list = {};
};

}  // namespace dereth::sim
