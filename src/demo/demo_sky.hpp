#pragma once
// The demo Region's sky objects (private to the demo module): a dome, a sun,
// a moon and a drifting cloud layer, with made-up GfxObjs and textures.

#include <vector>

#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/region.hpp"

namespace dereth::demo {

// Adds the sky's GfxObjs, Surfaces and textures to `out`, the sky objects to
// every day group of `region.sky` (after its sky_times are set: it adds the
// objects' replaces to them by keyframe begin), and sets the calendar's zero
// so that game time 0 (the scenario server's clock at its start) is noon.
void add_demo_sky(dat::Region& region, std::vector<dat::DatRecord>& out);

}  // namespace dereth::demo
