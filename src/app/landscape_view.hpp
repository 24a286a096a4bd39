#pragma once
// The loaded landblocks' buildings and EnvCells as the renderer draws them
// (sim::LandscapeSnapshot), read from the cell DAT as each block loads.

#include <cstdint>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::app {

// Appends block `block_id`'s buildings (from its LandBlockInfo `info`: each
// model's parts at their world frames, a Setup's at its Resting, else
// Default, placement) and its EnvCells (0xXXYY0100 up to info.num_cells, each
// read from `cell`) to `out`. What does not read is logged and left out.
void append_landscape_view(const dat::DatFile* cell, dat::RecordCache& records, std::uint32_t block_id,
                           const dat::LandBlockInfo& info, sim::LandscapeSnapshot& out);

}  // namespace dereth::app
