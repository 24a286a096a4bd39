#pragma once
// Builds the immutable RenderSnapshot after a tick (render_snapshot.hpp):
// objects in local-id order with their part poses, then the effects' emitters,
// lights and sound events.

#include <cstdint>

#include "dereth/sim/render_snapshot.hpp"

namespace dereth::sim {

class SmartBox;

// Objects outside the world (no cell) and parented children that are not
// drawn are still published, flagged, so the renderer decides.
[[nodiscard]] SnapshotPtr build_render_snapshot(SmartBox& box, std::uint64_t tick);

}  // namespace dereth::sim
