#pragma once
// CELLARRAY: the cells a transition's spheres overlap, which it tests and
// inserts the mover into (filled by CellSource::find_cell_list).
#include <cstdint>
#include <vector>

namespace dereth::sim {

class ObjCell;

// CELLARRAY entry and array.
struct CellArrayEntry {
  std::uint32_t cell_id = 0;
  ObjCell* cell = nullptr;
};
struct CellArray {
  std::vector<CellArrayEntry> cells;
  bool added_outside = false;
  bool do_not_load_cells = false;
};

}  // namespace dereth::sim
